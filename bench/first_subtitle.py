"""One dropped file: how long until its subtitle is there, Sidecar against whisper-ctranslate2.

    .venv/bin/python bench/first_subtitle.py [--file tests/data/real_speech/en_jfk_inaugural.opus]
                                             [--peer defaults|matched] [--repeat 3]

The recording is muxed into a short video. Three ways of subtitling it, alternating runs:

- **peer**: ``whisper-ctranslate2 FILE`` (options as in :mod:`bench.folder_vs_peer`); the
  time to its SRT is the time to its exit;
- **cli**: ``sidecar add FILE && sidecar run --until-idle`` on an empty library as after a
  first run (:func:`bench.asr_overhead.fresh_library`: its database exists, its data dir
  holds the joined model and its int8 copy); the SRT is watched for while ``run`` works, so the table
  gives the time to the subtitle file and the time until ``run`` exits;
- **app**: the engine already running in a process, as the desktop app holds it (the
  facade's ``Library.open`` and ``start``, without Qt), ready for some seconds; then
  ``add FILE`` as a drop does, timing ``add`` to the first stage starting (the store's
  ``started_at``), to the subtitle file, and to idle. A second file dropped after that
  (``app, second drop``) finds the Whisper host already loaded.

Also prints the load average, the CPU seconds the peer's process and the cli's processes
(``add``, ``run`` and its model hosts) used, which a loaded machine does not inflate as it
does wall time, for the last run of each Sidecar way its stages' timeline (seconds after
``add`` began), and for the last run of the peer and of the cli where its time and memory
went, per phase, stage and process (:mod:`bench.breakdown`). Sidecar runs from compiled
bytecode, as installed (:func:`bench.asr_overhead.compile_as_installed`). Run by hand;
never part of the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.asr_overhead import compile_as_installed, fresh_library  # noqa: E402
from bench.breakdown import PEER_CODE, Breakdown, peer_breakdown, sidecar_breakdown  # noqa: E402
from bench.folder_vs_peer import REAL_SPEECH, children_cpu, load_average, peer_args, peer_site  # noqa: E402
from bench.long_film import run_sampled  # noqa: E402
from bench.stage_split import StageTime, stage_times, timeline  # noqa: E402

#: How long the app's engine runs before the drop: start-up (recovery, imports) is over, as in a window opened earlier.
APP_SETTLE_S = 3.0


def subtitle_beside(video: Path) -> Path | None:
    return next(iter(sorted(video.parent.glob(f"{video.stem}*.srt"))), None)


def watch_for(video: Path, since: float, stop: threading.Event, found: dict[str, float]) -> threading.Thread:
    """A thread noting when the first SRT beside ``video`` appears (seconds after ``since``)."""
    def poll() -> None:
        while not stop.is_set() and subtitle_beside(video) is None:
            time.sleep(0.02)
        if subtitle_beside(video) is not None:
            found.setdefault("srt", time.time() - since)
    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    return thread


def run_peer_once(video: Path, model_dir: Path, site: Path, out: Path, peer: str,
                  log: Path) -> tuple[dict[str, float], Breakdown]:
    """Seconds to the peer's SRT (``srt``), the CPU seconds it used (``cpu``), and where they went."""
    out.mkdir(parents=True, exist_ok=True)
    cpu = children_cpu()
    args = [sys.executable, "-c", PEER_CODE, str(video), "--model_directory", str(model_dir), "--output_format", "srt",
            "--output_dir", str(out), *peer_args(peer)]
    began = time.time()
    seconds, tree, _ = run_sampled(args, {**os.environ, "PYTHONPATH": str(site)}, log, name="whisper-ctranslate2")
    if not list(out.glob("*.srt")):
        raise SystemExit("the peer wrote no SRT")
    split = peer_breakdown(tree, began, began + seconds, log.read_text(errors="replace"))
    return {"srt": seconds, "cpu": children_cpu() - cpu}, split


def run_cli_once(video: Path, model_dir: Path, work: Path, target: str, log: Path,
                 checkout: Path = REPO) -> tuple[dict[str, float], list[StageTime], Breakdown]:
    compile_as_installed(checkout)
    folder, env = fresh_library(work, model_dir, checkout)
    dropped = folder / video.name
    os.link(video, dropped)
    found: dict[str, float] = {}
    stop = threading.Event()
    since, cpu = time.time(), children_cpu()
    watcher = watch_for(dropped, since, stop, found)
    if checkout == REPO:  # `sidecar run FILE`: one process adds and runs (issue 36)
        ran, run_tree, _ = run_sampled([sys.executable, "-m", "app", "run", str(dropped), "--target-lang", target], env, log,
                                       name="sidecar run", cwd=checkout)
        add_tree, added, ran_from = run_tree, 0.0, since
    else:  # an earlier checkout: the two-command form
        added, add_tree, _ = run_sampled([sys.executable, "-m", "app", "add", str(dropped), "--target-lang", target], env,
                                         log, name="sidecar add", cwd=checkout)
        found["add"] = time.time() - since
        ran_from = time.time()
        ran, run_tree, _ = run_sampled([sys.executable, "-m", "app", "run", "--until-idle"], env, log, name="sidecar run",
                                       cwd=checkout)
    found["exit"] = time.time() - since
    found["cpu"] = children_cpu() - cpu
    stop.set()
    watcher.join()
    if "srt" not in found:
        raise SystemExit(f"Sidecar wrote no SRT for {video.name}")
    times = stage_times(work / "data")
    found["first_stage"] = min(t.started for t in times) - since
    split = sidecar_breakdown(add_tree, (since, since + added), run_tree, (ran_from, ran_from + ran), times,
                              log.read_text(errors="replace"))
    return found, times, split


def run_app_once(videos: list[Path], model_dir: Path, work: Path, target: str,
                 checkout: Path = REPO) -> list[dict[str, Any]]:
    """The app case in a child process (its own interpreter, as the desktop's); one result per dropped file."""
    compile_as_installed(checkout)
    folder, env = fresh_library(work, model_dir, checkout)
    dropped = []
    for video in videos:
        os.link(video, folder / video.name)
        dropped.append(folder / video.name)
    out = subprocess.run([sys.executable, str(checkout / "bench" / "first_subtitle.py"), "--app-child", str(work / "data"),
                          target, *map(str, dropped)], cwd=checkout, env={**env, "PYTHONFAULTHANDLER": "1"},
                         capture_output=True, text=True)
    if out.returncode != 0:  # with the Python stack of every thread when it died of a signal
        raise SystemExit(f"the app's engine ended with {out.returncode}:\n{out.stderr[-6000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def app_child(data_dir: Path, target: str, dropped: list[Path]) -> None:
    """Open and start the library as the desktop's facade does, wait, then drop the files one after another."""
    import app.pipelines  # noqa: F401 - the composition root registers the media kinds
    from app.engine.library import JobOptions, Library
    from app.settings import load_settings

    settings = load_settings(data_dir)
    library = Library.open(data_dir, settings, role="gui")
    library.start()
    time.sleep(APP_SETTLE_S)
    results = []
    try:
        for video in dropped:
            found: dict[str, float] = {}
            stop = threading.Event()
            since = time.time()
            watcher = watch_for(video, since, stop, found)
            library.add(video, JobOptions.from_settings(settings, target_lang=target))
            found["add"] = time.time() - since
            library.run_until_idle()
            found["idle"] = time.time() - since
            stop.set()
            watcher.join()
            times = [t for t in stage_times(data_dir) if t.item == video.name]
            found["first_stage"] = min(t.started for t in times) - since
            results.append({"times": found, "timeline": timeline(times, since)})
    finally:
        library.close()
    print(json.dumps(results))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=REAL_SPEECH / "en_jfk_inaugural.opus")
    parser.add_argument("--second", type=Path, default=REAL_SPEECH / "en_arctic_aew.opus",
                        help="the app's second drop, after the first is done")
    parser.add_argument("--target-lang", default="", help="none (the default): transcripts only, as the peer writes")
    parser.add_argument("--peer", choices=("defaults", "matched"), default="defaults")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout of Sidecar (an earlier commit), run in turn too")
    parser.add_argument("--app-child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.app_child:
        app_child(Path(args.app_child[0]), args.app_child[1], [Path(p) for p in args.app_child[2:]])
        return 0
    from app.ml.bundled import whisper_base_dir, whisper_base_int8_dir
    from tests.media import mux

    site = peer_site()
    sides = {"": REPO, **({"baseline ": args.baseline.resolve()} if args.baseline else {})}
    rows: dict[str, list[dict[str, float]]] = {"peer": []}
    lines: dict[str, str] = {}
    splits: dict[str, str] = {}
    loads = [load_average()]
    with tempfile.TemporaryDirectory(prefix="sidecar-first-") as tmp:
        root = Path(tmp)
        model_dir = whisper_base_dir(root / "shared")
        whisper_base_int8_dir(root / "shared")  # the CPU's copy, beside it: as after a first run
        (root / "clips").mkdir()
        video = mux(args.file.resolve(), root / "clips" / f"{args.file.stem}.mp4")
        second = mux(args.second.resolve(), root / "clips" / f"{args.second.stem}.mp4")
        log = root / "runs.log"
        for n in range(args.repeat):
            found, split = run_peer_once(video, model_dir, site, root / f"peer{n}", args.peer, log)
            rows["peer"].append(found)
            splits["whisper-ctranslate2"] = split.render()
            for k, (prefix, checkout) in enumerate(sides.items()):
                found, times, split = run_cli_once(video, model_dir, root / f"cli{k}-{n}", args.target_lang, log, checkout)
                splits[f"{prefix}cli"] = split.render().replace("sidecar:", f"{prefix}sidecar add + run:", 1)
                rows.setdefault(f"{prefix}sidecar {'add + run' if prefix else 'run FILE'}", []).append(found)
                lines[f"{prefix}cli"] = timeline(times, min(t.started for t in times) - found["first_stage"])
                app_runs = run_app_once([video, second], model_dir, root / f"app{k}-{n}", args.target_lang, checkout)
                rows.setdefault(f"{prefix}app: engine running", []).append(app_runs[0]["times"])
                rows.setdefault(f"{prefix}app: second drop*", []).append(app_runs[1]["times"])
                lines[f"{prefix}app"] = app_runs[0]["timeline"]
                shutil.rmtree(root / f"cli{k}-{n}", ignore_errors=True)
                shutil.rmtree(root / f"app{k}-{n}", ignore_errors=True)
            loads.append(load_average())
            print(f"run {n + 1}: " + ", ".join(f"{way} {r[-1]['srt']:.2f} s" for way, r in rows.items())
                  + f" (load {loads[-1]})", flush=True)

    def med(way: str, key: str) -> str:
        values = [r[key] for r in rows[way] if key in r]
        return f"{statistics.median(values):.2f}" if values else "-"

    peer = statistics.median(r["srt"] for r in rows["peer"])
    print(f"\n{args.file.name} as a video, {args.repeat} alternating runs, peer {args.peer}; load average "
          f"(1/5/15 min) before and after each round: {' | '.join(loads)}\n"
          f"{'median seconds after add':34}{'add':>6}{'1st stage':>10}{'subtitle':>9}{'done':>7}{'/ peer':>8}"
          f"{'(range)':>12}{'CPU s':>7}")
    print(f"{'whisper-ctranslate2':34}{'':>6}{'':>10}{peer:9.2f}{peer:7.2f}{1.0:8.2f}{'':>12}{med('peer', 'cpu'):>7}")
    for way, runs in rows.items():
        if way == "peer":
            continue
        srt = statistics.median(r["srt"] for r in runs)
        done = "exit" if "exit" in runs[0] else "idle"
        ratios = [r["srt"] / p["srt"] for r, p in zip(runs, rows["peer"])]
        print(f"{way:34}{med(way, 'add'):>6}{med(way, 'first_stage'):>10}{srt:9.2f}{med(way, done):>7}{srt / peer:8.2f}"
              f"{f'{min(ratios):.2f}-{max(ratios):.2f}':>12}{med(way, 'cpu'):>7}")
    print(f"* {args.second.name}, dropped when the first is done (its ratio is to the peer on the first file)")
    for label, line in lines.items():
        print(f"{label} timeline (last run): {line}")
    for split in splits.values():
        print(f"\n(last run) {split}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
