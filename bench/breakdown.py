"""Where a run's time and memory went, per phase, per stage and per process: Sidecar beside whisper-ctranslate2.

Used by :mod:`bench.folder_vs_peer` and :mod:`bench.first_subtitle`. Both sides' process
trees are sampled while they run (:class:`bench.long_film.Tree`: each process's start,
peak resident set and CPU seconds over time), and each side's time is cut at instants it
reports itself:

- **whisper-ctranslate2** runs under :data:`PEER_CODE`, which prints when faster-whisper's
  model starts and ends loading: start-up (interpreter, imports) → model load →
  transcription (decoding the files, Whisper, writing the SRTs) until the process exits;
- **Sidecar**: ``add`` (its whole process); then ``run``: its start-up until the first
  stage starts (the store's ``started_at``), each model host from its process start to
  its ``model host … started`` log line (spawn, imports, model load: inside the first
  stage that asked for it), every stage from the store's stage times, and the engine's
  time outside any stage (claims, waiting, closing).

A process's CPU seconds between two instants come from its samples (linear between two).
A stage's CPU is what the processes serving it used while it ran, shared between the
stages running at that moment by overlap: the engine's process serves every stage, the
Whisper host ``transcribe``, the e5 host ``index_dialogue`` and ``translate``'s check.
Stages overlap (a CPU stage of one file beside the transcription of another), so their
wall seconds add up to more than the run's; the last row is the time no stage ran at all.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass, field

from bench.long_film import Tree
from bench.stage_split import StageTime

#: The peer's command (``python -c``): whisper-ctranslate2's own ``main`` with two marks on stderr around the model load.
PEER_CODE = """\
import sys, time
import faster_whisper
load = faster_whisper.WhisperModel.__init__
def marked(self, *args, **kwargs):
    print(f"BENCH-MARK imported {time.time()!r}", file=sys.stderr, flush=True)
    load(self, *args, **kwargs)
    print(f"BENCH-MARK loaded {time.time()!r}", file=sys.stderr, flush=True)
faster_whisper.WhisperModel.__init__ = marked
from whisper_ctranslate2.whisper_ctranslate2 import main
sys.exit(main())
"""

#: Which stages a model host serves (its CPU goes to them); the engine's own process serves every stage.
HOST_STAGES = {"whisper host": {"transcribe"}, "e5 host": {"index_dialogue", "translate"},
               "translator host": {"translate"}}
_HOST_READY = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) INFO app\.ml\.host: model host .* started \(pid (\d+)\)", re.M)


def peer_marks(log_text: str) -> dict[str, float]:
    """The instants :data:`PEER_CODE` printed (the last run's, when the log holds several)."""
    return {name: float(value) for name, value in re.findall(r"^BENCH-MARK (\w+) ([\d.]+)$", log_text, re.M)}


def hosts_ready(log_text: str) -> dict[int, float]:
    """Per model-host pid, when the engine logged it loaded (log times are local, to the millisecond)."""
    return {int(pid): time.mktime(time.strptime(stamp, "%Y-%m-%d %H:%M:%S")) + int(ms) / 1000
            for stamp, ms, pid in _HOST_READY.findall(log_text)}


@dataclass
class Row:
    """One line of a breakdown: a phase or stage, its wall seconds and the CPU seconds of each process in it."""

    label: str
    wall_s: float
    cpu_s: dict[str, float] = field(default_factory=dict)
    note: str = ""


@dataclass
class Breakdown:
    """A side's rows, and its processes' peak memory (MiB) and CPU seconds."""

    side: str
    rows: list[Row]
    processes: list[tuple[str, float, float]]

    def render(self) -> str:
        lines = [f"{self.side}: where the time went{'':18}{'wall s':>8}{'CPU s':>8}  CPU by process"]
        for row in self.rows:
            by = ", ".join(f"{name} {secs:.2f}" for name, secs in sorted(row.cpu_s.items(), key=lambda kv: -kv[1])
                           if secs >= 0.005)
            lines.append(f"  {row.label:44}{row.wall_s:8.2f}{sum(row.cpu_s.values()):8.2f}  {by}"
                         + (f"  ({row.note})" if row.note else ""))
        lines.append(f"  {'process':44}{'peak MiB':>8}{'CPU s':>8}")
        for name, mib, cpu in sorted(self.processes, key=lambda p: -p[1]):
            lines.append(f"  {name:44}{mib:8.0f}{cpu:8.2f}")
        return "\n".join(lines)


def _processes(tree: Tree) -> list[tuple[str, float, float]]:
    return [(tree.names.get(pid, f"process {pid}"), kb / 1024, tree.cpu_s.get(pid, 0.0)) for pid, kb in tree.peak_kb.items()
            if tree.names.get(pid) != "resource tracker"]


def _cpu(tree: Tree, pid: int, start: float, end: float) -> float:
    return max(0.0, tree.cpu_at(pid, end) - tree.cpu_at(pid, start))


def peer_breakdown(tree: Tree, began: float, ended: float, log_text: str) -> Breakdown:
    """whisper-ctranslate2's one process cut at its model load (:data:`PEER_CODE`'s marks)."""
    marks = peer_marks(log_text)
    pid = tree.root
    cuts = [("start-up: interpreter, imports", began, marks.get("imported", began)),
            ("model load", marks.get("imported", began), marks.get("loaded", began)),
            ("transcription: decode, Whisper, write SRTs", marks.get("loaded", began), ended)]
    rows = [Row(label, end - start, {tree.root_name: _cpu(tree, pid, start, end)}) for label, start, end in cuts]
    return Breakdown(tree.root_name, rows, _processes(tree))


def sidecar_breakdown(add: Tree, add_window: tuple[float, float], run: Tree, run_window: tuple[float, float],
                      times: list[StageTime], log_text: str) -> Breakdown:
    """Sidecar's ``add`` and ``run`` processes (``run``'s model hosts included), cut as the module says."""
    rows = [Row("add: scan, store (its process)", add_window[1] - add_window[0],
                {add.root_name: _cpu(add, add.root, *add_window)})]
    first = min((t.started for t in times), default=run_window[1])
    rows.append(Row("run: start-up before the first stage", first - run_window[0],
                    {run.root_name: _cpu(run, run.root, run_window[0], first)}))
    for pid, ready in sorted(hosts_ready(log_text).items(), key=lambda kv: kv[1]):
        if pid in run.started and run_window[0] <= ready <= run_window[1]:
            name = run.names.get(pid, f"process {pid}")
            rows.append(Row(f"{name}: spawn, imports, model load", ready - run.started[pid],
                            {name: _cpu(run, pid, run.started[pid], ready)}, note="inside the stage that asked for it"))
    rows += _stage_rows(run, run_window, times)
    return Breakdown("sidecar", rows, _processes(run) if add is run else _processes(add) + _processes(run))  # `run PATH`: one tree


def _stage_rows(run: Tree, run_window: tuple[float, float], times: list[StageTime]) -> list[Row]:
    """Per stage name: summed wall seconds and the CPU of its processes; then the engine's CPU outside every stage."""
    wall: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    order: dict[str, int] = {}
    for t in times:
        wall[t.name] += t.seconds
        count[t.name] += 1
        order.setdefault(t.name, t.idx)
    cpu: dict[str, dict[str, float]] = {name: defaultdict(float) for name in wall}
    outside = 0.0
    first = min((t.started for t in times), default=run_window[1])
    for pid, series in run.cpu_series.items():
        name = run.names.get(pid, f"process {pid}")
        serves = HOST_STAGES.get(name)
        points = [(run.started.get(pid, series[0][0]), 0.0), *series]
        for (t0, c0), (t1, c1) in zip(points, points[1:]):
            if c1 <= c0 or t1 <= t0:
                continue
            overlaps = {t.name + f"#{i}": max(0.0, min(t1, t.finished) - max(t0, t.started))
                        for i, t in enumerate(times) if serves is None or t.name in serves}
            covered = sum(overlaps.values())
            for key, part in overlaps.items():
                if part > 0:
                    cpu[key.split("#")[0]][name] += (c1 - c0) * part / covered * min(1.0, covered / (t1 - t0))
            if pid == run.root and t0 >= first:  # the engine between and after stages (before them: start-up)
                outside += (c1 - c0) * max(0.0, 1.0 - min(1.0, covered / (t1 - t0)))
    rows = [Row(f"{name} ({count[name]} run{'s' if count[name] > 1 else ''})", wall[name], dict(cpu[name]))
            for name in sorted(wall, key=lambda n: order[n])]
    rows.append(Row("run: no stage running (claims, waits, exit)", run_window[1] - first - _union_s(times),
                    {run.root_name: outside}))
    return rows


def _union_s(times: list[StageTime]) -> float:
    """Seconds during which at least one stage ran."""
    total, reach = 0.0, float("-inf")
    for t in sorted(times, key=lambda t: t.started):
        if t.finished > reach:
            total += t.finished - max(t.started, reach)
            reach = t.finished
    return total
