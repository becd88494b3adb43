#!/usr/bin/python3
"""Mutated requests against a real `pushpreview serve` on 127.0.0.1: HTTP/1.1 requests and h2c
frame streams built from valid APNs pushes and page requests, their bytes flipped, cut, repeated
and spliced (headers, JWTs, paths, frame lengths). The server must stay up, answer a plain page
request after every batch, and never answer 5xx (but 505 HTTP Version Not Supported). Cases that broke it are written to
CRASHES/serve/. Bounded: --cases N or --seconds S.
Usage: fuzz-serve.py PUSHPREVIEW CRASHES [--cases N] [--seconds S] [--seed K]"""
import argparse, json, os, random, shutil, socket, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_harness

parser = argparse.ArgumentParser()
parser.add_argument("binary"); parser.add_argument("crashes")
parser.add_argument("--cases", type=int, default=0); parser.add_argument("--seconds", type=float, default=0)
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()
rng = random.Random(args.seed)
work, project = serve_harness.project_copy("pushpreview-fuzz-serve-", ["plain-alert.apns"])
server, port = serve_harness.start(args.binary, work, project)

def frame(kind, flags, stream, payload):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload

def literal(name, value):  # HPACK literal without indexing, new name
    return b"\x00" + bytes([len(name)]) + name + bytes([len(value)]) + value

body = b'{"aps":{"alert":{"title":"Fuzz","body":"A push"}},"id":1}'
jwt = b"bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IktFWTEyMzQ1NjcifQ.eyJpc3MiOiJURUFNIiwiaWF0IjoxNzAwMDAwMDAwfQ." + b"A" * 86
seeds = [
    b"POST /3/device/aabbccdd HTTP/1.1\r\nHost: 127.0.0.1\r\napns-topic: com.example.app\r\napns-push-type: alert\r\napns-priority: 10\r\n"
    b"apns-collapse-id: c1\r\nauthorization: " + jwt + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body,
    b"GET /index.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    b"GET /plain-alert/iphone-15-light-expanded.png?v=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0, b"") + frame(1, 4, 1, b"\x83\x86\x84" + literal(b":path", b"/3/device/aabbccdd")
        + literal(b":authority", b"127.0.0.1") + literal(b"apns-topic", b"com.example.app") + literal(b"authorization", jwt)) + frame(0, 1, 1, body),
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0, b"\x00\x03\x00\x00\x00\x64") + frame(1, 5, 3, b"\x82\x86\x84" + literal(b":authority", b"localhost"))
        + frame(8, 0, 0, b"\x00\x00\x10\x00") + frame(6, 0, 0, b"12345678") + frame(3, 0, 3, b"\x00\x00\x00\x08"),
]

def mutate(data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op, i = rng.random(), rng.randrange(len(data)) if data else 0
        if op < 0.3 and data: data[i] = rng.randrange(256)
        elif op < 0.45: data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif op < 0.6 and data: del data[i:i + rng.randint(1, 32)]
        elif op < 0.7 and data: data[i:i] = data[i:i + rng.randint(1, 64)] * rng.randint(2, 50)
        elif op < 0.8: data[i:i] = rng.choice([b"\r\n", b"%2e%2e/", b"../", b"\x00", b":", b"\xff\xff\xff", b"Host: evil\r\n", b"99999999999999999999"])
        elif op < 0.9: data += rng.choice(seeds)[rng.randrange(40):]
        else: data = data[:i]
    return bytes(data)

def send(data):
    s = socket.create_connection(("127.0.0.1", port), timeout=1)
    answer = b""
    try:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        while len(answer) < 1 << 16:
            chunk = s.recv(65536)
            if not chunk: break
            answer += chunk
    except OSError: pass
    s.close()
    return answer

def healthy():
    answer = send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    return server.poll() is None and answer.startswith(b"HTTP/1.1 200")

os.makedirs(os.path.join(args.crashes, "serve"), exist_ok=True)
start, cases, problems, batch = time.time(), 0, [], []
while (args.cases and cases < args.cases) or (args.seconds and time.time() - start < args.seconds):
    data = mutate(rng.choice(seeds))
    batch.append(data)
    answer = send(data)
    cases += 1
    # 505 is libmicrohttpd refusing a version it does not speak (a mangled HTTP/2 preface read as
    # HTTP/1); any other 5xx would be ours failing.
    if answer[:10] == b"HTTP/1.1 5" and answer[9:12] != b"505":
        problems.append(("5xx", data))
    if cases % 25 == 0:
        if not healthy():
            problems.append(("down", b"".join(batch)))
            break
        batch = []
for i, (kind, data) in enumerate(problems):
    with open(os.path.join(args.crashes, "serve", f"{kind}-{args.seed}-{i}"), "wb") as f: f.write(data)
up = healthy()
server.send_signal(2)
try: server.wait(20)
except subprocess.TimeoutExpired: server.kill(); problems.append(("did not stop on SIGINT", b""))
shutil.rmtree(work, ignore_errors=True)
print(json.dumps({"cases": cases, "problems": [k for k, _ in problems], "serving at the end": up}))
sys.exit(1 if problems or not up else 0)
