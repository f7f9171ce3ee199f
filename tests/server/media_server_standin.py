"""A loopback stand-in for Jellyfin, Emby or Plex: answers the few calls Sidecar makes and records each request."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator
from contextlib import contextmanager


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]


@dataclass
class StandIn:
    url: str = ""
    requests: list[Recorded] = field(default_factory=list)
    paths: dict[str, str] = field(default_factory=dict)  # item id -> the file as the server sees it
    fail_refreshes: int = 0  # answer this many refreshes 503 before a 204

    def refreshes(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.lower().endswith("/refresh")]


def _handler(standin: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def _answer(self, status: int, body: bytes = b"", kind: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _record(self) -> None:
            standin.requests.append(Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}))

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self._record()
            if self.path.startswith("/library/metadata/"):  # Plex: the item's XML, its file in Part@file
                key = self.path.rsplit("/", 1)[1]
                if key not in standin.paths:
                    return self._answer(404)
                xml = (f'<?xml version="1.0" encoding="UTF-8"?><MediaContainer size="1"><Video ratingKey="{key}" '
                       f'key="/library/metadata/{key}" type="movie" title="A"><Media id="1" container="mkv">'
                       f'<Part id="1" key="/library/parts/1/1/file.mkv" file="{standin.paths[key]}" container="mkv"/>'
                       f"</Media></Video></MediaContainer>")
                return self._answer(200, xml.encode(), "application/xml")
            if self.path.startswith("/Items?"):  # Jellyfin: /Items?Ids=…&Fields=Path
                from urllib.parse import parse_qs, urlsplit

                ids = parse_qs(urlsplit(self.path).query).get("Ids", [""])[0]
                items = [{"Id": ids, "Path": standin.paths[ids]}] if ids in standin.paths else []
                return self._answer(200, json.dumps({"Items": items, "TotalRecordCount": len(items)}).encode())
            self._answer(404)

        def _refresh(self) -> None:
            self._record()
            if standin.fail_refreshes > 0:
                standin.fail_refreshes -= 1
                return self._answer(503)
            self._answer(204)

        do_POST = do_PUT = _refresh  # noqa: N815

    return Handler


@contextmanager
def stand_in() -> Iterator[StandIn]:
    standin = StandIn()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(standin))
    standin.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield standin
    finally:
        server.shutdown()
        server.server_close()
