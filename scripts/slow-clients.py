#!/usr/bin/python3
"""Slow and silent clients against a real `pushpreview serve` on 127.0.0.1, each attack while a
well-behaved client asks for the page and sends a push every 200 ms: every answer must come
within 1 s, serve must shed the attack (cut the slow, refuse the excess with 503), stay up, and
stop within a second of Ctrl-C. The attacks: 300 silent sockets; HTTP/1.1 headers dripped a byte
a second; a TLS ClientHello dripped the same way; HTTP/2 streams whose window stays 0; 300
HTTP/1.1 connections at once, each asking a page; and, when installed, Debian's slowhttptest
(slow headers, slow body, slow read). Bounded in count and time; nothing leaves 127.0.0.1.
Usage: slow-clients.py PUSHPREVIEW [--seconds S] [--only NAME,...]   (exit 1 on a failure)"""
import argparse, os, re, shutil, signal, socket, ssl, subprocess, sys, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_harness

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--seconds", type=float, default=12, help="how long each attack lasts")
parser.add_argument("--only", default="", help="attacks to run, comma-separated")
args = parser.parse_args()
work, project = serve_harness.project_copy("pushpreview-slow-clients-", ["plain-alert.apns"])
server, port = serve_harness.start(args.binary, work, project, extra=["--jobs", "1"])
certificate = os.path.join(project, ".pushpreview", "tls", "server.pem")
failures = []

def connect(timeout=5):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s

def exchange(request, timeout=5):
    """One request on a new connection; the status and the seconds it took."""
    start = time.monotonic()
    try:
        s = connect(timeout)
        s.sendall(request)
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk: break
            data += chunk
        s.close()
        status = int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.1 ") else 0
    except OSError:
        status = 0
    return status, time.monotonic() - start

PAGE = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
BODY = b'{"aps":{"alert":{"title":"Probe","body":"A push while under attack"}}}'
PUSH = (b"POST /3/device/aabbccdd HTTP/1.1\r\nHost: 127.0.0.1\r\napns-topic: com.example.pushpreview\r\napns-push-type: alert\r\n"
        b"Connection: close\r\nContent-Length: " + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)

class Probe(threading.Thread):
    """The well-behaved client: the page and a push, every 200 ms, for as long as it runs."""
    def __init__(self):
        super().__init__(daemon=True)
        self.stop = threading.Event(); self.times = []; self.bad = []
    def run(self):
        while not self.stop.is_set():
            for request in (PAGE, PUSH):
                status, seconds = exchange(request)
                self.times.append(seconds)
                if status not in (200, 400, 403) or seconds > 1.0:  # 400/403: the push's own reasons (topic, token)
                    self.bad.append((request.split(b" ")[0].decode(), status, round(seconds, 2)))
            self.stop.wait(0.2)

def under(name, attack):
    """Runs `attack(deadline)` while the probe runs; records what went wrong."""
    probe = Probe(); probe.start()
    deadline = time.monotonic() + args.seconds
    try:
        note = attack(deadline) or ""
    except Exception as e:  # an attack that cannot even run is a failure of the suite, said
        note = f"the attack failed to run: {e!r}"
        failures.append(f"{name}: {note}")
    probe.stop.set(); probe.join()
    worst = max(probe.times) if probe.times else 0
    if server.poll() is not None: failures.append(f"{name}: serve died (exit {server.returncode})")
    if probe.bad: failures.append(f"{name}: the well-behaved client was kept waiting or refused: {probe.bad[:5]}")
    print(f"{name}: {len(probe.times)} probe answers, slowest {worst:.3f} s {note}", flush=True)

def hold(sockets, deadline, drip=None):
    """Keeps sockets open until the deadline, sending `drip(i)` one byte a second; counts the cut."""
    cut = set()
    while time.monotonic() < deadline:
        for i, s in enumerate(sockets):
            if i in cut or drip is None: continue
            try: s.send(drip(i))
            except OSError: cut.add(i)
        time.sleep(1)
    for i, s in enumerate(sockets):
        if drip is None:
            try:
                s.setblocking(False)
                if s.recv(1) == b"": cut.add(i)
            except BlockingIOError: pass
            except OSError: cut.add(i)
        s.close()
    return cut

def silent(deadline):
    sockets = []
    for _ in range(300):
        try: sockets.append(connect())
        except OSError: break
    cut = hold(sockets, deadline)
    return f"({len(sockets)} silent sockets opened, {len(cut)} cut by serve)"

def drip_headers(deadline):
    head = PAGE.replace(b"Connection: close\r\n", b"X-Drip: " + b"a" * 40 + b"\r\n")
    sockets = [connect() for _ in range(50)]
    position = [0] * len(sockets)
    def next_byte(i):
        b = head[position[i] % len(head):position[i] % len(head) + 1]; position[i] += 1; return b
    cut = hold(sockets, deadline, next_byte)
    if args.seconds > 12 and len(cut) < len(sockets): failures.append(f"drip-headers: {len(sockets) - len(cut)} of {len(sockets)} dripping clients were never cut off")
    return f"(50 clients dripping headers, {len(cut)} cut by serve)"

def client_hello():
    context = ssl.create_default_context(cafile=certificate)
    context.set_alpn_protocols(["h2"])
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = context.wrap_bio(incoming, outgoing, server_hostname="127.0.0.1")
    try: tls.do_handshake()
    except ssl.SSLWantReadError: pass
    return outgoing.read()

def drip_tls(deadline):
    hello = client_hello()
    sockets = [connect() for _ in range(50)]
    position = [0] * len(sockets)
    def next_byte(i):
        b = hello[position[i]:position[i] + 1] or b"\x00"; position[i] += 1; return b
    cut = hold(sockets, deadline, next_byte)
    if args.seconds > 12 and len(cut) < len(sockets): failures.append(f"drip-tls: {len(sockets) - len(cut)} of {len(sockets)} dripped handshakes were never cut off")
    return f"(50 ClientHellos dripped, {len(cut)} cut by serve)"

def window_zero(deadline):
    import h2.config, h2.connection, h2.settings
    sockets = []
    for _ in range(20):
        s = connect()
        c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        c.initiate_connection()
        c.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
        c.send_headers(1, [(":method", "GET"), (":path", "/"), (":scheme", "http"), (":authority", "127.0.0.1")], end_stream=True)
        s.sendall(c.data_to_send())
        sockets.append(s)
    cut = set()
    while time.monotonic() < deadline:
        for i, s in enumerate(sockets):
            if i in cut: continue
            s.setblocking(False)
            try:
                if s.recv(65536) == b"": cut.add(i)   # read what the server sends, never a WINDOW_UPDATE
            except BlockingIOError: pass
            except OSError: cut.add(i)
        time.sleep(0.5)
    for s in sockets: s.close()
    if args.seconds > 12 and len(cut) < len(sockets): failures.append(f"window-zero: {len(sockets) - len(cut)} of {len(sockets)} stalled connections were never closed")
    return f"(20 HTTP/2 connections with a 0 window, {len(cut)} closed by serve)"

EVENTS = b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

def many(deadline):
    """300 connections at once, each holding an event stream open (an open page) for the whole
    attack, then 300 more asking a page: past what serve holds, each is told 503, none hangs."""
    answers, held, lock = [], [], threading.Lock()
    def stream():
        status = 0
        try:
            s = connect(10); s.sendall(EVENTS)
            head = s.recv(4096)
            status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else 0
            with lock: held.append(s)
        except OSError: pass
        with lock: answers.append(status)
    def page():
        status, _ = exchange(PAGE, timeout=10)
        with lock: answers.append(status)
    threads = [threading.Thread(target=stream) for _ in range(300)] + [threading.Thread(target=page) for _ in range(300)]
    for t in threads: t.start()
    for t in threads: t.join()
    while time.monotonic() < deadline: time.sleep(0.2)
    for s in held: s.close()
    unanswered = sum(1 for a in answers if a == 0)
    if unanswered: failures.append(f"many: {unanswered} of 600 connections got no answer (not even 503)")
    return f"(600 at once: {answers.count(200)} answered, {answers.count(503)} told 503, {unanswered} unanswered)"

def slowhttptest(mode):
    def attack(deadline):
        tool = shutil.which("slowhttptest")
        if not tool: return "(skipped: slowhttptest is not installed)"
        flags = {"headers": ["-H"], "body": ["-B", "-s", "8192"], "read": ["-X", "-w", "1", "-y", "2", "-n", "5", "-z", "1", "-k", "3"]}[mode]
        target = f"http://127.0.0.1:{port}/" if mode != "body" else f"http://127.0.0.1:{port}/3/device/aabbccdd"
        run = subprocess.run([tool] + flags + ["-c", "200", "-r", "100", "-i", "5", "-l", str(int(args.seconds)), "-u", target, "-p", "3"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=args.seconds + 30)
        text = re.sub(r"\x1b\[[0-9;]*m", "", run.stdout)
        last = [" ".join(l.split()) for l in text.splitlines() if "service available" in l.lower()]
        return f"(slowhttptest -{flags[0][1]}: {last[-1].strip() if last else 'ran'})"
    return attack

attacks = {"silent": silent, "drip-headers": drip_headers, "drip-tls": drip_tls, "window-zero": window_zero, "many": many,
           "slowhttptest-headers": slowhttptest("headers"), "slowhttptest-body": slowhttptest("body"), "slowhttptest-read": slowhttptest("read")}
chosen = [a for a in args.only.split(",") if a] or list(attacks)
try:
    for name in chosen: under(name, attacks[name])
finally:
    # Ctrl-C, under the last attack's leftovers: serve stops within a second.
    start = time.monotonic()
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=5)
        took = time.monotonic() - start
        print(f"ctrl-c: serve stopped in {took:.2f} s", flush=True)
        if took > 1.0: failures.append(f"ctrl-c: serve took {took:.2f} s to stop")
    except subprocess.TimeoutExpired:
        failures.append("ctrl-c: serve was still running 5 s after SIGINT")
        server.kill(); server.wait()
    if failures:
        print(open(os.path.join(work, "serve.log")).read()[-3000:], file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)
for f in failures: print("FAIL " + f, file=sys.stderr)
sys.exit(1 if failures else 0)
