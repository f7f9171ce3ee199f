"""A local HTTP file server for model-download tests (127.0.0.1 only, in a thread).

Serves byte strings at paths, answers ``Range: bytes=N-`` with 206, and can be told to:
cut the connection after N bytes of the next response (``cut_next``), ignore Range
requests (``ignore_range``), serve other bytes than announced (``replace``), or stop
after ``hold_at`` body bytes of a response until ``release`` is set (``holding`` is set
while it waits), which lets a test act while a download is surely mid-way. Every
request's headers and the number of body bytes sent are recorded in ``requests``.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Served:
    path: str
    headers: dict[str, str]
    status: int
    sent: int = 0


@dataclass
class ModelServer:
    files: dict[str, bytes] = field(default_factory=dict)
    ignore_range: bool = False
    cut_next: int | None = None
    hold_at: int | None = None
    holding: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    requests: list[Served] = field(default_factory=list)

    def __post_init__(self) -> None:
        server_self = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                record = Served(self.path, {k: v for k, v in self.headers.items()}, 0)
                server_self.requests.append(record)
                body = server_self.files.get(self.path)
                if body is None:
                    record.status = 404
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                start = 0
                match = re.match(r"bytes=(\d+)-$", self.headers.get("Range", ""))
                if match and not server_self.ignore_range:
                    start = int(match.group(1))
                    if start >= len(body):
                        record.status = 416
                        self.send_response(416)
                        self.send_header("Content-Range", f"bytes */{len(body)}")
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    record.status = 206
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
                else:
                    record.status = 200
                    self.send_response(200)
                self.send_header("Content-Length", str(len(body) - start))
                self.send_header("ETag", f'"{hash(body) & 0xFFFFFFFF:x}"')
                self.send_header("Accept-Ranges", "bytes")
                self.end_headers()
                payload = body[start:]
                cut, server_self.cut_next = server_self.cut_next, None
                if cut is not None:
                    payload = payload[:cut]
                view = memoryview(payload)
                try:
                    for offset in range(0, len(view), 64 * 1024):
                        if server_self.hold_at is not None and record.sent >= server_self.hold_at:
                            self.wfile.flush()
                            server_self.holding.set()
                            server_self.release.wait(60)
                        self.wfile.write(view[offset : offset + 64 * 1024])
                        record.sent += len(view[offset : offset + 64 * 1024])
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client hung up (a cancelled download)
                    return
                if cut is not None:
                    self.close_connection = True

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def start(self) -> "ModelServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}{path}"
