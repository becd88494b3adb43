#!/usr/bin/python3
"""Issue 40's numbers for the live review, all on 127.0.0.1 or file:// and bounded in time.

edit: `pushpreview serve` on a copy of Examples in /tmp (two payloads, the project's own devices,
  locales and both appearances: localized-boarding has 36 variants); the page's looked-at card is
  the one drawn last in plan order (its last device, dark, its last locale), told to serve with
  POST /viewing when serve takes it. A template is edited EDITS times; from the write to the
  Server-Sent Event on /events that names a picture of that card (median and p95).
gallery: a gallery of PAYLOADS payloads (a few drawn, their report entries repeated under new
  names and the page written again by `gallery --merge`), opened in headless Chromium: from the
  navigation to a working filter (the filter script has run: `#shown` says how many are shown),
  the page's size and element count, and each filter change (from the change event to the next
  frame after layout; median and max of 12).
Usage: measure-live.py PUSHPREVIEW edit [--edits 20]
       measure-live.py PUSHPREVIEW gallery [--payloads 1000] [--keep DIR]"""
import argparse, http.client, json, os, shutil, socket, statistics, subprocess, sys, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("mode", choices=["edit", "gallery"])
parser.add_argument("--edits", type=int, default=20)
parser.add_argument("--payloads", type=int, default=1000)
parser.add_argument("--keep", help="gallery: keep the written gallery in this folder")
args = parser.parse_args()
binary = os.path.abspath(args.binary)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp(prefix="pushpreview-measure-live-")


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def examples(keep):
    project = os.path.join(work, "Examples")
    shutil.copytree(os.path.join(root, "Examples"), project, ignore=shutil.ignore_patterns("cache", "received"))
    for name in os.listdir(os.path.join(project, "payloads")):
        if name not in keep: os.remove(os.path.join(project, "payloads", name))
    return project


def edit():
    project = examples(("localized-boarding.apns", "plain-alert.apns"))
    out = os.path.join(work, "Output")
    log = open(os.path.join(work, "serve.log"), "w")
    server = subprocess.Popen([binary, "serve", project, "--out", out, "--port", "0"], stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        port, started = None, time.time()
        for line in server.stdout:
            if line.startswith("serving http://127.0.0.1:"):
                port = int(line.split(":")[2].split("/")[0])
                break
        if port is None: sys.exit("measure-live: serve did not start: " + open(log.name).read())
        print(f"serve: first draw {time.time() - started:.1f} s")
        report = json.load(open(os.path.join(out, "report.json")))
        mockups = next(i for i in report["inputs"] if i["payload"].endswith("localized-boarding.apns"))["mockups"]
        variants = sorted({(m["device"], m["appearance"], m.get("locale") or "", m.get("textSize") or "large", m.get("ios") or "18", m.get("glass") or "clear") for m in mockups})
        rank = lambda v: (report["devices"].index(v[0]) if v[0] in report["devices"] else -1, report["appearances"].index(v[1]),
                          report["locales"].index(v[2]) if v[2] in report["locales"] else -1, v[3])
        looked = max(variants, key=rank)
        card = "|".join(("payloads/localized-boarding.apns",) + looked)
        pictures = {p for m in mockups if (m["device"], m["appearance"], m.get("locale") or "", m.get("textSize") or "large", m.get("ios") or "18", m.get("glass") or "clear") == looked
                    for p in m["outputs"] if p.endswith(".png")}
        print(f"serve: localized-boarding has {len(variants)} variants; the looked-at card is {card} ({len(pictures)} pictures)")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("POST", "/viewing", body=json.dumps({"cards": [card]}), headers={"content-type": "application/json"})
        answer = connection.getresponse(); answer.read()
        print(f"serve: POST /viewing → {answer.status}")

        events = []  # (time, pictures)
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

        def read():
            buffer = b""
            while True:
                try: chunk = sock.recv(65536)
                except OSError: return
                if not chunk: return
                buffer += chunk
                now = time.time()
                for line in buffer.split(b"\n"):
                    if line.startswith(b"data: {") and line.endswith(b"}"):
                        try: events.append((now, json.loads(line[6:]).get("pictures", [])))
                        except ValueError: pass
                buffer = buffer.rsplit(b"\n", 1)[-1]
        threading.Thread(target=read, daemon=True).start()
        time.sleep(1)

        template = os.path.join(project, "Templates", "boarding-pass.html")
        source = open(template).read()
        if "#1fb5a8" not in source: sys.exit("measure-live: the template's colour #1fb5a8 is gone; pick another edit")
        latencies, whole = [], []
        for i in range(args.edits):
            colour = "#%02x%02x%02x" % (20 + i * 9 % 200, 80, 120)
            mark = len(events)
            begun = time.time()
            with open(template + ".tmp", "w") as f: f.write(source.replace("#1fb5a8", colour))
            os.replace(template + ".tmp", template)
            seen = None
            while time.time() < begun + 60:
                for t, named in events[mark:]:
                    if pictures & set(named): seen = t; break
                if seen: break
                time.sleep(0.005)
            if seen is None: print(f"serve: edit {i + 1}: the looked-at card's picture did not change within 60 s"); continue
            latencies.append((seen - begun) * 1000)
            # Then until the batch is done: the log says "drawn again in".
            time.sleep(0.2)
            while time.time() < begun + 90 and open(log.name).read().count("drawn again in") < i + 1: time.sleep(0.02)
            whole.append((time.time() - begun) * 1000)
        print(f"serve: template edit → looked-at card's picture over {len(latencies)} of {args.edits} edits: "
              f"median {statistics.median(latencies):.0f} ms, p95 {percentile(latencies, 95):.0f} ms" if latencies else "serve: no edit was seen")
        if whole: print(f"serve: template edit → every variant drawn again: median {statistics.median(whole):.0f} ms, p95 {percentile(whole, 95):.0f} ms")
    finally:
        server.terminate()
        server.wait(timeout=30)


def gallery():
    drawn = ("plain-alert.apns", "localized-boarding.apns", "emoji.apns", "long-body.apns", "crew-message.apns")
    project = examples(drawn)
    out = args.keep or os.path.join(work, "Output")
    started = time.time()
    # The project's own devices and locales, as `pushpreview gallery` draws it by default.
    run = subprocess.run([binary, "gallery", project, "--out", out], capture_output=True, text=True)
    if run.returncode not in (0, 3): sys.exit("measure-live: gallery failed: " + run.stderr[-2000:])
    print(f"gallery: {len(drawn)} payloads drawn in {time.time() - started:.1f} s")
    report = json.load(open(os.path.join(out, "report.json")))
    inputs = []
    for n in range(args.payloads):
        entry = json.loads(json.dumps(report["inputs"][n % len(report["inputs"])]))
        name = f"payloads/copy-{n:04d}-" + entry["payload"].split("/", 1)[1]
        entry["payload"] = name
        for m in entry["mockups"]: m["payload"] = name
        inputs.append(entry)
    report["inputs"] = inputs
    with open(os.path.join(out, "report.json"), "w") as f: json.dump(report, f)
    run = subprocess.run([binary, "gallery", "--merge", out, "--out", out], capture_output=True, text=True)
    if run.returncode != 0: sys.exit("measure-live: merge failed: " + run.stderr[-2000:])
    page = os.path.join(out, "index.html")
    cards = len({(m["payload"], m["device"], m["appearance"], m.get("locale"), m.get("textSize")) for i in inputs for m in i["mockups"]})
    print(f"gallery: {args.payloads} payloads, {cards} cards, index.html {os.path.getsize(page) / 1e6:.1f} MB")

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", "--allow-file-access-from-files"]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    options.page_load_strategy = "none"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(60)
    try:
        driver.get("about:blank")
        begun = time.time()
        driver.get("file://" + page)
        ready = None
        while time.time() < begun + 120:
            try:
                if driver.execute_script("const s = document.getElementById('shown'); return !!(s && s.textContent)"):
                    ready = time.time() - begun; break
            except Exception: pass
            time.sleep(0.02)
        if ready is None: sys.exit("measure-live: the filter did not start within 120 s")
        nodes = driver.execute_script("return document.getElementsByTagName('*').length")
        print(f"gallery: a working filter after {ready * 1000:.0f} ms ({nodes} elements then)")
        changes = []
        values = [("appearance", "dark"), ("appearance", ""), ("appearance", "light"), ("outcome", "warnings"), ("outcome", ""), ("appearance", "")] * 2
        for name, value in values:
            took = driver.execute_async_script("""const [name, value, done] = arguments;
                const s = document.querySelector('select[data-filter="' + name + '"]');
                const t0 = performance.now();
                s.value = value; s.dispatchEvent(new Event('change'));
                document.body.offsetHeight;
                requestAnimationFrame(() => setTimeout(() => done([performance.now() - t0, document.getElementById('shown').textContent]), 0));""", name, value)
            changes.append(took[0])
        print(f"gallery: a filter change takes median {statistics.median(changes):.0f} ms, max {max(changes):.0f} ms ({len(changes)} changes; last: {took[1]})")
        nodes = driver.execute_script("return document.getElementsByTagName('*').length")
        print(f"gallery: {nodes} elements after the changes")
    finally:
        driver.quit()


try:
    edit() if args.mode == "edit" else gallery()
finally:
    shutil.rmtree(work, ignore_errors=True)
