#!/usr/bin/env python3
"""A notification receiver for the nightly checks, on 127.0.0.1 only.

  notify-receiver.py ok LOG     answer 200 to every POST or PUT and append it to LOG as one JSON
                                line ({"method", "path", "headers" (lower-case names), "body"})
  notify-receiver.py refuse LOG answer 403 to every POST (a notifier that refuses the message)
  notify-receiver.py hang LOG   accept connections and never answer (a notifier that hangs)

As an HTTP proxy (http_proxy=http://127.0.0.1:PORT) it takes what curl meant for another
host, such as ntfy.sh, and logs it with the whole URL as its path: nothing leaves the machine.

Prints the port it listens on, then serves until killed.
"""
import json
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

mode, log = sys.argv[1], sys.argv[2]


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8", "replace")
        headers = {k.lower(): v for k, v in self.headers.items()}
        with open(log, "a", encoding="utf-8") as out:
            out.write(json.dumps(
                {"method": self.command, "path": self.path, "headers": headers, "body": body}) + "\n")
        self.send_response(403 if mode == "refuse" else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    # ntfy takes a file to attach as the body of a PUT.
    do_PUT = do_POST

    def log_message(self, *args):
        pass


if mode in ("ok", "refuse"):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
elif mode == "hang":
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print(listener.getsockname()[1], flush=True)
    held = []
    while True:
        connection, _ = listener.accept()
        held.append(connection)  # read nothing, answer nothing
else:
    sys.exit("usage: notify-receiver.py ok|refuse|hang LOG")
