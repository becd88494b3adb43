#!/usr/bin/python3
"""The process-level half of `make fuzz`: mutates one file of a copy of Examples/ at a time (a
payload, an Info.plist, categories.json, pushpreview.json, a template, a strings file or catalog,
app-group data, a media file) and runs `pushpreview gallery` on it, as a user would. Each run must
end with exit status 0 or 1, write report.json and index.html listing every payload, and no
payload may have died in its worker ("crashed:" or "stopped:": containment worked, but the cause
is ours to fix). A failing case's project is kept in CRASHES/project-N/.
Usage: mutate-projects.py PUSHPREVIEW CRASHES [--seconds S | --cases N] [--seed K]"""
import json, os, random, shutil, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutation import Bait, mutate, plant_link

binary, crashes = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
args = sys.argv[3:]
seconds = float(args[args.index("--seconds") + 1]) if "--seconds" in args else None
cases = int(args[args.index("--cases") + 1]) if "--cases" in args else (None if seconds else 20)
rng = random.Random(int(args[args.index("--seed") + 1]) if "--seed" in args else 1)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
payloads = ["body-only.apns", "crew-message.apns", "harbor-master.apns", "image-gif.apns", "localized-boarding.apns", "photo-tall.apns"]

# Tokens that broke parsers before: numbers out of range, escapes, open blocks, odd specifiers.
tokens = [b"1e300", b"-1e30", b"nan", b"infpx", b"-9223372036854775808", b"\\ud800\\u0041", b"%0$@", b"%99999999999999999999$@",
          b"{{#actions}}", b"{{/actions}}", b"{{>", b"a { color: red", b"@media (", b"<div style=\"display:flex\">", b"</div>",
          b"/**/\"", b"\"", b"{", b"}", b"[", b"]", b",", b"<", b">", b"\x00", b"\xff\xfe", b"bplist00", b"../../", b"%2e%2e/", b"url(/etc/passwd)"]


work = tempfile.mkdtemp(prefix="pushpreview-mutate-")
project = os.path.join(work, "Examples")
shutil.copytree(os.path.join(root, "Examples"), project, ignore=shutil.ignore_patterns("cache"))
for name in os.listdir(os.path.join(project, "payloads")):
    if name not in payloads: os.remove(os.path.join(project, "payloads", name))
files = sorted(os.path.relpath(os.path.join(d, f), project) for d, _, fs in os.walk(project) for f in fs)
env = dict(os.environ, SWIFT_BACKTRACE="enable=no", NO_COLOR="1")
start, n, problems, links = time.time(), 0, 0, 0
while (cases is None or n < cases) and (seconds is None or time.time() - start < seconds):
    n += 1
    out = os.path.join(work, "out")
    shutil.rmtree(out, ignore_errors=True)
    # One case in three plants symlinks to a watched bait outside (in a copy of the project, and
    # in the output folder) instead of changing bytes.
    bait, subject = None, project
    if n % 3 == 0:
        subject = os.path.join(work, "linked", "Examples")
        shutil.rmtree(os.path.dirname(subject), ignore_errors=True)
        shutil.copytree(project, subject, symlinks=True)
        bait = Bait(os.path.join(work, "linked", "bait"))
        os.makedirs(out, exist_ok=True)
        name = "; ".join(filter(None, [plant_link(rng, subject, bait, ["received", ".pushpreview", "app-group/cache", "media/photo.jpg", "Templates/x.html", "devices.json"])
                                       for _ in range(rng.randint(1, 3))] + [plant_link(rng, out, bait, ["media", "report.json", "index.html"]) if rng.random() < 0.3 else None]))
        path = original = None
    else:
        name = rng.choice(files)
        path = os.path.join(project, name)
        original = open(path, "rb").read()
        open(path, "wb").write(mutate(original, rng, tokens))
    try:
        r = subprocess.run([binary, "gallery", subject, "--out", out, "--device", "iphone-15", "--appearance", "light", "--jobs", "2",
                            "--timeout", "30", "--max-memory", "1024"], env=env, capture_output=True, timeout=300)
        why = None
        if bait and (touched := bait.touched()): why = f"escaped through a link: {touched[:4]}"
        if r.returncode not in (0, 1): why = f"exit status {r.returncode}: {r.stderr.decode(errors='replace')[-300:]}"
        elif r.returncode == 1 and not os.path.exists(os.path.join(out, "report.json")):
            why = None if b"devices.json" in r.stderr or b"pushpreview.json" in r.stderr or (bait and b"symbolic link" in r.stderr) else f"no report.json: {r.stderr.decode(errors='replace')[-300:]}"
        elif os.path.exists(os.path.join(out, "report.json")):
            report = json.load(open(os.path.join(out, "report.json")))
            died = [e for i in report["inputs"] for m in i["mockups"] for e in m["errors"] if e.startswith(("crashed:", "stopped:"))]
            if len(report["inputs"]) != len(payloads) and not name.startswith("payloads/") and not bait: why = f"{len(report['inputs'])} of {len(payloads)} payloads listed"
            elif died: why = died[0][:300]
            elif not os.path.exists(os.path.join(out, "index.html")): why = "no index.html"
    except subprocess.TimeoutExpired:
        why = "the whole gallery took over 300 s"
    if why:
        problems += 1
        keep = os.path.join(crashes, f"project-{n}")
        shutil.copytree(subject, keep, dirs_exist_ok=True, symlinks=True)
        open(os.path.join(keep, "WHY.txt"), "w").write(f"mutated {name}\n{why}\n")
        print(f"case {n}: {name}: {why}")
    if bait: bait.close(); links += 1
    else: open(path, "wb").write(original)
shutil.rmtree(work, ignore_errors=True)
print(f"mutate-projects: {n} cases in {time.time() - start:.0f} s ({links} planting symlinks to a watched bait), {problems} problem(s) (escapes included)")
sys.exit(1 if problems else 0)
