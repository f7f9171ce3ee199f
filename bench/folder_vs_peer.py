"""A folder of short clips: Sidecar against whisper-ctranslate2, the tool people use today.

    .venv/bin/python bench/folder_vs_peer.py [--clips 20] [--repeat 3]

Builds ``--clips`` short English videos (espeak-ng sentences muxed by ffmpeg, each a
different pair of sentences) and transcribes the folder, alternating runs:

- **peer**: ``whisper-ctranslate2`` (a bench-only dependency: installed once with
  ``pip --no-deps --target`` into this user's cache, never into the app's environment)
  on all clips in one process, writing SRT files;
- **Sidecar**: ``sidecar add`` + ``sidecar run --until-idle`` on a fresh library whose
  data dir already holds the joined model (as after a first run), target language
  English as spoken, so the translation stage skips itself and extract_audio →
  transcribe → render → place (and dialogue indexing) run.

Both sides load the same model (the bundled Whisper base) with the same device, compute
type, CPU threads, beam size, VAD and word timestamps; both detect the language. Wall
time is measured around each process (imports and the model load count on both sides).
Every process's peak resident set (``VmHWM``) is sampled from ``/proc``; the table
compares the peer's process with Sidecar's Whisper host. Prints the median of each side,
the ratio Sidecar / peer with its range over the runs, and the peak memory.
Run by hand; never part of the tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.asr_overhead import fresh_library  # noqa: E402
from bench.long_film import Tree, run_sampled  # noqa: E402
from app.ml.bundled import whisper_base_dir  # noqa: E402
from app.ml.whisper_runtime import choose_device  # noqa: E402
from app.pipelines.video import BEAM_SIZE  # noqa: E402
from tests.media import ENGLISH_SENTENCES, mux, speak  # noqa: E402

PEER = "whisper-ctranslate2==0.5.8"


def peer_site() -> Path:
    """A folder holding the peer's package (its dependencies are the app's own: faster-whisper, PyAV, tqdm)."""
    from platformdirs import user_cache_dir

    site = Path(user_cache_dir("sidecar-bench")) / PEER.replace("==", "-")
    if not (site / "whisper_ctranslate2").is_dir():
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), PEER], check=True)
    return site


def build_clips(n: int, folder: Path, voices: Path) -> list[Path]:
    """``n`` videos, clip ``i`` speaking sentences ``i`` and ``i + 3`` (mod 10) with a pause between them."""
    folder.mkdir(parents=True, exist_ok=True)
    voices.mkdir(parents=True, exist_ok=True)
    clips = []
    for i in range(n):
        a, b = ENGLISH_SENTENCES[i % 10], ENGLISH_SENTENCES[(i + 3) % 10]
        ssml = f'<speak>{a}<break time="700ms"/>{b}</speak>'
        wav = speak(ssml, "en-us", voices / f"clip{i:02d}.wav", ssml=True)
        clips.append(mux(wav, folder / f"clip{i:02d}.mp4"))
    return clips


def run_peer(clips: list[Path], model_dir: Path, site: Path, out: Path, log: Path) -> tuple[float, Tree]:
    device, compute_type = choose_device()
    out.mkdir(parents=True, exist_ok=True)
    args = [sys.executable, "-c", "import sys; from whisper_ctranslate2.whisper_ctranslate2 import main; sys.exit(main())",
            *map(str, clips), "--model_directory", str(model_dir), "--device", device, "--compute_type", compute_type,
            "--threads", str(min(4, os.cpu_count() or 1)), "--beam_size", str(BEAM_SIZE), "--vad_filter", "True",
            "--word_timestamps", "True", "--condition_on_previous_text", "False", "--output_format", "srt",
            "--output_dir", str(out), "--verbose", "False"]
    env = {**os.environ, "PYTHONPATH": str(site)}
    seconds, tree, _ = run_sampled(args, env, log, name="whisper-ctranslate2")
    if len(list(out.glob("*.srt"))) != len(clips):
        raise SystemExit(f"the peer wrote {len(list(out.glob('*.srt')))} of {len(clips)} transcripts; see {log}")
    return seconds, tree


def run_sidecar(clips: list[Path], model_dir: Path, work: Path, log: Path) -> tuple[float, Tree]:
    folder, env = fresh_library(work, model_dir)
    for clip in clips:
        os.link(clip, folder / clip.name)
    added, _, _ = run_sampled([sys.executable, "-m", "app", "add", str(folder), "--kind", "video", "--target-lang", "en"],
                              env, log, name="sidecar add")
    ran, tree, _ = run_sampled([sys.executable, "-m", "app", "run", "--until-idle"], env, log, name="sidecar run")
    written = len(list(folder.glob("*.srt")))
    if written != len(clips):
        raise SystemExit(f"Sidecar wrote {written} of {len(clips)} transcripts; see `sidecar status --items` and {log}")
    return added + ran, tree


def whisper_peak_mib(tree: Tree, name: str) -> float:
    return max((mib for label, mib in tree.rows() if label == name), default=0.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clips", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    site = peer_site()
    with tempfile.TemporaryDirectory(prefix="sidecar-peer-") as tmp:
        root = Path(tmp)
        model_dir = whisper_base_dir(root / "shared")
        clips = build_clips(args.clips, root / "clips", root / "voices")
        log = root / "runs.log"
        peer_s, side_s, peer_mib, side_mib = [], [], [], []
        for n in range(args.repeat):
            seconds, tree = run_peer(clips, model_dir, site, root / f"peer{n}", log)
            peer_s.append(seconds)
            peer_mib.append(whisper_peak_mib(tree, "whisper-ctranslate2"))
            seconds, tree = run_sidecar(clips, model_dir, root / f"sidecar{n}", log)
            side_s.append(seconds)
            side_mib.append(whisper_peak_mib(tree, "whisper host"))
            print(f"run {n + 1}: peer {peer_s[-1]:.2f} s, sidecar {side_s[-1]:.2f} s", flush=True)
    ratios = [s / p for s, p in zip(side_s, peer_s)]
    p, s = statistics.median(peer_s), statistics.median(side_s)
    print(f"\n{args.clips} clips, {args.repeat} alternating runs, Whisper base {choose_device()[1]}\n"
          f"{'':24}{'median s':>10}{'peak MiB':>10}\n"
          f"{'whisper-ctranslate2':24}{p:10.2f}{max(peer_mib):10.0f}\n"
          f"{'sidecar add + run':24}{s:10.2f}{max(side_mib):10.0f}  (Whisper host)\n"
          f"ratio sidecar / peer: {s / p:.3f} (runs {min(ratios):.3f}-{max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
