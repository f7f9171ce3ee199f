"""The real speaker model for tests: Resemblyzer 0.1.4's wheel, installed through the catalogue over loopback.

``scripts/fetch-test-models`` fetches the wheel by its pinned sha256 into the test cache (it
is never committed). :func:`install_speaker_model` installs it into a data dir the way a
person's ``sidecar models install speakers-ge2e`` does: the shipped catalogue entry, its
size and sha256 unchanged, with only the download address pointed at a server on 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

import pytest

from app.ml import model_install
from app.resources import resource_path
from tests.model_server import ModelServer
from tests.opus_mt import test_cache

WHEEL = "Resemblyzer-0.1.4-py3-none-any.whl"
WHEEL_SHA256 = "8f12eb2f1a9982d32e8db7856de754709b59c93a77bcf0ff536584b619a9dd1f"
ENTRY = "speakers-ge2e"


@cache
def resemblyzer_wheel() -> Path:
    """The verified wheel (16 MB); the calling test fails if it is absent or altered."""
    path = test_cache() / WHEEL
    if not path.is_file():
        pytest.fail(f"{path} is missing: run scripts/fetch-test-models (scripts/test does)")
    if hashlib.sha256(path.read_bytes()).hexdigest() != WHEEL_SHA256:
        pytest.fail(f"{path} does not match its pinned sha256: delete it and run scripts/fetch-test-models")
    return path


def install_speaker_model(data_dir: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> ModelServer:
    """Install ``speakers-ge2e`` into ``data_dir`` from a loopback server; returns the (stopped) server to inspect."""
    shipped = json.loads(resource_path("models.json").read_text("utf-8"))
    entry = next(e for e in shipped["models"] if e["name"] == ENTRY)
    server = ModelServer({f"/{WHEEL}": resemblyzer_wheel().read_bytes()}).start()
    try:
        entry = {**entry, "files": [{**f, "url": server.url(f"/{WHEEL}")} for f in entry["files"]]}
        resources = work / "catalogue"
        resources.mkdir(parents=True, exist_ok=True)
        (resources / "models.json").write_text(json.dumps({**shipped, "models": [entry]}), "utf-8")
        with monkeypatch.context() as patch:
            patch.setenv("SIDECAR_RESOURCES", str(resources))
            model_install.models_install(data_dir, ENTRY)
    finally:
        server.stop()
    return server
