#!/usr/bin/python3
"""Hostile requests against `pushpreview serve` on 127.0.0.1: path traversal (plain and
encoded), a symlink in the output folder, a foreign Host, huge headers, slowloris, a malformed
HTTP/2 frame stream and a 10 MB body. Each must be refused, and after each the server must
still answer a plain request. Prints JSON; exit status 1 on any failure.
Usage: hostile-http.py PORT SYMLINK_NAME"""
import json, socket, sys, time

port, symlink = int(sys.argv[1]), sys.argv[2]
problems, seen = [], {}

def request(raw, read_timeout=10):
    s = socket.create_connection(("127.0.0.1", port), timeout=read_timeout)
    s.sendall(raw)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk: break
            data += chunk
            if b"\r\n\r\n" in data and b"content-length" not in data.lower(): break
            head, _, body = data.partition(b"\r\n\r\n")
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:") and len(body) >= int(line.split(b":")[1]): raise StopIteration
    except (StopIteration, socket.timeout, ConnectionResetError):
        pass
    s.close()
    return data

def status(data):
    try: return int(data.split(b" ", 2)[1])
    except Exception: return None

def get(path, host="127.0.0.1"):
    return request(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())

def still_serving(after):
    s = status(get("/"))
    if s != 200: problems.append(f"after {after}: GET / gave {s}")

for path in ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "/%252e%252e/etc/passwd",
             "/media/..%5c..%5c..%5cetc%5cpasswd", "//etc/passwd", "/%00.png", "/.pushpreview/tls/server-key.pem", "/" + symlink]:
    data = get(path)
    seen[path] = status(data)
    if status(data) not in (400, 404) or b"root:" in data or b"PRIVATE KEY" in data: problems.append(f"{path}: {status(data)}")
still_serving("traversal")

data = get("/", host="rebind.example.com")
seen["foreign Host"] = status(data)
if status(data) != 421: problems.append(f"foreign Host: {status(data)}")

data = request(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n")
seen["200 KB header"] = status(data)
if status(data) not in (413, 431, None): problems.append(f"200 KB header: {status(data)}")
still_serving("huge header")

# Slowloris: many connections trickling their headers; a plain request must still be answered.
slow = []
for _ in range(40):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    slow.append(s)
start = time.time()
for _ in range(3):
    for s in slow:
        try: s.sendall(b"X-a: b\r\n")
        except OSError: pass
    time.sleep(0.3)
data = get("/")
seen["plain request during slowloris (s)"] = round(time.time() - start, 2)
if status(data) != 200: problems.append(f"during slowloris: {status(data)}")
for s in slow: s.close()

# A malformed HTTP/2 frame stream: the preface, then a frame with a length beyond any limit.
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\xff\xff\xff\x04\x00\x00\x00\x00\x00" + b"\x00" * 64)
try:
    answer = s.recv(4096)
    while True:
        more = s.recv(4096)
        if not more: break
        answer += more
except (socket.timeout, ConnectionResetError):
    answer = b""
s.close()
seen["malformed h2: GOAWAY sent"] = b"\x07" in answer[:64] or len(answer) > 0
still_serving("a malformed HTTP/2 frame stream")

body = b"{" + b" " * (10 * 1024 * 1024) + b"}"
data = request(b"POST /3/device/aabbccdd HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body, 30)
seen["10 MB body"] = status(data)
if status(data) != 413 or b"PayloadTooLarge" not in data: problems.append(f"10 MB body: {status(data)} {data[-80:]!r}")
still_serving("a 10 MB body")

print(json.dumps({"problems": problems, "seen": seen}))
sys.exit(1 if problems else 0)
