"""What the durable pipeline costs on top of bare faster-whisper, for one clip.

    .venv/bin/python bench/asr_overhead.py [CLIP] [--repeat N] [--lang en]

Both sides start a fresh interpreter, load the same model (the bundled Whisper base,
same device, compute type, threads, beam size, VAD, word timestamps) and transcribe
the same file; wall time is measured around the whole process, so imports and the
model load count on both sides. The pipeline side is ``sidecar run --until-idle`` on a
job that ``sidecar add`` created beforehand (not timed: the scan is not ASR), with the
target language equal to the spoken one, so only extract_audio → transcribe → render
→ place run. Prints the median wall times and the ratio pipeline / bare.

Without CLIP, the ≥ 40 s English test clip is generated (espeak-ng + ffmpeg).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def bare(clip: Path, model_dir: Path) -> None:
    """Transcribe ``clip`` exactly as the transcribe stage's model host does, in this process."""
    from faster_whisper import WhisperModel

    from app.ml.whisper_runtime import choose_device
    from app.pipelines.video import BEAM_SIZE

    device, compute_type = choose_device()
    model = WhisperModel(str(model_dir), device=device, compute_type=compute_type,
                         cpu_threads=min(4, os.cpu_count() or 1), local_files_only=True)
    segments, info = model.transcribe(str(clip), beam_size=BEAM_SIZE, vad_filter=True, word_timestamps=True,
                                      condition_on_previous_text=False)
    count = sum(1 for _ in segments)
    print(f"bare: {count} segments, language {info.language}", flush=True)


def _timed(args: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    subprocess.run(args, cwd=REPO, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def compile_as_installed(checkout: Path = REPO) -> None:
    """Compile ``checkout``'s modules, so its Sidecar starts from bytecode as an installed one does (pip, the frozen app).

    Where ``PYTHONDONTWRITEBYTECODE`` is set (it is on the machines these benches run on), a
    source checkout compiles every module of ``app`` from source in each process it starts
    (``add``, ``run``, each model host; ~0.2 s of CPU each on two cores), while
    whisper-ctranslate2, installed by pip, starts from its compiled files. So the checkout's
    modules are compiled beforehand, into their ``__pycache__`` folders (ignored by git);
    compileall skips what is up to date.
    """
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "app")], check=True,
                   stdout=subprocess.DEVNULL, env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})


def fresh_library(work: Path, model_dir: Path, checkout: Path | None = None) -> tuple[Path, dict[str, str]]:
    """(media folder, environment) of a new library as after a first run: its data dir holds the joined model.

    Every model folder beside ``model_dir`` (Whisper base's int8 copy, which the CPU loads) is
    linked in too. With ``checkout``, that Sidecar also creates the library database (a
    ``sidecar status``, untimed): a person's first command creates it once, every later one
    finds it (creating it runs all schema revisions: ~0.8 s of a first ``add`` on two cores).
    """
    folder, data = work / "media", work / "data"
    shutil.rmtree(work, ignore_errors=True)
    folder.mkdir(parents=True)
    for model in model_dir.parent.iterdir():
        joined = data / "models" / "bundled" / model.name
        joined.mkdir(parents=True)
        for file in model.iterdir():
            os.link(file, joined / file.name)
    env = {**os.environ, "SIDECAR_HOME": str(data)}
    if checkout is not None:
        subprocess.run([sys.executable, "-m", "app", "status"], cwd=checkout, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return folder, env


def pipeline_once(clip: Path, lang: str, work: Path, model_dir: Path) -> float:
    """One run on a fresh library whose data dir already holds the joined model (as after a first run)."""
    folder, env = fresh_library(work, model_dir)
    shutil.copyfile(clip, folder / clip.name)
    subprocess.run([sys.executable, "-m", "app", "add", str(folder), "--kind", "video", "--target-lang", lang],
                   cwd=REPO, env=env, check=True, stdout=subprocess.DEVNULL)
    seconds = _timed([sys.executable, "-m", "app", "run", "--until-idle"], env)
    if not any(p.suffix == ".srt" for p in folder.iterdir()):
        raise SystemExit("the pipeline wrote no transcript; see `sidecar status --items`")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clip", nargs="?", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--lang", default="en", help="the clip's spoken language (no translation is done)")
    parser.add_argument("--bare", type=Path, help=argparse.SUPPRESS)  # the child side of the bare run: model folder
    args = parser.parse_args()
    if args.bare:
        bare(args.clip, args.bare)
        return 0
    with tempfile.TemporaryDirectory(prefix="sidecar-bench-") as tmp:
        sys.path.insert(0, str(REPO))
        from app.ml.bundled import whisper_base_dir

        model_dir = whisper_base_dir(Path(tmp) / "shared")
        clip = args.clip
        if clip is None:
            from tests.media import MediaFactory

            clip = MediaFactory(Path(tmp) / "clips").english_long(".mp4")
        clip = clip.resolve()
        bare_times, pipe_times = [], []
        for n in range(args.repeat):
            bare_times.append(_timed([sys.executable, str(Path(__file__).resolve()), "--bare", str(model_dir), str(clip)]))
            pipe_times.append(pipeline_once(clip, args.lang, Path(tmp) / f"run{n}", model_dir))
            print(f"run {n + 1}: bare {bare_times[-1]:.2f} s, pipeline {pipe_times[-1]:.2f} s", flush=True)
    b, p = statistics.median(bare_times), statistics.median(pipe_times)
    print(f"clip: {clip.name}\nbare faster-whisper: {b:.2f} s (median of {args.repeat})\n"
          f"sidecar run:         {p:.2f} s (median of {args.repeat})\nratio pipeline / bare: {p / b:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
