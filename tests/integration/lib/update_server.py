#!/usr/bin/env python3
"""A loopback HTTP server for the update tests that misbehaves on demand.

usage: update_server.py ROOT CONTROL LOG [CERT KEY]

Serves the files under ROOT (HTTP/1.1, keep-alive, Last-Modified and
If-Modified-Since -> 304). Before each request it reads CONTROL, a JSON object
mapping URL paths to a misbehaviour:
  {"status": 404}                   answer with that status and a small body
  {"drip": SECONDS}                 send the headers, then one byte every SECONDS
  {"endless": true}                 a 200 without Content-Length and a body that never ends
  {"content_length": N}             announce N bytes but send the file as it is, then close
  {"truncate": N}                   announce the real length, send N bytes, close
  {"redirect": URL}                 302 to URL
  {"body": "text"}                  serve this text instead of the file
  {"file": "PATH"}                  serve the bytes of the file PATH (absolute, or under ROOT) instead
  {"rate": BYTES}                   send the body at about BYTES a second
  {"stall_after": N}                send N bytes of the body, then nothing (the connection stays open)
  {"ignore_range": true}            answer a Range request with the whole file (200)
  {"range_416": true}               answer any Range request with 416
A request with a Range header ("bytes=N-") gets a 206 with the bytes from N
on (416 when N is not within the file), for any file, misbehaving or not.
Each request is appended to LOG as "METHOD PATH STATUS IMS" (IMS "-" when absent),
followed by " bytes=N-" when it carried a Range header,
and "PATH UID" to LOG.peers: the user owning the client's socket (from
/proc/net/tcp), so a test sees who downloads.
so tests can count what a client asked for. Asked as an HTTP proxy (a full URL
in the request line) it serves that URL's path from ROOT and logs "PROXY URL". Prints "http://127.0.0.1:PORT" on its
first line once listening; stops on SIGTERM. Given CERT and KEY (PEM files)
it speaks TLS and prints "https://localhost:PORT" instead: the name a test
certificate is made for. UPDATE_SERVER_HOST (default 127.0.0.1) is the
loopback address to listen on, so a test can run a second server that is
another host.
"""
import email.utils
import http.server
import json
import os
import re
import signal
import ssl
import sys
import time

root, control, log = sys.argv[1], sys.argv[2], sys.argv[3]
tls = sys.argv[4:6] if len(sys.argv) >= 6 else None


def behaviours():
    try:
        with open(control) as f:
            return json.load(f)
    except (FileNotFoundError, ValueError):
        return {}


def peer_uid(port, server_port):
    """The uid owning the loopback socket whose local port is PORT, connected
    to SERVER_PORT. Only a connected socket counts: a closed one of an earlier
    connection on the same port (TIME_WAIT, another test's server) reports
    uid 0."""
    want, peer = ":%04X" % port, ":%04X" % server_port
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[1].endswith(want) and fields[2].endswith(peer) and fields[3] == "01":
                return fields[7]
    return "?"


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # As real mirrors (nginx's tcp_nodelay): with Nagle's algorithm on, the
    # last small segment of each response waited for the client's delayed
    # ACK, 40 ms per file on a kept-alive connection, which made the install
    # benchmark measure this server rather than the clients.
    disable_nagle_algorithm = True

    def __init__(self, *a, **kw):
        super().__init__(*a, directory=root, **kw)

    def log_message(self, *a):
        pass

    def record(self, status):
        ims = self.headers.get("If-Modified-Since", "-")
        rng = self.headers.get("Range")
        with open(log, "a") as f:
            f.write(f"{self.command} {self.path} {status} {ims}" + (f" {rng}" if rng else "") + "\n")
        with open(log + ".peers", "a") as f:
            f.write(f"{self.path} {peer_uid(self.client_address[1], self.server.server_address[1])}\n")

    def send_response(self, code, message=None):
        self.record(code)
        super().send_response(code, message)

    def do_GET(self):
        if self.path.startswith("http://"):
            # Asked as a proxy: serve the path of the full URL, and say so in the log.
            with open(log, "a") as f:
                f.write(f"PROXY {self.path}\n")
            self.path = "/" + self.path.split("/", 3)[3]
        path = self.path.split("?", 1)[0]
        b = behaviours().get(path)
        fs_path = self.translate_path(path)
        if not b:
            if self.headers.get("Range") and os.path.isfile(fs_path):
                return self.send_ranged(open(fs_path, "rb").read(), fs_path, {})
            return super().do_GET()
        if "status" in b:
            body = b"error page\n"
            self.send_response(b["status"])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if "redirect" in b:
            self.send_response(302)
            self.send_header("Location", b["redirect"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if "endless" in b:
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            chunk = b"Package: x\n" * 4096
            try:
                while True:
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                return
        if "body" in b:
            data = b["body"].encode()
        elif "file" in b:
            data = open(os.path.join(root, b["file"]), "rb").read()
        else:
            data = open(fs_path, "rb").read()
        if any(k in b for k in ("rate", "stall_after", "ignore_range", "range_416")):
            return self.send_ranged(data, fs_path, b)
        if "drip" in b:
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            try:
                for i in range(len(data)):
                    self.wfile.write(data[i:i + 1])
                    self.wfile.flush()
                    time.sleep(b["drip"])
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        length = b.get("content_length", len(data))
        send = data[: b["truncate"]] if "truncate" in b else data
        self.send_response(200)
        self.send_header("Content-Length", str(length))
        # The file's own time, as a real server gives it (and curl compares it
        # with If-Modified-Since even on a 200).
        mtime = os.path.getmtime(fs_path) if os.path.exists(fs_path) else time.time()
        self.send_header("Last-Modified", email.utils.formatdate(mtime, usegmt=True))
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(send)
        except (BrokenPipeError, ConnectionResetError):
            pass


    def send_ranged(self, data, fs_path, b):
        """DATA as a 200, or its tail as a 206 for "Range: bytes=N-"; slowly
        (rate) or stalling (stall_after) when told."""
        rng = self.headers.get("Range")
        start, status = 0, 200
        m = re.fullmatch(r"bytes=(\d+)-", rng.strip()) if rng else None
        if m and not b.get("ignore_range"):
            start = int(m.group(1))
            if b.get("range_416") or start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            status = 206
        body = data[start:]
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        mtime = os.path.getmtime(fs_path) if os.path.exists(fs_path) else time.time()
        self.send_header("Last-Modified", email.utils.formatdate(mtime, usegmt=True))
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        rate, stall = b.get("rate"), b.get("stall_after")
        chunk = max(1, int(rate / 20)) if rate else 1 << 16
        sent = 0
        try:
            while sent < len(body):
                n = chunk if stall is None else min(chunk, stall - sent)
                if n <= 0:
                    # Stalled: keep the connection open, send nothing more.
                    time.sleep(120)
                    return
                self.wfile.write(body[sent:sent + n])
                self.wfile.flush()
                sent += n
                if rate:
                    time.sleep(n / rate)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


class TlsServer(Server):
    """Completes the handshake on the handler's thread, not the accepting
    one, so a client that gives up mid-handshake cannot stall the others."""

    def __init__(self, address, handler, context):
        super().__init__(address, handler)
        self.context = context

    def get_request(self):
        sock, addr = self.socket.accept()
        return self.context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), addr

    def finish_request(self, request, client_address):
        try:
            request.do_handshake()
        except (ssl.SSLError, OSError):
            return  # the client refused our certificate: its business, logged by it
        super().finish_request(request, client_address)


if tls:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls[0], tls[1])
    server = TlsServer(("127.0.0.1", 0), Handler, context)
    url = f"https://localhost:{server.server_address[1]}"
else:
    host = os.environ.get("UPDATE_SERVER_HOST", "127.0.0.1")
    server = Server((host, 0), Handler)
    url = f"http://{host}:{server.server_address[1]}"
signal.signal(signal.SIGTERM, lambda *a: os._exit(0))
print(url, flush=True)
server.serve_forever()
