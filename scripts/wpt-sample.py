#!/usr/bin/python3
"""The Web Platform Tests sample of `make fidelity` (Tests/Fixtures/wpt/sample.txt). No WPT file
or text is in the repository: only the rule below, the folders, the chosen paths and the WPT
commit each was read at. The tests themselves come from a local WPT git copy at test time.

  wpt-sample.py select LISTING      the sample by the rule, from a listing of WPT paths (one a
                                    line, optionally followed by the commit it was listed at),
                                    e.g. `git ls-tree -r --format='%(path)' HEAD css`; writes
                                    sample.txt's lines to stdout
  wpt-sample.py extract OUT         each sampled file, at its commit (else at HEAD, counted),
                                    from $WPT, else ../shared/conformance/wpt, else .build/wpt-git
                                    (a git directory, bare or not, or a plain checkout) into OUT;
                                    exits 3 with a message saying how to get a copy when none is there

The rule, fixed before any result was looked at: in each folder below, the test files (.html,
.htm, .xht, .xhtml; not under reference/, support/, resources/; not a reference by name:
*-ref*, *-notref*, ref-*; for css/css-ui only text-overflow-*), sorted by path, and of those
PER_FOLDER evenly spaced ones: indices floor(i * n / PER_FOLDER) for i < PER_FOLDER (all of
them when n ≤ PER_FOLDER). A path in a listed subfolder counts for that subfolder only."""
import os, re, subprocess, sys

FOLDERS = ["css/CSS2/normal-flow", "css/CSS2/margin-padding-clear", "css/CSS2/positioning", "css/CSS2/floats",
           "css/CSS2/floats-clear", "css/css-flexbox", "css/css-text/text-align", "css/css-text/white-space",
           "css/css-text/line-break", "css/css-text/letter-spacing", "css/css-overflow/line-clamp", "css/css-ui",
           "css/css-inline"]
NAME_FILTER = {"css/css-ui": re.compile(r"^text-overflow-")}
PER_FOLDER = 16
SAMPLE = os.environ.get("WPT_SAMPLE") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "wpt", "sample.txt")


def folder_of(path):
    owners = [f for f in FOLDERS if path.startswith(f + "/")]
    return max(owners, key=len) if owners else None


def is_test(path):
    parts, name = path.split("/"), path.rsplit("/", 1)[-1]
    if not re.search(r"\.(html?|xht(ml)?)$", name) or {"reference", "support", "resources"} & set(parts[:-1]):
        return False
    if re.search(r"[-_](not)?ref\d*[-_.]", name) or name.startswith("ref-"):
        return False
    rule = NAME_FILTER.get(folder_of(path))
    return rule is None or bool(rule.search(name))


def select(listing):
    commits, by_folder = {}, {f: [] for f in FOLDERS}
    for line in open(listing):
        fields = line.split()
        if not fields or not is_test(fields[0]) or folder_of(fields[0]) is None:
            continue
        commits[fields[0]] = fields[1] if len(fields) > 1 else "HEAD"
        by_folder[folder_of(fields[0])].append(fields[0])
    for folder in FOLDERS:
        tests = sorted(set(by_folder[folder]))
        n = len(tests)
        print(f"folder {folder} {n}")
        for path in tests if n <= PER_FOLDER else [tests[i * n // PER_FOLDER] for i in range(PER_FOLDER)]:
            print(f"test {path} {commits[path]}")


def wpt_copy():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    for place in [os.environ.get("WPT"), os.path.join(here, "..", "shared", "conformance", "wpt"), os.path.join(here, ".build", "wpt-git")]:
        if place and os.path.isdir(place):
            return os.path.abspath(place)
    return None


def extract(out):
    copy = wpt_copy()
    if copy is None:
        print("wpt: skipped, no Web Platform Tests copy: set WPT=/path/to/wpt (a git clone, bare or not, e.g.\n"
              "  git clone --filter=blob:none --sparse https://github.com/web-platform-tests/wpt && git -C wpt sparse-checkout set css fonts)\n"
              "  or put one at ../shared/conformance/wpt or .build/wpt-git")
        sys.exit(3)
    is_git = subprocess.run(["git", "-C", copy, "rev-parse", "--git-dir"], capture_output=True).returncode == 0
    tests = [line.split() for line in open(SAMPLE) if line.startswith("test ")]
    pinned = at_head = missing = 0
    for _, path, commit in tests:
        data = None
        if is_git:
            for rev in ([commit] if commit != "HEAD" else []) + ["HEAD"]:
                shown = subprocess.run(["git", "-C", copy, "show", f"{rev}:{path}"], capture_output=True)
                if shown.returncode == 0:
                    data = shown.stdout
                    pinned, at_head = (pinned + 1, at_head) if rev == commit else (pinned, at_head + 1)
                    break
        elif os.path.isfile(os.path.join(copy, path)):
            data = open(os.path.join(copy, path), "rb").read()
            at_head += 1
        if data is None:
            missing += 1
            continue
        target = os.path.join(out, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "wb").write(data)
    print(f"wpt: {len(tests)} sampled tests from {copy}: {pinned} at their sampled commit, {at_head} at the copy's HEAD"
          f" (may differ from the sampled version), {missing} not in the copy")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("select", "extract"):
        sys.exit(__doc__)
    select(sys.argv[2]) if sys.argv[1] == "select" else extract(sys.argv[2])
