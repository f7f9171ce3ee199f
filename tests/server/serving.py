"""``sidecar serve`` on a loopback port inside the test process: the real engine, real HTTP, real uvicorn."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import uvicorn

from app.engine.library import Library
from app.server.http_app import ServeContext, make_app
from app.server.serve import open_serving
from app.settings import Settings, save_settings

REAL_SPEECH = Path(__file__).resolve().parents[1] / "data" / "real_speech"
JFK = REAL_SPEECH / "en_jfk_inaugural.opus"
"""11 s: "And so, my fellow Americans, ask not what your country can do for you; ask what you can do for your country." """


@dataclass
class Served:
    url: str
    library: Library
    ctx: ServeContext
    data_dir: Path

    def uploads_left(self) -> list[Path]:
        return sorted(self.ctx.uploads.rglob("*"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(data_dir: Path, settings: Settings | None = None, *, token: str = "", start_engine: bool = True,
            **config: Any) -> Iterator[Served]:
    data_dir.mkdir(parents=True, exist_ok=True)
    save_settings(data_dir, settings or Settings(target_lang="en"))
    library, ctx = open_serving(data_dir, "127.0.0.1", token, **{"poll_interval": 0.05, "workers": 2, **config})
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(make_app(ctx), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    try:
        if start_engine:
            library.start()
        thread.start()
        deadline = time.time() + 20
        while not server.started and time.time() < deadline:
            time.sleep(0.02)
        assert server.started
        yield Served(f"http://127.0.0.1:{port}", library, ctx, data_dir)
    finally:
        server.should_exit = True
        thread.join(20)
        if ctx.follower is not None:
            ctx.follower.stop()
        library.close()
