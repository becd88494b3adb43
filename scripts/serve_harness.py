"""A real `pushpreview serve` on 127.0.0.1 for the scripts that test it (slow-clients, fuzz-serve,
bench-serve): the Examples project copied into a fresh folder with only the payloads asked for,
then served on a free port for iPhone 15 in English."""
import os, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def project_copy(prefix, payloads):
    """A fresh folder holding a copy of Examples (no cache) with only `payloads`: (folder, project)."""
    work = tempfile.mkdtemp(prefix=prefix)
    project = os.path.join(work, "Examples")
    shutil.copytree(os.path.join(ROOT, "Examples"), project, ignore=shutil.ignore_patterns("cache"))
    for name in os.listdir(os.path.join(project, "payloads")):
        if name not in payloads:
            os.remove(os.path.join(project, "payloads", name))
    return work, project


def start(binary, work, project, appearance="light", extra=()):
    """`serve` on port 0, its stderr in WORK/serve.log: (process, port); exits saying why when it
    does not start."""
    log = open(os.path.join(work, "serve.log"), "w")
    server = subprocess.Popen([binary, "serve", project, "--out", os.path.join(work, "Output"), "--port", "0", "--device", "iphone-15",
                               "--appearance", appearance, "--locale", "en", *extra], stdout=subprocess.PIPE, stderr=log, text=True)
    log.close()  # serve holds its own copy
    for line in server.stdout:
        if line.startswith("serving http://127.0.0.1:"):
            return server, int(line.split(":")[2].split("/")[0])
    sys.exit(f"{os.path.basename(sys.argv[0])}: serve did not start: " + open(os.path.join(work, "serve.log")).read()[-3000:])
