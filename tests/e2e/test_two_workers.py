"""README "When one machine is not enough", on one machine: the library is added where the NAS
sees it, then two `sidecar worker` processes that see the same folder under different roots
(symlinks standing in for two mounts) complete it through the real image pipeline (RapidOCR +
e5), every output written exactly once and recorded under the library's path — on the
PostgreSQL library of the walk-through (a throwaway server, tests/postgres_server.py) and
on a SQLite file (several workers of one machine)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from app.cli import WORKER_REFUSED_EXIT
from app.paths import database_path
from app.pipelines.image import SIDECAR_SUFFIX
from app.store import Store
from app.store.location import database_location
from app.store.tables import steps
from tests.rendered_images import render_text_image

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
WORDS = ["Invoice 4471", "Boarding pass gate B12", "Parking ticket 0815", "Library card 2290"]


def sidecar(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "app", *args], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _workers(url: str) -> list[dict[str, Any]]:
    listed = sidecar("workers", "--database-url", url, "--json")
    out, err = listed.communicate(timeout=120)
    assert listed.returncode == 0, err
    return json.loads(out)["workers"]


def _registered_workers(url: str, boxes: list[subprocess.Popen[str]]) -> set[str]:
    """Ids of live role-"worker" rows seen in `sidecar workers` while the boxes run (both, once seen)."""
    seen: set[str] = set()
    while len(seen) < len(boxes) and any(b.poll() is None for b in boxes):
        seen |= {w["id"] for w in _workers(url) if w["role"] == "worker" and w["alive"]}
        time.sleep(0.5)
    return seen


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_two_workers_with_different_path_maps_complete_one_library_once(
        tmp_path: Path, backend: str, request: pytest.FixtureRequest) -> None:
    real = tmp_path / "disk" / "media"
    for n, words in enumerate(WORDS):
        render_text_image(real / ("scans" if n % 2 else "photos") / f"img_{n}.png", [words])
    nas_data = tmp_path / "nas-data"
    url = (str(request.getfixturevalue("postgres_url")) if backend == "postgres"
           else f"sqlite:///{database_path(nas_data)}")
    nas = tmp_path / "mnt-nas"  # the NAS's own path to the folder: only the library's database knows it
    nas.symlink_to(real.parent)
    shared = ["--database-url", url] if backend == "postgres" else []  # SQLite: the NAS's data dir holds the file
    added = sidecar("--data-dir", str(nas_data), "add", str(nas / "media"), "--kind", "image", *shared, "--json")
    out, err = added.communicate(timeout=300)
    assert added.returncode == 0, err
    nas.unlink()

    boxes = []
    for name, mapping in (("gpu-box", f"{nas}/media={tmp_path}/gpu-box/D/Media"),
                          ("laptop", f"{nas}/media/={tmp_path}/laptop/share/")):
        mount = Path(mapping.split("=")[1].rstrip("/"))
        mount.parent.mkdir(parents=True)
        mount.symlink_to(real)
        boxes.append(sidecar("worker", "--database-url", url, "--path-map", mapping,
                             "--workspace", str(tmp_path / name / "workspace"),
                             "--kinds", "image", "--workers", "1", "--until-idle", "--json"))
    registered = _registered_workers(url, boxes)
    results = [b.communicate(timeout=900) for b in boxes]
    assert [b.returncode for b in boxes] == [0, 0], [r[1][-3000:] for r in results]
    assert len(registered) == 2, "both workers beat a heartbeat row with role worker while they ran"
    (job,) = json.loads(results[0][0])["jobs"]
    assert (job["status"], job["done"], job["failed"]) == ("completed", len(WORDS), 0)
    assert _workers(url) == [], "a worker that stops cleanly removes its row"

    written = sorted(p.relative_to(real).as_posix() for p in real.rglob("*") if p.is_file() and p.suffix != ".png")
    assert written == sorted(f"{'scans' if n % 2 else 'photos'}/img_{n}.png{SIDECAR_SUFFIX}" for n in range(len(WORDS)))
    store = Store(database_location(nas_data, url))
    try:
        with store.db.read() as conn:
            targets = conn.execute(select(steps.c.target, steps.c.state)).all()
            named = (conn.execute(text("SELECT path FROM search_image_name")).scalars().all()
                     if backend == "sqlite" else [])
    finally:
        store.close()
    library_outputs = sorted(str(nas / "media" / w) for w in written)
    assert sorted(t.target for t in targets) == library_outputs, "one step per output, under the library's path"
    assert {t.state for t in targets} == {"succeeded"}
    if backend == "sqlite":  # PostgreSQL has no search index yet (search_unavailable)
        assert sorted(named) == sorted(p[:-len(SIDECAR_SUFFIX)] for p in library_outputs)


def test_a_worker_whose_mapping_shows_other_files_refuses_to_start(tmp_path: Path) -> None:
    real = tmp_path / "disk" / "media"
    render_text_image(real / "img.png", ["Invoice 4471"])
    nas_data = tmp_path / "nas-data"
    added = sidecar("--data-dir", str(nas_data), "add", str(real), "--kind", "image")
    assert added.wait(timeout=300) == 0
    elsewhere = tmp_path / "other-disk"
    elsewhere.mkdir()
    worker = sidecar("worker", "--database-url", str(database_path(nas_data)), "--path-map", f"{real}={elsewhere}",
                     "--workspace", str(tmp_path / "ws"), "--until-idle")
    out, err = worker.communicate(timeout=300)
    assert worker.returncode == WORKER_REFUSED_EXIT
    assert "not starting" in err and "1 of 1 files the library lists" in err and "(worker_refused)" in err
    assert not (real / f"img.png{SIDECAR_SUFFIX}").exists()
