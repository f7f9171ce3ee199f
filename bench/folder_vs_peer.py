"""A folder of clips: Sidecar against whisper-ctranslate2, the tool people use today.

    .venv/bin/python bench/folder_vs_peer.py [--corpus real|espeak] [--peer defaults|matched] [--repeat 3]

Two corpora, each muxed into short videos (a still picture and the speech) at run time:

- ``real`` (the default): the recordings of people in ``tests/data/real_speech`` (ten
  speakers, one German, 5 s to 2 min; sources and licences in its README);
- ``espeak``: ``--clips`` espeak-ng clips of two English sentences each.

The folder is transcribed, alternating runs:

- **peer**: ``whisper-ctranslate2`` (a bench-only dependency: installed once with
  ``pip --no-deps --target`` into this user's cache, never into the app's environment)
  on all clips in one process, writing SRT files;
- **Sidecar**: ``sidecar add --target-lang ""`` + ``sidecar run --until-idle`` on an empty
  library as after a first run: its database exists and its data dir holds the joined
  model and its int8 copy (:func:`bench.asr_overhead.fresh_library`). No target
  language: transcripts only, as the peer writes (the German recording is not translated),
  so the translation stage skips itself and hash → extract_audio → transcribe → render →
  place → index_dialogue run.

Both sides load the same model files (the bundled Whisper base) and detect the language.
``--peer defaults`` runs the peer as a person types it: only ``--model_directory`` (no
model hub here), ``--output_format srt`` (Sidecar writes SRT; the default also writes
four other formats) and ``--output_dir`` are given, so it runs without VAD and word
timestamps, with its default threads and compute type. ``--peer matched`` gives it
Sidecar's settings instead (device, compute type, threads, beam 5, VAD, word
timestamps, no conditioning on previous text), as the first version of this bench did.
Wall time is measured around each process (imports and the model load count on both
sides). Every process's peak resident set (``VmHWM``) is sampled from ``/proc``; the
table compares the peer's process with Sidecar's largest process. Prints the median of
each side, the ratio Sidecar / peer with its range over the runs, the median CPU seconds
of each side's processes (all of them, model hosts included: a loaded machine stretches
wall time, not CPU time) and their ratio, the peak memory, the load average, whether
dialogue indexing held up a subtitle (:func:`subtitles_first`), and for the
last run of each side where its time and memory went, per phase, stage and process
(:mod:`bench.breakdown`). Sidecar runs from compiled bytecode, as installed
(:func:`bench.asr_overhead.compile_as_installed`).
Run by hand; never part of the tests.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.asr_overhead import compile_as_installed, fresh_library  # noqa: E402
from bench.breakdown import PEER_CODE, Breakdown, peer_breakdown, sidecar_breakdown  # noqa: E402
from bench.long_film import Tree, run_sampled  # noqa: E402
from app.ml.bundled import whisper_base_dir, whisper_base_int8_dir  # noqa: E402
from app.ml.whisper_runtime import choose_device  # noqa: E402
from app.pipelines.video import BEAM_SIZE  # noqa: E402
from bench.stage_split import StageTime, stage_times  # noqa: E402
from tests.media import ENGLISH_SENTENCES, mux, speak  # noqa: E402

PEER = "whisper-ctranslate2==0.5.8"
REAL_SPEECH = REPO / "tests" / "data" / "real_speech"
SHORT_SPEECH = REPO / "tests" / "data" / "short_speech"


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


def real_clips(folder: Path, source_dir: Path = REAL_SPEECH) -> list[Path]:
    """Each recording of ``source_dir`` (Opus, in .opus or .ogg) as a short video (its speech, a still picture)."""
    folder.mkdir(parents=True, exist_ok=True)
    sources = sorted([*source_dir.glob("*.opus"), *source_dir.glob("*.ogg")])
    return [mux(source, folder / f"{source.stem}.mp4") for source in sources]


def peer_args(peer: str) -> list[str]:
    """The peer's options beyond the model folder and output: none as a person runs it, or Sidecar's."""
    if peer == "defaults":
        return []
    device, compute_type = choose_device()
    return ["--device", device, "--compute_type", compute_type, "--threads", str(min(4, os.cpu_count() or 1)),
            "--beam_size", str(BEAM_SIZE), "--vad_filter", "True", "--word_timestamps", "True",
            "--condition_on_previous_text", "False", "--verbose", "False"]


def run_peer(clips: list[Path], model_dir: Path, site: Path, out: Path, log: Path,
             peer: str = "defaults") -> tuple[float, Tree, Breakdown]:
    out.mkdir(parents=True, exist_ok=True)
    args = [sys.executable, "-c", PEER_CODE, *map(str, clips), "--model_directory", str(model_dir),
            "--output_format", "srt", "--output_dir", str(out), *peer_args(peer)]
    env = {**os.environ, "PYTHONPATH": str(site)}
    began = time.time()
    seconds, tree, _ = run_sampled(args, env, log, name="whisper-ctranslate2")
    if len(list(out.glob("*.srt"))) != len(clips):
        raise SystemExit(f"the peer wrote {len(list(out.glob('*.srt')))} of {len(clips)} transcripts; see {log}")
    return seconds, tree, peer_breakdown(tree, began, began + seconds, log.read_text(errors="replace"))


def run_sidecar(clips: list[Path], model_dir: Path, work: Path, log: Path,
                checkout: Path = REPO) -> tuple[float, Tree, Breakdown]:
    """``sidecar add`` + ``sidecar run --until-idle`` of ``checkout`` on a fresh library; the tree holds both processes'.

    Writes ``work / "began"``: the wall-clock time ``add`` started, which the store's stage times are compared with.
    """
    compile_as_installed(checkout)
    folder, env = fresh_library(work, model_dir, checkout)
    began = time.time()
    (work / "began").write_text(repr(began))
    for clip in clips:
        os.link(clip, folder / clip.name)
    if checkout == REPO:  # `sidecar run FOLDER`: one process adds and runs (issue 36)
        ran, tree, _ = run_sampled([sys.executable, "-m", "app", "run", str(folder), "--kind", "video", "--target-lang", ""],
                                   env, log, name="sidecar run", cwd=checkout)
        add_tree, added, ran_from = tree, 0.0, began
    else:  # an earlier checkout: the two-command form
        added, add_tree, _ = run_sampled([sys.executable, "-m", "app", "add", str(folder), "--kind", "video",
                                          "--target-lang", ""], env, log, name="sidecar add", cwd=checkout)
        ran_from = time.time()
        ran, tree, _ = run_sampled([sys.executable, "-m", "app", "run", "--until-idle"], env, log, name="sidecar run",
                                   cwd=checkout)
    written = len(list(folder.glob("*.srt")))
    if written != len(clips):
        raise SystemExit(f"Sidecar wrote {written} of {len(clips)} transcripts; see `sidecar status --items` and {log}")
    split = sidecar_breakdown(add_tree, (began, began + added), tree, (ran_from, ran_from + ran), stage_times(work / "data"),
                              log.read_text(errors="replace"))
    if add_tree is not tree:
        tree.merge(add_tree)  # `add` is a process of Sidecar too
    return added + ran, tree, split


def largest(tree: Tree) -> tuple[str, float]:
    """(label, peak MiB) of the tree's largest process."""
    return max(tree.rows(), key=lambda row: row[1], default=("none", 0.0))


def subtitles_first(times: list[StageTime]) -> str:
    """Whether dialogue indexing ever held up a subtitle (issue 24, item 3), from the store's stage times.

    The transcriptions run one after another on the Whisper host; an ``index_dialogue``
    that delayed one would show as a gap between one transcription's end and the next's
    start while it ran. Counts the indexing runs that started before the last subtitle was
    placed, the gaps between transcriptions, and the indexing time inside those gaps.
    """
    runs = sorted((t for t in times if t.name == "transcribe"), key=lambda t: t.started)
    indexing = [t for t in times if t.name == "index_dialogue"]
    last_placed = max(t.finished for t in times if t.name == "place")
    gaps = [(a.finished, b.started) for a, b in zip(runs, runs[1:])]
    held = sum(max(0.0, min(end, i.finished) - max(start, i.started)) for start, end in gaps for i in indexing)
    widest = max((end - start for start, end in gaps), default=0.0)
    return (f"{sum(i.started < last_placed for i in indexing)} of {len(indexing)} index_dialogue runs began before "
            f"the last subtitle was placed; {len(gaps)} gaps between transcriptions, widest {widest:.2f} s, "
            f"index_dialogue inside them {held:.2f} s in all")


def children_cpu() -> float:
    """CPU seconds (user and system) of this bench's finished child processes, their own children included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=("real", "short", "espeak"), default="real")
    parser.add_argument("--peer", choices=("defaults", "matched"), default="defaults",
                        help="the peer's options: as a person runs it, or Sidecar's settings")
    parser.add_argument("--clips", type=int, default=20, help="espeak corpus: how many clips")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout of Sidecar (an earlier commit), run in turn too")
    args = parser.parse_args()
    site = peer_site()
    sides = {"sidecar run FOLDER": REPO, **({"baseline add + run": args.baseline.resolve()} if args.baseline else {})}
    seconds: dict[str, list[float]] = {"whisper-ctranslate2": [], **{label: [] for label in sides}}
    cpu_seconds: dict[str, list[float]] = {label: [] for label in seconds}
    peaks: dict[str, list[tuple[str, float]]] = {label: [] for label in seconds}
    loads = [load_average()]
    splits: dict[str, str] = {}
    firsts: dict[str, list[float]] = {label: [] for label in sides}
    orders: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="sidecar-peer-") as tmp:
        root = Path(tmp)
        model_dir = whisper_base_dir(root / "shared")
        whisper_base_int8_dir(root / "shared")  # the CPU's copy, beside it: as after a first run
        if args.corpus in ("real", "short"):
            clips = real_clips(root / "clips", REAL_SPEECH if args.corpus == "real" else SHORT_SPEECH)
        else:
            clips = build_clips(args.clips, root / "clips", root / "voices")
        log = root / "runs.log"
        for n in range(args.repeat):
            cpu = children_cpu()
            took, tree, split = run_peer(clips, model_dir, site, root / f"peer{n}", log, args.peer)
            cpu_seconds["whisper-ctranslate2"].append(children_cpu() - cpu)
            seconds["whisper-ctranslate2"].append(took)
            peaks["whisper-ctranslate2"].append(largest(tree))
            splits["whisper-ctranslate2"] = split.render()
            for k, (label, checkout) in enumerate(sides.items()):
                work = root / f"side{k}-{n}"
                cpu = children_cpu()
                took, tree, split = run_sidecar(clips, model_dir, work, log, checkout)
                cpu_seconds[label].append(children_cpu() - cpu)
                seconds[label].append(took)
                peaks[label].append(largest(tree))
                times = stage_times(work / "data")
                firsts[label].append(min(t.finished for t in times if t.name == "place") - float((work / "began").read_text()))
                orders[label] = subtitles_first(times)
                splits[label] = split.render().replace("sidecar:", f"{label}:", 1)
                shutil.rmtree(work / "media", ignore_errors=True)
            loads.append(load_average())
            print(f"run {n + 1}: " + ", ".join(f"{label} {runs[-1]:.2f} s" for label, runs in seconds.items())
                  + f" (load {loads[-1]})", flush=True)
    peer = statistics.median(seconds["whisper-ctranslate2"])
    peer_mib = max(mib for _, mib in peaks["whisper-ctranslate2"])
    print(f"\n{len(clips)} clips ({args.corpus}), {args.repeat} alternating runs, Whisper base, peer {args.peer}; "
          f"load average (1/5/15 min) before and after each round: {' | '.join(loads)}\n"
          f"{'':22}{'median s':>9}{'runs s':>22}{'/ peer':>8}{'(range)':>14}{'CPU s':>7}{'/ peer':>7}"
          f"{'peak MiB':>9}{'/ peer':>7}  largest process")
    peer_cpu_s = statistics.median(cpu_seconds["whisper-ctranslate2"])
    for label, runs in seconds.items():
        ratios = [x / p for x, p in zip(runs, seconds["whisper-ctranslate2"])]
        name, mib = max(peaks[label], key=lambda row: row[1])
        cpu_s = statistics.median(cpu_seconds[label])
        print(f"{label:22}{statistics.median(runs):9.2f}{' / '.join(f'{x:.1f}' for x in runs):>22}"
              f"{statistics.median(runs) / peer:8.3f}{f'{min(ratios):.2f}-{max(ratios):.2f}':>14}{cpu_s:7.1f}"
              f"{cpu_s / peer_cpu_s:7.3f}{mib:9.0f}{mib / peer_mib:7.3f}  {name}")
    for label, runs in firsts.items():
        print(f"{label}: first subtitle placed {statistics.median(runs):.2f} s after add began (median); last run: "
              f"{orders[label]}")
    for split in splits.values():
        print(f"\n(last run) {split}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
