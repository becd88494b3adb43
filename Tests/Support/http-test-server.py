#!/usr/bin/env python3
"""A real HTTP server on 127.0.0.1 for the download tests. Prints its port, then serves:

  /files/NAME[?type=T][&delay=S][&reset=1][&status=N]   a file from the folder given as argv[1]
  /stream[/NAME]?bytes=N[&length=1]                          N bytes that start like a JPEG, in 64 KB chunks
  /redirect-loop                                         302 to itself, forever
  /redirect?to=URL                                       302 to URL
  /stats                                                 {"requests": n, "sent": bytes of the last body,
                                                          "cut": whether the last stream's client hung up}
Stops when the process that started it ends, or after 10 minutes.
"""
import json, os, socket, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse, parse_qs

ROOT = sys.argv[1]
STATS = {"requests": 0, "sent": 0, "cut": False}
LOCK = threading.Lock()

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urlparse(self.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/stats":
            return self.reply(200, "application/json", json.dumps(STATS).encode(), counted=False)
        with LOCK:
            STATS["requests"] += 1
            STATS["sent"] = 0
        if url.path == "/redirect-loop":
            return self.redirect(self.path)
        if url.path == "/redirect":
            return self.redirect(q["to"])
        if url.path.startswith("/stream"):
            return self.stream(int(q["bytes"]), "length" in q)
        if url.path.startswith("/files/"):
            name = os.path.basename(url.path)
            try:
                body = open(os.path.join(ROOT, name), "rb").read()
            except OSError:
                return self.reply(404, "text/plain", b"not found")
            if "delay" in q:
                time.sleep(float(q["delay"]))
            status = int(q.get("status", "200"))
            if "reset" in q:
                self.send_response(200)
                self.send_header("Content-Type", q.get("type", "image/jpeg"))
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                # Linger 0 and close the descriptor itself: the peer gets a TCP reset mid-body.
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                os.close(self.connection.detach())
                self.close_connection = True
                return
            return self.reply(status, q.get("type", "application/octet-stream"), body)
        self.reply(404, "text/plain", b"no such route")

    def reply(self, status, content_type, body, counted=True):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if counted:
            with LOCK:
                STATS["sent"] = len(body)

    def redirect(self, location):
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def stream(self, total, with_length):
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        if with_length:
            self.send_header("Content-Length", str(total))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        chunk = b"\xff\xd8\xff\xe0" + bytes(65532)
        # A small send buffer, so what we count as sent is near what the client took; its own
        # receive buffer (the kernel's to size) still holds some megabytes more.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
        sent = 0
        with LOCK:
            STATS["cut"] = False
        try:
            while sent < total:
                part = chunk[: min(len(chunk), total - sent)]
                self.wfile.write(part)
                sent += len(part)
                with LOCK:
                    STATS["sent"] = sent
                time.sleep(0.002)
        except (BrokenPipeError, ConnectionResetError):
            with LOCK:
                STATS["cut"] = True
        self.close_connection = True

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
PARENT = os.getppid()

def watchdog():
    # Stop with the test run that started us, or after 10 minutes at most.
    deadline = time.time() + 600
    while os.getppid() == PARENT and time.time() < deadline:
        time.sleep(0.5)
    server.shutdown()

threading.Thread(target=watchdog, daemon=True).start()
server.serve_forever()
