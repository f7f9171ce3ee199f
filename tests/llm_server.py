"""A scripted OpenAI-compatible chat server (127.0.0.1, in a thread) for translation tests.

The pipeline reaches it as it reaches any translation server (Settings → translation
server, :class:`~app.ml.llm_runtime.OpenAIEndpointRuntime` over HTTP). What it answers
is decided per numbered line by ``answer(source_language, text)``: a translation, or
None to give the line back unchanged, as a weak model does with a line it cannot
translate. Every request's source language and lines are recorded in ``requests``.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

#: The request names its languages in the first sentence (app.media.translation.build_prompt).
_SOURCE = re.compile(r"Translate each numbered (.+?) subtitle line into")
_NUMBERED = re.compile(r"^(\d+)\| ?(.*)$")

Answer = Callable[[str, str], "str | None"]


@dataclass
class ChatServer:
    answer: Answer
    requests: list[tuple[str, list[str]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        server_self = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                prompt = body["messages"][-1]["content"]
                source = _SOURCE.search(prompt)
                language = source.group(1) if source else ""
                lines = [m.groups() for m in map(_NUMBERED.match, prompt.splitlines()) if m]
                server_self.requests.append((language, [text for _, text in lines]))
                content = "\n".join(f"{n}| {server_self.answer(language, text) or text}" for n, text in lines)
                payload = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def start(self) -> "ChatServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
