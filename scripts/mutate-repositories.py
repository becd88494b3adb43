#!/usr/bin/python3
"""The repository half of `make fuzz`: mutates one file of a copy of a fixture repository at a time
(pbxproj, XcodeGen spec, xcconfig, Tuist manifest, Info.plist, String Catalog, strings file,
storyboard, asset catalog, Swift or Objective-C source) and runs `pushpreview init` on it, then
`pushpreview gallery` on what init wrote, as a team's CI would on a stranger's pull request. Each
run must end with exit status 0 or 1 within its --timeout (plus a margin), no worker may have
crashed, and an error must be one clear line. A failing case's repository is kept in
CRASHES/repository-N/ with WHY.txt. Prints how many errors named a file and a position.
Usage: mutate-repositories.py PUSHPREVIEW CRASHES [--seconds S | --cases N] [--seed K] [--jobs J]"""
import os, random, re, shutil, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutation import Bait, mutate, plant_link

binary, crashes = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
args = sys.argv[3:]
def option(name, default):
    return type(default)(args[args.index(name) + 1]) if name in args else default
seconds = option("--seconds", 0.0) or None
cases = option("--cases", 0) or (None if seconds else 8)
jobs = option("--jobs", 2)
seed = option("--seed", 1)
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fixtures = ["Tests/Fixtures/xcode/Lighthouse", "Tests/Fixtures/xcode/xcodegen", "Tests/Fixtures/xcode/codeview/Kestrel"]
TIMEOUT = 10

# Tokens that broke readers before: numbers out of range, references that double, deep nesting,
# paths that lead out, odd encodings.
tokens = [b"1e300", b"-1e308", b"nan", b"-9223372036854775808", b"$(A)$(A)", b"$(inherited)", b"${", b"$(", b"@[" * 64, b"(" * 64,
          b"[" * 40, b"{" * 64, b"../../../", b"$(SRCROOT)/../..", b"/etc/passwd", b"\x00", b"\xff\xfe", b"bplist00", b"<!ENTITY",
          b"\"", b"{", b"}", b";", b"=", b"<", b">", b"</dict>", b"#include \"../x.xcconfig\"", b"*", b"**/"]


# An error names a place when it has FILE:LINE, FILE: key.path or a quoted key after the file.
placed = re.compile(r"(/[^\s:]+|\b[\w.-]+\.(pbxproj|plist|xcstrings|strings|storyboard|xib|json|yml|yaml|xcconfig|swift|m|h))(:\d+|: [\w.\[\]\"-]+)")
env = dict(os.environ, SWIFT_BACKTRACE="enable=no", NO_COLOR="1")

def run_case(n):
    rng = random.Random(seed * 1_000_003 + n)
    work = tempfile.mkdtemp(prefix="pushpreview-repo-mutate-")
    try:
        source = fixtures[n % len(fixtures)]
        repo = os.path.join(work, os.path.basename(source))
        shutil.copytree(os.path.join(root, source), repo, symlinks=True)
        files = sorted(os.path.relpath(os.path.join(d, f), repo) for d, _, fs in os.walk(repo) for f in fs
                       if not f.endswith((".png", ".ttf")))
        out, pp = os.path.join(work, "out"), os.path.join(work, "pp")
        # One case in three plants symlinks to a watched bait outside instead of changing bytes:
        # in the repository before init, in init's project folder and the output before gallery.
        bait = Bait(os.path.join(work, "bait")) if n % 3 == 0 else None
        if bait:
            name = "; ".join(filter(None, [plant_link(rng, repo, bait) for _ in range(rng.randint(1, 3))]))
        else:
            name = rng.choice(files)
            path = os.path.join(repo, name)
            open(path, "wb").write(mutate(open(path, "rb").read(), rng, tokens))
        why, errors, with_place = None, 0, 0
        for step in (["init", repo, "--out", pp], ["gallery", pp, "--out", out, "--device", "iphone-15", "--appearance", "light", "--jobs", "1"]):
            if step[0] == "gallery" and not os.path.exists(os.path.join(pp, "pushpreview.json")): break
            if step[0] == "gallery" and bait:
                os.makedirs(out, exist_ok=True)
                name += "; " + "; ".join(filter(None, [plant_link(rng, pp, bait, ["received", ".pushpreview", "Templates", "payloads/x.apns", "media"]),
                                                        plant_link(rng, out, bait, ["media", "received", "report.json", "index.html"])]))
            began = time.time()
            try:
                r = subprocess.run([binary] + step + ["--timeout", str(TIMEOUT), "--max-memory", "512"], env=env, capture_output=True, timeout=TIMEOUT * 6)
            except subprocess.TimeoutExpired:
                why = f"{step[0]} ran past {TIMEOUT * 6} s"; break
            took, stderr = time.time() - began, r.stderr.decode(errors="replace")
            if r.returncode not in (0, 1): why = f"{step[0]}: exit status {r.returncode}: {stderr[-300:]}"
            elif "crashed:" in stderr or "grew past" in stderr: why = f"{step[0]}: {stderr[-300:]}"
            elif step[0] == "init" and took > TIMEOUT * 2 + 10: why = f"init took {took:.0f} s with --timeout {TIMEOUT}"
            elif step[0] == "gallery" and r.returncode == 1 and not os.path.exists(os.path.join(out, "report.json")) and "pushpreview.json" not in stderr:
                why = f"gallery: no report.json: {stderr[-300:]}"
            if step[0] == "init" and r.returncode == 1:
                errors += 1
                if placed.search(stderr): with_place += 1
            if bait and not why and (touched := bait.touched()): why = f"{step[0]} escaped through a link: {touched[:4]}"
            if why or r.returncode == 1 and step[0] == "init": break
        if bait:
            links[0] += 1
            bait.close()
        if why:
            keep = os.path.join(crashes, f"repository-{n}")
            shutil.copytree(repo, keep, dirs_exist_ok=True, symlinks=True)
            open(os.path.join(keep, "WHY.txt"), "w").write(f"mutated {name}\n{why}\n")
            print(f"case {n}: {source}/{name}: {why}", flush=True)
        return bool(why), errors, with_place
    finally:
        shutil.rmtree(work, ignore_errors=True)

links = [0]  # cases that planted links
start, n, problems, errors, with_place = time.time(), 0, 0, 0, 0
with ThreadPoolExecutor(max_workers=jobs) as pool:
    while (cases is None or n < cases) and (seconds is None or time.time() - start < seconds):
        batch = range(n, n + jobs * 4 if cases is None else min(n + jobs * 4, cases))
        for failed, e, p in pool.map(run_case, batch):
            problems += failed; errors += e; with_place += p
        n = batch.stop
print(f"mutate-repositories: {n} cases in {time.time() - start:.0f} s ({links[0]} planting symlinks to a watched bait), {problems} problem(s) (escapes included); "
      f"init refused {errors}, {with_place} of them naming a file and a position")
sys.exit(1 if problems else 0)
