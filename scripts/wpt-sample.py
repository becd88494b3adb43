#!/usr/bin/python3
"""The conformance-test sample of `make fidelity` (Tests/Fixtures/wpt/sample.txt). No test file
or text is in the repository: only the rule below, the source (repository, ref, commit), the
folders and the chosen paths. The tests are read from a local git copy of that repository at
the recorded commit, at test time.

  wpt-sample.py select REF REPOSITORY   the sample by the rule, from the copy's tree at REF
                                        (e.g. `select refs/heads/master w3c/csswg-test`);
                                        writes sample.txt's lines to stdout
  wpt-sample.py extract OUT             each sampled file and the support files it names (images,
                                        style sheets, fonts), at the recorded commit, from $WPT,
                                        else $SHARED (../shared)/conformance/csswg-test or wpt,
                                        else .build/wpt-git (a git directory, bare or not), else
                                        the sample's own files in $SHARED/conformance/
                                        csswg-test-sample (a plain folder at the same paths, its
                                        README naming the recorded commit: what CI has) into OUT;
                                        exits 3 with a message saying how to get a copy when
                                        none is there

The source is the W3C CSS test suite (w3c/csswg-test, 2017), from which Web Platform Tests'
css/ folder grew: css21/X is WPT's css/CSS2/X, css-flexbox-1 its css/css-flexbox, css-text-3/X
its css/css-text/X, css-ui-3 its css/css-ui. The rule, fixed before any result was looked at:
in each folder below, the test files (.html, .htm, .xht, .xhtml; not under reference/,
support/, resources/; not a reference by name: *-ref*, *-notref*, ref-*; for css-ui-3 only
text-overflow*), sorted by path, and of those PER_FOLDER evenly spaced ones: indices
floor(i * n / PER_FOLDER) for i < PER_FOLDER (all of them when n ≤ PER_FOLDER). A path in a
listed subfolder counts for that subfolder only. css-text-3 has no letter-spacing folder and the
suite no line-clamp tests, so neither is sampled."""
import os, re, subprocess, sys

FOLDERS = ["css21/normal-flow", "css21/margin-padding-clear", "css21/positioning", "css21/floats", "css21/floats-clear",
           "css21/linebox", "css-flexbox-1", "css-text-3/text-align", "css-text-3/white-space", "css-text-3/line-break",
           "css-text-3/letter-spacing", "css-ui-3"]
NAME_FILTER = {"css-ui-3": re.compile(r"^text-overflow")}
PER_FOLDER = 16
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SAMPLE = os.environ.get("WPT_SAMPLE") or os.path.join(HERE, "Tests", "Fixtures", "wpt", "sample.txt")


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


def git(copy, *args):
    return subprocess.run(["git", "-C", copy, *args], capture_output=True)


def shared_folder():
    return os.environ.get("SHARED") or os.path.join(HERE, "..", "shared")


def copy_or_exit(plain_folder_too=False):
    """A git copy of the suite; with `plain_folder_too`, else the sample's own files
    ($SHARED/conformance/csswg-test-sample, returned as ("folder", path))."""
    given = os.environ.get("WPT")
    if given and git(given, "rev-parse", "--git-dir").returncode != 0:
        sys.exit(f"wpt: WPT={given} is not a git directory")
    shared = shared_folder()
    for place in [given, os.path.join(shared, "conformance", "csswg-test"), os.path.join(shared, "conformance", "wpt"),
                  os.path.join(HERE, ".build", "wpt-git")]:
        if place and os.path.isdir(place) and git(place, "rev-parse", "--git-dir").returncode == 0:
            return os.path.abspath(place)
    sample_files = os.path.join(shared, "conformance", "csswg-test-sample")
    if plain_folder_too and os.path.isfile(os.path.join(sample_files, "README.md")):
        return ("folder", os.path.abspath(sample_files))
    print("wpt: skipped, no copy of the CSS test suite the sample is read from (Tests/Fixtures/wpt/sample.txt's source line):\n"
          "  set WPT=/path/to/it (a git clone, bare or not, e.g. git clone --bare https://github.com/w3c/csswg-test)\n"
          "  or put one at ../shared/conformance/csswg-test or .build/wpt-git,\n"
          "  or the sample's own files at ../shared/conformance/csswg-test-sample")
    sys.exit(3)


def select(ref, repository):
    copy = copy_or_exit()
    commit = git(copy, "rev-parse", "--verify", ref + "^{commit}").stdout.decode().strip()
    if not commit:
        sys.exit(f"wpt: {copy} has no {ref}")
    paths = git(copy, "ls-tree", "-r", "--name-only", commit).stdout.decode().splitlines()
    by_folder = {f: [] for f in FOLDERS}
    for path in paths:
        if folder_of(path) is not None and is_test(path):
            by_folder[folder_of(path)].append(path)
    print(f"source {repository} {ref} {commit}")
    for folder in FOLDERS:
        tests = sorted(by_folder[folder])
        n = len(tests)
        print(f"folder {folder} {n}")
        for path in tests if n <= PER_FOLDER else [tests[i * n // PER_FOLDER] for i in range(PER_FOLDER)]:
            print(f"test {path}")


# What a test file names that it needs beside it: <img>/<script>/<object> sources, url(…) in its
# styles and its linked style sheets' hrefs; relative ones only (not http:, data:, #, /).
NAMED = re.compile(r"""<(?:img|image|object|embed|iframe|video|audio|source|input)\b[^>]*?\b(?:src|data|href)\s*=\s*["']?([^"'\s>]+)"""
                   r"""|<link\b(?=[^>]*stylesheet)[^>]*?\bhref\s*=\s*["']?([^"'\s>]+)|url\(\s*["']?([^"')\s]+)""", re.I)


def named_files(path, text):
    for match in NAMED.finditer(text):
        name = next(g for g in match.groups() if g).split("#")[0].split("?")[0]
        if name and not re.match(r"^([a-z]+:|/|#)", name, re.I):
            yield os.path.normpath(os.path.join(os.path.dirname(path), name))


def places(path, tests):
    """Where `path` is read from: itself; for a support file, also the support/ folders above
    it, nearest first (the suite's build copied each spec's tests flat beside its support/
    folder, so a test in a subfolder may name support/X that lives a folder up)."""
    yield path
    parts = path.split("/")
    if path in tests or "support" not in parts:
        return
    at = parts.index("support")
    for up in range(at - 1, -1, -1):
        yield "/".join(parts[:up] + parts[at:])


def extract(out):
    lines = [line.split() for line in open(SAMPLE) if line.strip() and not line.startswith("#")]
    source = next((l for l in lines if l[0] == "source"), None)
    if source is None:
        sys.exit(f"wpt: {SAMPLE} has no source line")
    repository, ref, commit = source[1:4]
    copy = copy_or_exit(plain_folder_too=True)
    if isinstance(copy, tuple):
        # The sample's files as they are at the commit, at the same paths: read as the git copy would be.
        folder = copy[1]
        if commit not in open(os.path.join(folder, "README.md"), encoding="utf-8").read():
            sys.exit(f"wpt: {folder} does not say it holds {repository} at {commit}, which the sample was read at")

        def show(place):
            path = os.path.normpath(os.path.join(folder, place))
            if not path.startswith(folder + os.sep) or not os.path.isfile(path):
                return subprocess.CompletedProcess([], 1, b"", b"")
            return subprocess.CompletedProcess([], 0, open(path, "rb").read(), b"")
        copy = folder
    else:
        if git(copy, "cat-file", "-e", commit + "^{commit}").returncode != 0:
            sys.exit(f"wpt: {copy} is not a copy of {repository}: it has no commit {commit} ({ref}), which the sample was read at")

        def show(place):
            return git(copy, "show", f"{commit}:{place}")
    tests = [l[1] for l in lines if l[0] == "test"]
    missing, support, absent, todo, done = 0, 0, 0, list(tests), set()
    while todo:
        path = todo.pop(0)
        if path in done:
            continue
        done.add(path)
        shown = next((found for found in (show(place) for place in places(path, tests))
                      if found.returncode == 0), None)
        if shown is None:
            missing, absent = missing + (path in tests), absent + (path not in tests)
            continue
        support += path not in tests
        target = os.path.join(out, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        open(target, "wb").write(shown.stdout)
        if re.search(r"\.(html?|xht(ml)?|css|svg)$", path):
            todo += named_files(path, shown.stdout.decode("utf-8", "replace"))
    print(f"wpt: {len(tests) - missing} of {len(tests)} sampled tests and {support} support files they name"
          f" ({absent} more named are not in the suite), from {repository} at {commit[:12]} ({copy})")
    if missing:
        sys.exit(f"wpt: {missing} sampled tests are not in {repository} at {commit}")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "select":
        select(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "extract":
        extract(sys.argv[2])
    else:
        sys.exit(__doc__)
