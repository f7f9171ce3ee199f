"""``sidecar serve``: the engine of this library and the HTTP server on it, in one process.

The library is opened with the request pipelines added, its scheduler and watched
folders started as ``sidecar run`` starts them, and uvicorn serves the app until a
signal. Requests are claimed before folder work by the one scheduler, on its one model
pool and GPU gate: there is never a second Whisper beside the engine's.
"""

from __future__ import annotations

import logging
import os
import shutil
import stat
from pathlib import Path
from typing import Any

import uvicorn

from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.watch import WatchService
from app.server.access import check_binding
from app.server.http_app import ServeContext, make_app
from app.server.refresh_follower import RefreshFollower
from app.server.request_pipeline import request_pipelines
from app.settings import SETTINGS_FILE, load_settings

log = logging.getLogger(__name__)

UPLOADS = "serve-uploads"
"""The folder in the data dir uploads are streamed to (emptied at start: a killed server's leftovers)."""


def tighten_settings_file(data_dir: Path) -> None:
    """The settings file holds tokens: readable by its owner only, also when an older Sidecar wrote it."""
    path = data_dir / SETTINGS_FILE
    if path.exists() and stat.S_IMODE(path.stat().st_mode) & 0o077:
        os.chmod(path, 0o600)
        log.info("settings file %s made readable by its owner only (it holds tokens)", path)


def open_serving(data_dir: Path, host: str, token: str, **config_overrides: Any) -> tuple[Library, ServeContext]:
    """The library (its engine not yet started) and what the handlers need; the caller closes both."""
    settings = load_settings(data_dir)
    check_binding(host, token)
    tighten_settings_file(data_dir)
    uploads = data_dir / UPLOADS
    shutil.rmtree(uploads, ignore_errors=True)
    uploads.mkdir(parents=True)
    library = Library.open(data_dir, settings, extra_pipelines=request_pipelines(data_dir),
                           **{"crash_reports": True, **config_overrides})
    for job in library.status():  # a killed server's requests: their clients and uploads are gone
        if JobOptions.from_stored(job.options).request:
            library.cancel(job.id)
            log.info("removed request job %s left by an earlier server", job.id)
    follower = RefreshFollower(library)
    return library, ServeContext(library, settings, uploads, token, follower)


def serve(data_dir: Path, host: str | None = None, port: int | None = None, token: str | None = None) -> int:
    settings = load_settings(data_dir)
    host = host or settings.serve_host
    port = port or settings.serve_port
    token = settings.serve_token if token is None else token
    library, ctx = open_serving(data_dir, host, token)
    watches = WatchService(library)
    try:
        library.start()
        watches.start()
        assert ctx.follower is not None
        ctx.follower.start()
        log.info("sidecar serve on http://%s:%d (%s)", host, port, "token required" if token else "loopback, no token")
        uvicorn.run(make_app(ctx), host=host, port=port, log_level="info", access_log=False)
    finally:
        if ctx.follower is not None:
            ctx.follower.stop()
        watches.stop()
        library.close()
    return 0
