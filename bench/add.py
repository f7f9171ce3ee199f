"""Adding a folder: time until ``add`` returns and until the first stage runs, with the engine already running.

The second row turns on the video kind's embedded-subtitle check (the person's default),
which runs ffprobe on every video during the scan.

Run by hand: `.venv/bin/python bench/add.py [--files N] [--big-gb G] [--against CHECKOUT]`. Prints a table.
``--against /path/to/other/checkout`` measures that checkout's code instead of this one
(e.g. the code before adding stopped reading every file).

The big file is sparse (``truncate``): reading it returns zeros without touching the
disk, so any time spent reading it here is sha256 on the CPU alone. A real disk or a NAS
is slower: at gigabit speed (~110 MB/s) reading 20 GB takes about three minutes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

_ROOT = Path(__file__).resolve().parents[1]
if "--against" in sys.argv:
    _ROOT = Path(sys.argv[sys.argv.index("--against") + 1]).resolve()
sys.path.insert(0, str(_ROOT))

from sqlalchemy import func, select  # noqa: E402

import app.pipelines  # noqa: E402,F401 - registers the media kinds (the video kind's extensions)
from app.engine.config import EngineConfig  # noqa: E402
from app.engine.library import JobOptions, Library  # noqa: E402
from app.engine.stage import Pipeline  # noqa: E402
from app.store.tables import stages  # noqa: E402
from bench.engine import NoopStage  # noqa: E402

_NAS_MB_PER_S = 110


def small_files(folder: Path, n: int, per_folder: int) -> None:
    """``n`` distinct small videos, ``per_folder`` to a folder (a show's seasons)."""
    for i in range(n):
        season = folder / f"season {i // per_folder:03d}"
        season.mkdir(parents=True, exist_ok=True)
        (season / f"v{i:05d}.mp4").write_bytes(b"small video %d\n" % i * 64)


def one_big_file(folder: Path, gb: int) -> None:
    folder.mkdir()
    with open(folder / "film.mkv", "wb") as fh:
        fh.truncate(gb << 30)


def measure(make: Callable[[Path], None], probe_embedded: bool) -> tuple[float, float]:
    """(seconds until add returned, until the first stage was claimed); the engine stops right after."""
    with tempfile.TemporaryDirectory() as tmp:
        media, data = Path(tmp) / "lib", Path(tmp) / "data"
        make(media)
        data.mkdir()
        pipeline = Pipeline("video", [NoopStage(f"s{i}") for i in range(3)])
        lib = Library(data, {"video": pipeline}, EngineConfig(workers=2, poll_interval=0.01))
        try:
            lib.start()
            t0, wall0 = time.perf_counter(), time.time()
            lib.add(media, JobOptions(extra=(("embedded_subtitles", probe_embedded),)))
            t_add = time.perf_counter() - t0
            first = None
            while first is None:
                with lib.store.db.read() as conn:
                    first = conn.execute(select(func.min(stages.c.started_at))).scalar()
                time.sleep(0.001)
        finally:
            lib.close()
    return t_add, first - wall0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--per-folder", type=int, default=100, help="small files per folder")
    ap.add_argument("--big-gb", type=int, default=20)
    ap.add_argument("--against", type=Path, default=None, help="measure the code of this checkout instead")
    args = ap.parse_args()
    print(f"code: {Path(app.pipelines.__file__).parents[2]}")
    print(f"{'folder':<58} {'add returns s':>13} {'first stage s':>13}")
    small = f"{args.files:,} small files ({args.per_folder}/folder)"
    cases = [(small, lambda p: small_files(p, args.files, args.per_folder), False),
             (f"{small}, embedded-subs probe", lambda p: small_files(p, args.files, args.per_folder), True),
             (f"one {args.big_gb} GB file (sparse)", lambda p: one_big_file(p, args.big_gb), False)]
    for label, make, probe in cases:
        t_add, t_first = measure(make, probe)
        print(f"{label:<58} {t_add:>13.2f} {t_first:>13.2f}", flush=True)
    print(f"(a sparse file reads as zeros without disk I/O: reading {args.big_gb} GB from a NAS at "
          f"{_NAS_MB_PER_S} MB/s takes ~{(args.big_gb << 10) / _NAS_MB_PER_S:.0f} s more wherever the hash is read)")


if __name__ == "__main__":
    main()
