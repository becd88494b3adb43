#!/usr/bin/python3
"""The comment endpoints of a GitHub-shaped REST API on 127.0.0.1, for the CI script's test: lists,
creates and updates issue comments kept in memory; each call is appended to FOLDER/calls as
"METHOD PATH AUTHORIZATION-SCHEME TOKEN", each comment's body written to FOLDER/comment-ID.
Stops by itself after 120 s. Usage: comment-api.py FOLDER (the port is written to FOLDER/port)."""
import json, os, re, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

folder = sys.argv[1]
comments = {}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, value):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_call(self):
        with open(os.path.join(folder, "calls"), "a") as f:
            f.write(f"{self.command} {self.path} {self.headers.get('Authorization', '')}\n")
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        if self.command == "GET" and re.match(r"^/repos/[^/]+/[^/]+/issues/\d+/comments\?", self.path):
            page = int(re.search(r"[?&]page=(\d+)", self.path).group(1))
            listed = [{"id": i, "body": b} for i, b in sorted(comments.items())]
            return self.answer(200, listed if page == 1 else [])
        if self.command == "POST" and re.match(r"^/repos/[^/]+/[^/]+/issues/\d+/comments$", self.path):
            i = len(comments) + 1
            comments[i] = body["body"]
        elif self.command == "PATCH" and (m := re.match(r"^/repos/[^/]+/[^/]+/issues/comments/(\d+)$", self.path)) and int(m.group(1)) in comments:
            i = int(m.group(1))
            comments[i] = body["body"]
        else:
            return self.answer(404, {"message": "Not Found"})
        with open(os.path.join(folder, f"comment-{i}"), "w") as f:
            f.write(comments[i])
        self.answer(201 if self.command == "POST" else 200, {"id": i, "body": comments[i]})

    do_GET = do_POST = do_PATCH = handle_call


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(folder, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(folder, "port.tmp"), os.path.join(folder, "port"))
threading.Timer(120, server.shutdown).start()
server.serve_forever()
