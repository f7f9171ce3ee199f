"""A local HTTP server for model tests (127.0.0.1 only, in a thread): model downloads and a scripted translator.

Downloads: serves byte strings at paths, answers ``Range: bytes=N-`` with 206, and can be told to:
cut the connection after N bytes of the next response (``cut_next``), ignore Range
requests (``ignore_range``), serve other bytes than announced (``replace``), or stop
after ``hold_at`` body bytes of a response until ``release`` is set (``holding`` is set
while it waits), which lets a test act while a download is surely mid-way. Every
request's headers and the number of body bytes sent are recorded in ``requests``.

Translation: given ``answer``, it is also an OpenAI-compatible chat server (``url("/v1")``
as the translation server in the settings) that the pipeline reaches over HTTP as any
other. Each numbered line of a request is answered by ``answer(source_language, text)``:
a translation, or None to give the line back unchanged, as a weak model does with a
line it cannot translate. Each request's source language and lines go to ``chats``.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

#: A chat request names its languages in its first sentence (app.media.translation.build_prompt).
_SOURCE = re.compile(r"Translate each numbered (.+?) subtitle line into")
_NUMBERED = re.compile(r"^(\d+)\| ?(.*)$")


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
    answer: Callable[[str, str], str | None] | None = None
    chats: list[tuple[str, list[str]]] = field(default_factory=list)

    def chat_reply(self, body: bytes) -> bytes:
        """The chat completion answering one translation request, line by line through ``answer``."""
        assert self.answer is not None, "this server was given no answer function"
        prompt = json.loads(body)["messages"][-1]["content"]
        source = _SOURCE.search(prompt)
        language = source.group(1) if source else ""
        lines = [m.groups() for m in map(_NUMBERED.match, prompt.splitlines()) if m]
        self.chats.append((language, [text for _, text in lines]))
        content = "\n".join(f"{n}| {self.answer(language, text) or text}" for n, text in lines)
        return json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()

    def __post_init__(self) -> None:
        server_self = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                payload = server_self.chat_reply(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

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
