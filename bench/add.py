"""Adding a folder: time until ``add`` returns and until the first stage runs, with the engine already running.

The second row turns on the video kind's embedded-subtitle check (the person's default),
which runs ffprobe on every video during the scan. ``peak MB`` is the process's peak
resident memory during the add alone (``/proc/self/clear_refs`` resets the peak first),
``base MB`` what it held before: the add's own memory is the difference.

Run by hand: `.venv/bin/python bench/add.py [--files N] [--big-gb G] [--only-small] [--postgres]
[--against CHECKOUT]`. Prints a table. ``--postgres`` also adds each folder to a throwaway
PostgreSQL cluster (tests/postgres_server.py); ``--only-small`` leaves out the probe and
big-file rows (for 1,000,000 files).
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


def _rss_mb(field: str) -> float:
    """``VmRSS`` (now) or ``VmHWM`` (peak since the last reset) of this process, in MB."""
    with open("/proc/self/status") as fh:
        line = next(line for line in fh if line.startswith(field + ":"))
    return int(line.split()[1]) / 1024


def measure(media: Path, probe_embedded: bool, database_url: str) -> tuple[float, float, float, float, float, int]:
    """(s until add returned, CPU s of this process meanwhile, s until the first stage was claimed, base MB,
    peak MB during the add, files added). On a machine others load, the CPU seconds compare better than the wall."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        pipeline = Pipeline("video", [NoopStage(f"s{i}") for i in range(3)])
        lib = Library(data, {"video": pipeline}, EngineConfig(workers=2, poll_interval=0.01, database_url=database_url))
        try:
            lib.start()
            base = _rss_mb("VmRSS")
            with open("/proc/self/clear_refs", "w") as fh:
                fh.write("5")  # reset the peak: what follows is the add's
            t0, wall0, cpu0 = time.perf_counter(), time.time(), time.process_time()
            job = lib.add(media, JobOptions(extra=(("embedded_subtitles", probe_embedded),)))
            t_add, cpu = time.perf_counter() - t0, time.process_time() - cpu0
            peak = _rss_mb("VmHWM")
            first = None
            while first is None:
                with lib.store.db.read() as conn:
                    first = conn.execute(select(func.min(stages.c.started_at))).scalar()
                time.sleep(0.001)
        finally:
            lib.close()
    return t_add, cpu, first - wall0, base, peak, job.total + job.skipped


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--per-folder", type=int, default=100, help="small files per folder")
    ap.add_argument("--big-gb", type=int, default=20)
    ap.add_argument("--only-small", action="store_true", help="only the small-files row (no probe, no big file)")
    ap.add_argument("--postgres", action="store_true", help="also add each folder to a throwaway PostgreSQL cluster")
    ap.add_argument("--against", type=Path, default=None, help="measure the code of this checkout instead")
    args = ap.parse_args()
    print(f"code: {Path(app.pipelines.__file__).parents[2]}")
    small = f"{args.files:,} small files ({args.per_folder}/folder)"
    cases = [(small, lambda p: small_files(p, args.files, args.per_folder), False)]
    if not args.only_small:
        cases += [(f"{small}, embedded-subs probe", lambda p: small_files(p, args.files, args.per_folder), True),
                  (f"one {args.big_gb} GB file (sparse)", lambda p: one_big_file(p, args.big_gb), False)]
    cluster = None
    backends = [("sqlite", lambda: "")]
    if args.postgres:
        from tests.postgres_server import PostgresCluster

        cluster = PostgresCluster().start()
        backends.append(("postgresql", cluster.create_database))
    print(f"{'folder':<50} {'backend':<10} {'add s':>8} {'files/s':>9} {'cpu s':>7} {'base MB':>8} {'peak MB':>8} "
          f"{'first stage s':>13}")
    try:
        for label, make, probe in cases:
            # The folder is made once per case: adding reads no file's content and changes none, and at
            # 1,000,000 files making it takes longer than adding it.
            with tempfile.TemporaryDirectory() as tmp:
                make(Path(tmp) / "lib")
                for backend, url in backends:
                    t_add, cpu, t_first, base, peak, n = measure(Path(tmp) / "lib", probe, url())
                    print(f"{label:<50} {backend:<10} {t_add:>8.2f} {n / t_add:>9.0f} {cpu:>7.2f} {base:>8.0f} "
                          f"{peak:>8.0f} {t_first:>13.2f}", flush=True)
    finally:
        if cluster is not None:
            cluster.stop()
    with open("/proc/loadavg") as fh:
        print(f"load average: {fh.read().strip()}")
    if not args.only_small:
        print(f"(a sparse file reads as zeros without disk I/O: reading {args.big_gb} GB from a NAS at "
              f"{_NAS_MB_PER_S} MB/s takes ~{(args.big_gb << 10) / _NAS_MB_PER_S:.0f} s more wherever the hash is read)")


if __name__ == "__main__":
    main()
