#!/usr/bin/python3
"""The comment endpoints of a GitHub-shaped REST API on 127.0.0.1, for the CI script's test: lists,
creates and updates issue comments kept in memory; each call is appended to FOLDER/calls as
"METHOD PATH AUTHORIZATION-SCHEME TOKEN", each comment's body written to FOLDER/comment-ID.
Stops by itself after 120 s. Usage: comment-api.py FOLDER [--refuse-over N] [--refuse-updates]
(the port is written to FOLDER/port): --refuse-over answers a created or updated body longer than N
characters with GitHub's 422, --refuse-updates every update (PATCH) with one; DELETE removes a
comment (its file too); GET /repos/O/R/pulls/N says the head is FOLDER/head's commit."""
import json, os, re, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

folder = sys.argv[1]
refuse_over = int(sys.argv[sys.argv.index("--refuse-over") + 1]) if "--refuse-over" in sys.argv else None
refuse_updates = "--refuse-updates" in sys.argv
comments = {}
made = 0


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
        global made
        with open(os.path.join(folder, "calls"), "a") as f:
            f.write(f"{self.command} {self.path} {self.headers.get('Authorization', '')}\n")
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length)) if length else None
        if self.command == "GET" and re.match(r"^/repos/[^/]+/[^/]+/issues/\d+/comments\?", self.path):
            page = int(re.search(r"[?&]page=(\d+)", self.path).group(1))
            listed = [{"id": i, "body": b} for i, b in sorted(comments.items())]
            return self.answer(200, listed if page == 1 else [])
        if self.command == "GET" and re.match(r"^/repos/[^/]+/[^/]+/pulls/\d+$", self.path):
            with open(os.path.join(folder, "head")) as f:
                return self.answer(200, {"head": {"sha": f.read().strip()}})
        if self.command in ("POST", "PATCH"):
            # As GitHub answers a body it will not take.
            if refuse_over is not None and len(body["body"]) > refuse_over:
                return self.answer(422, {"message": "Validation Failed", "errors": [{"resource": "IssueComment", "code": "custom", "field": "body",
                                         "message": f"body is too long (maximum is {refuse_over} characters)"}], "status": "422"})
            if refuse_updates and self.command == "PATCH":
                return self.answer(422, {"message": "Validation Failed", "errors": [{"resource": "IssueComment", "code": "unprocessable", "field": "data"}]})
        m = re.match(r"^/repos/[^/]+/[^/]+/issues/comments/(\d+)$", self.path)
        if self.command == "POST" and re.match(r"^/repos/[^/]+/[^/]+/issues/\d+/comments$", self.path):
            made += 1
            i = made
            comments[i] = body["body"]
        elif self.command == "PATCH" and m and int(m.group(1)) in comments:
            i = int(m.group(1))
            comments[i] = body["body"]
        elif self.command == "DELETE" and m and int(m.group(1)) in comments:
            del comments[int(m.group(1))]
            os.remove(os.path.join(folder, f"comment-{m.group(1)}"))
            self.send_response(204)
            self.end_headers()
            return
        else:
            return self.answer(404, {"message": "Not Found"})
        with open(os.path.join(folder, f"comment-{i}"), "w") as f:
            f.write(comments[i])
        self.answer(201 if self.command == "POST" else 200, {"id": i, "body": comments[i]})

    do_GET = do_POST = do_PATCH = do_DELETE = handle_call


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(os.path.join(folder, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(folder, "port.tmp"), os.path.join(folder, "port"))
threading.Timer(120, server.shutdown).start()
server.serve_forever()
