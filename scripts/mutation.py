"""The one mutator of the process-level fuzzers (mutate-projects.py, mutate-repositories.py): a
few bit flips, inserted tokens, cuts, truncations and repeats of a file's own bytes."""

def mutate(data, rng, tokens):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(5)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data: data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1: data[at:at] = rng.choice(tokens)
        elif op == 2 and data: del data[at:at + rng.randint(1, 64)]
        elif op == 3: data = data[:at]
        else:
            a = rng.randrange(len(data) + 1); data[at:at] = data[a:a + rng.randint(1, 256)] * rng.randint(1, 8)
    return bytes(data)


# Symlinks, in every place a repository or project can hold one: a file or folder replaced by a
# link to a bait folder outside (relative or absolute, to the folder or to a file in it), or a
# link put where pushpreview writes (an output or cache folder). The bait's files are watched
# with inotify: an open of any of them, or a change in the folder, is an escape.
import ctypes, os, struct

_libc = ctypes.CDLL(None, use_errno=True)
IN_OPEN, IN_MODIFY, IN_CREATE, IN_DELETE, IN_MOVED_TO, IN_ATTRIB = 0x20, 0x2, 0x100, 0x200, 0x80, 0x4

class Bait:
    """A folder outside the tree under test, holding files a reader would take: any open or
    change in it is counted."""
    def __init__(self, folder):
        self.folder = folder
        os.makedirs(os.path.join(folder, "sub"), exist_ok=True)
        for name, text in [("secret.apns", '{"aps":{"alert":"bait"}}'), ("Info.plist", "<plist><dict/></plist>"),
                           ("icon.json", '{"groups":[]}'), ("Project.swift", "let project = Project(name: \"Bait\")"),
                           ("sub/secret.txt", "bait"), ("sub/Contents.json", "{}")]:
            open(os.path.join(folder, name), "w").write(text)
        self.fd = _libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        for d in (folder, os.path.join(folder, "sub")):
            _libc.inotify_add_watch(self.fd, d.encode(), IN_OPEN | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_ATTRIB)
        self.targets = [os.path.join(folder, n) for n in ("secret.apns", "Info.plist", "icon.json", "Project.swift", "sub")] + [folder]

    def touched(self):
        """What happened in the bait since it was made (empty: nothing)."""
        events = []
        while True:
            try: data = os.read(self.fd, 65536)
            except BlockingIOError: break
            at = 0
            while at + 16 <= len(data):
                wd, mask, cookie, length = struct.unpack_from("iIII", data, at)
                name = data[at + 16:at + 16 + length].rstrip(b"\0").decode(errors="replace")
                events.append(("open" if mask & IN_OPEN else "change", name or "."))
                at += 16 + length
        return events

    def close(self): os.close(self.fd)

def plant_link(rng, root, bait, places=None):
    """Replaces a random file or folder under `root` (or one of `places`, made if missing) with a
    link to the bait; returns what was planted, for the report."""
    if places and rng.random() < 0.5:
        rel = rng.choice(places)
    else:
        entries = [os.path.relpath(os.path.join(d, n), root) for d, ds, fs in os.walk(root) for n in ds + fs if ".git" not in d]
        if not entries: return None
        rel = rng.choice(entries)
    path = os.path.join(root, rel)
    target = rng.choice(bait.targets)
    if rng.random() < 0.5: target = os.path.relpath(target, os.path.dirname(path))
    if os.path.isdir(path) and not os.path.islink(path): shutil_rmtree(path)
    elif os.path.lexists(path): os.remove(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)
    return f"{rel} -> {target}"

def shutil_rmtree(path):
    import shutil
    shutil.rmtree(path, ignore_errors=True)
