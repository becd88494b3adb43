#!/usr/bin/python3
"""`make bench`'s numbers for `pushpreview serve`, all on 127.0.0.1 and bounded in time:
- edit-to-picture: a category template edited N times; from the write to the Server-Sent Event
  that names the payload's new pictures (median and p95);
- push-to-picture: pushes over HTTP/1.1 keep-alive at RATE a second for SECONDS with PAGES pages
  open on the event stream, in two halves; from the 200 to the event that names the push's pictures (median, p95,
  for the pushes drawn: only the newest 50 are drawn), and the newest --keep-received kept;
- memory as the kernel counts it: PSS of the server and its workers (smaps_rollup, summed over
  the process tree) idle before, at its peak during, and idle after the load; and the CPU the
  tree uses while idle.
Usage: bench-serve.py PUSHPREVIEW [--seconds 30] [--rate 200] [--pages 20] [--edits 20]"""
import argparse, http.client, json, os, shutil, signal, socket, statistics, subprocess, sys, threading, time, uuid
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_harness

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--seconds", type=float, default=30, help="each of the two halves of the load")
parser.add_argument("--rate", type=int, default=200)
parser.add_argument("--pages", type=int, default=20)
parser.add_argument("--edits", type=int, default=20)
parser.add_argument("--check", action="store_true", help="exit 1 when a push is lost or a page missed the last event (for make test)")
args = parser.parse_args()
work, project = serve_harness.project_copy("pushpreview-bench-serve-", ["localized-boarding.apns", "plain-alert.apns"])
settings = json.load(open(os.path.join(project, "pushpreview.json")))
settings["bundleId"] = "com.example.ferry"
json.dump(settings, open(os.path.join(project, "pushpreview.json"), "w"))

def tree(pid):
    """The process and its descendants."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{t}/children") as f: todo += [int(c) for c in f.read().split()]
        except OSError: pass
    return out

def pss_mb(pid):
    total = 0
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"): total += int(line.split()[1])
        except OSError: pass
    return total / 1024

def cpu_seconds(pid):
    total = 0
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/stat") as f: fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError: pass
    return total / os.sysconf("SC_CLK_TCK")

server, port = serve_harness.start(args.binary, work, project, appearance="light,dark")

class Page(threading.Thread):
    """One open page: reads the event stream and notes when each picture was named."""
    def __init__(self):
        super().__init__(daemon=True)
        self.seen, self.events, self.stop = {}, 0, False
        self.log = []  # (time, pictures) of each event
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    def run(self):
        buffer = b""
        while not self.stop:
            try: chunk = self.sock.recv(65536)
            except OSError: return
            if not chunk: return
            buffer += chunk
            now = time.time()
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                for line in message.split(b"\n"):
                    if line.startswith(b"data: {"):
                        self.events += 1
                        data = json.loads(line[6:])
                        self.log.append((now, data.get("pictures", [])))
                        for picture in data.get("pictures", []): self.seen.setdefault(picture, now)
                    elif line.startswith(b"data: ") and b"pictures" in line:
                        pass  # a chunk-size line of HTTP/1.1 chunked encoding is skipped by the split above

def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")

watcher = Page(); watcher.start()
time.sleep(1)
idle_before = pss_mb(server.pid)
cpu_a = cpu_seconds(server.pid); time.sleep(5); idle_cpu = cpu_seconds(server.pid) - cpu_a

# Edit to picture.
template = os.path.join(project, "Templates", "boarding-pass.html")
source = open(template).read()
latencies, views = [], 0
for i in range(args.edits):
    colour = "#%02x%02x%02x" % (20 + i * 9 % 200, 80, 120)
    mark = len(watcher.log)
    started = time.time()
    with open(template + ".tmp", "w") as f: f.write(source.replace("#1fb5a8", colour))
    os.replace(template + ".tmp", template)
    deadline = started + 30
    while time.time() < deadline:
        fresh = [(t, [p for p in pictures if p.startswith("localized-boarding/")]) for t, pictures in watcher.log[mark:]]
        fresh = [(t, p) for t, p in fresh if p]
        if fresh:
            latencies.append((fresh[0][0] - started) * 1000)
            views = len(fresh[0][1])
            break
        time.sleep(0.005)
    time.sleep(0.3)
print(f"serve: edit to picture ({views} changed pictures of one payload, {len(latencies)} of {args.edits} edits seen): "
      f"median {statistics.median(latencies):.0f} ms, p95 {percentile(latencies, 95):.0f} ms" if latencies else "serve: no edit was seen")

# Pushes at a rate, with pages open.
pages = [Page() for _ in range(args.pages)]
for p in pages: p.start()
sent, failed, accepted = {}, [], 0
lock = threading.Lock()
peak = [idle_before]
def sampler():
    while not done.is_set():
        peak[0] = max(peak[0], pss_mb(server.pid)); time.sleep(0.2)
def sender(share, rate):
    global accepted
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    interval, start, n = 1 / rate, time.time(), 0
    while time.time() - start < args.seconds:
        target = start + n * interval
        if target > time.time(): time.sleep(target - time.time())
        id = str(uuid.uuid4())
        body = json.dumps({"aps": {"alert": {"title": f"Load {share}-{n}", "body": "Bench push"}}})
        try:
            connection.request("POST", "/3/device/aabbccdd", body, {"apns-topic": "com.example.ferry", "apns-id": id, "apns-push-type": "alert"})
            r = connection.getresponse(); r.read()
            with lock:
                if r.status == 200: sent[id] = time.time(); accepted += 1
                else: failed.append(r.status)
        except Exception as e:
            with lock: failed.append(str(e))
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        n += 1
done = threading.Event()
threading.Thread(target=sampler, daemon=True).start()
# In two halves, idle between: memory that plateaus is flat; memory that grows with pushes is not.
halves = []
for half in range(2):
    senders = [threading.Thread(target=sender, args=(i, args.rate / 4)) for i in range(4)]
    for s in senders: s.start()
    for s in senders: s.join()
    time.sleep(3)
    halves.append(pss_mb(server.pid))
done.set()
args.seconds *= 2
kept = len(os.listdir(os.path.join(project, "received")))
# serve keeps the newest --keep-received pushes (1,000 by default) where it has the option.
helptext = subprocess.run([args.binary, "serve", "--help"], capture_output=True, text=True).stdout
keep = min(accepted, 1000) if "--keep-received" in helptext else accepted
page = http.client.HTTPConnection("127.0.0.1", port); page.request("GET", "/"); text = page.getresponse().read().decode()
drawn = []
for id, t in sent.items():
    times = [when for picture, when in watcher.seen.items() if id in picture]
    if times: drawn.append((min(times) - t) * 1000)
print(f"serve: {accepted} pushes accepted in {args.seconds:.0f} s ({accepted / args.seconds:.0f}/s asked {args.rate}/s), {len(failed)} refused or failed, "
      f"{kept} kept in received/ (of {keep} to keep: {kept == keep and not failed}), the page counts {text.count('Received (' + str(accepted) + ')')} with all of them")
print(f"serve: push to picture, for the {len(drawn)} pushes drawn (the newest 50 at any time are drawn): "
      f"median {statistics.median(drawn):.0f} ms, p95 {percentile(drawn, 95):.0f} ms" if drawn else "serve: no push was drawn")
last = max(p.events for p in pages)
behind = [p.events for p in pages if p.events < last]
print(f"serve: {args.pages} pages on the event stream got {min(p.events for p in pages)}–{last} events each ({len(behind)} behind the others)")
time.sleep(2)
idle_after = pss_mb(server.pid)
cpu_a = cpu_seconds(server.pid); time.sleep(5); idle_cpu_after = cpu_seconds(server.pid) - cpu_a
print(f"serve: PSS of the server and its workers: {idle_before:.0f} MB idle before, {peak[0]:.0f} MB peak under load, "
      f"{halves[0]:.0f} MB idle after the first half of the pushes, {halves[1]:.0f} MB after the second, {idle_after:.0f} MB at the end; "
      f"CPU while idle: {idle_cpu:.2f} s in 5 s before, {idle_cpu_after:.2f} s after")
for p in pages + [watcher]: p.stop = True; p.sock.close()
server.send_signal(signal.SIGINT)
server.wait(30)
shutil.rmtree(work, ignore_errors=True)
if args.check and (failed or kept != accepted or behind): sys.exit(1)
