"""Running the real video pipeline in tests, and reading what it recorded.

The pipeline is the product's own (``default_pipelines``) with real models; only the
engine timings are shortened. Stage outputs and checkpoints are read straight from
the store, because that is what a resumed or re-added job builds on.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

import pysubs2
from sqlalchemy import select

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.stage import Pipeline
from app.pipelines import default_pipelines
from app.ml.model_choice import models_use
from app.settings import Settings
from app.store import Store
from app.store.database import loads
from app.store.records import ItemView, JobSummary
from app.store.tables import items, stages

#: Short polls, but a lease long enough for two busy cores shared with model processes.
CONFIG = EngineConfig(workers=2, lease_seconds=20.0, backoff_base=0.05, backoff_cap=0.2, poll_interval=0.1,
                      progress_interval=0.0)

#: How Whisper may write each spoken number after "Sentence" (homophones included: a resume
#: point right before "Sentence two." sometimes yields "Sentence to my grandmother…").
_NUMBERS = ["1|one|won", "2|two|to|too", "3|three", "4|four|for", "5|five", "6|six", "7|seven", "8|eight|ate",
            "9|nine", "10|ten"]


def options(target_lang: str, kind: str = "video", **extra: Any) -> JobOptions:
    return JobOptions(**{"source_lang": "", **extra}, kind=kind, target_lang=target_lang)


#: The translator these e2e tests exercise the LLM path with: the bundled Gemma, chosen by name as a person would
#: (since issue 34 the default is the OPUS-MT package of each pair, of which only zh→en is reachable here).
LLM_TRANSLATOR = "gemma3-270m"


def library(data_dir: Path, pipelines: Mapping[str, Pipeline] | None = None,
            translator: str | None = LLM_TRANSLATOR) -> Library:
    """A library in ``data_dir``; ``translator`` is chosen in its model manager first (None: the default, OPUS-MT)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    if translator is not None:
        models_use(data_dir, translator)
    return Library(data_dir, pipelines or default_pipelines(data_dir, Settings(target_lang="en")), CONFIG)


def run_folder(lib: Library, folder: Path, target_lang: str, kind: str = "video", **extra: Any) -> JobSummary:
    job = lib.add(folder, options(target_lang, kind, **extra))
    lib.start()
    lib.run_until_idle()
    return lib.status(job.id)[0]


@dataclass
class FolderRun:
    """What one job over a folder left in the store, read before its library closed (the files stay in ``folder``)."""

    folder: Path
    data_dir: Path
    job: JobSummary
    items: dict[str, ItemView]
    transcripts: dict[str, dict[str, Any]]
    translations: dict[str, dict[str, Any]]
    loads: dict[str, int]


def run_and_read(lib: Library, folder: Path, target_lang: str, **extra: Any) -> FolderRun:
    """:func:`run_folder`, then the job's items and its transcribe and translate outputs by file name."""
    job = run_folder(lib, folder, target_lang, **extra)
    return FolderRun(folder, lib.data_dir, job, {Path(i.path).name: i for i in lib.items(job.id)},
                     {k: v["output"] for k, v in stage_rows(lib.store, "transcribe").items()},
                     {k: v["output"] for k, v in stage_rows(lib.store, "translate").items()}, lib.model_loads())


def folder_of(root: Path, clips: Mapping[str, Path]) -> Path:
    """A fresh folder holding copies of ``clips`` under the given names."""
    root.mkdir(parents=True, exist_ok=True)
    for name, src in clips.items():
        shutil.copyfile(src, root / name)
    return root


def stage_rows(store: Store, name: str) -> dict[str, dict[str, Any]]:
    """``{file name: {status, output, partial, error_code}}`` of one stage, latest revision per path."""
    with store.db.read() as conn:
        rows = conn.execute(
            select(items.c.path, stages.c.status, stages.c.output, stages.c.partial, stages.c.error_code)
            .join(items, items.c.id == stages.c.item_id).where(stages.c.name == name).order_by(stages.c.id)
        ).all()
    return {Path(r.path).name: {"status": r.status, "output": loads(r.output), "partial": loads(r.partial),
                                "error_code": r.error_code} for r in rows}


def wait_for(probe: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``probe`` until it returns something truthy (data, not time, decides)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def assert_loads_everywhere(path: Path) -> pysubs2.SSAFile:
    """The file parses in pysubs2 with events, and ffmpeg decodes it without a single complaint."""
    subs = pysubs2.load(str(path), encoding="utf-8")
    assert len(subs) > 0, f"{path.name} has no events"
    base = ["ffmpeg", "-v", "error", "-nostdin", "-i", str(path), "-map", "0", "-c:s", "ass"]
    proc = subprocess.run(base + ["-f", "null", "-"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr.strip() == "", f"ffmpeg on {path.name}: {proc.stderr}"
    # ffmpeg sees every cue, not just a parsable header.
    proc = subprocess.run(base + ["-f", "ass", "-"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.count("\nDialogue:") == len(subs), proc.stderr
    return subs


#: What the bilingual ASS puts between a translation and its original (app.media.subtitles).
ORIGINAL_MARK = r"\N{\rOriginal}"


def assert_laid_out(transcript: pysubs2.SSAFile, translated: pysubs2.SSAFile) -> None:
    """A translation on its transcript's time (issue 37): at least a cue per transcript cue (one too long for two
    lines is two), in order, two frames apart, none before the speech by more than half a second."""
    assert len(translated) >= len(transcript)
    assert all(b.start - a.end >= 80 for a, b in zip(translated, translated[1:])), "cues overlap or touch"
    assert translated[0].start >= transcript[0].start - 500


def translation_by_cue(transcript: pysubs2.SSAFile, translated: pysubs2.SSAFile,
                       bilingual: pysubs2.SSAFile) -> list[list[pysubs2.SSAEvent]]:
    """The translated SRT's cues grouped by the transcript cue they translate, as the bilingual ASS pairs them
    (it holds the SRT's cues at their times, each with its whole original under it, or the original alone where
    the translation kept it); each group starts at most half a second before its speech."""
    assert_laid_out(transcript, translated)
    assert [(e.start, e.end) for e in bilingual] == [(e.start, e.end) for e in translated]
    originals = [e.plaintext.replace("\n", " ") for e in transcript]
    groups: list[list[pysubs2.SSAEvent]] = [[] for _ in transcript]
    k = 0
    for srt, ass in zip(translated, bilingual):
        top, mark, bottom = ass.text.partition(ORIGINAL_MARK)
        original = (bottom if mark else top).replace(r"\N", " ")
        # the next transcript cue (its own text may repeat this one's: then its time decides)
        while k < len(originals) and (originals[k] != original or groups[k] and k + 1 < len(originals)
                                      and originals[k + 1] == original and srt.start >= transcript[k + 1].start - 500):
            assert groups[k], f"transcript cue {k + 1} has no translation: {originals[k]!r}"
            k += 1
        assert k < len(originals), f"{ass.text!r} pairs with no transcript cue"
        groups[k].append(srt)
    assert all(groups), "a transcript cue has no translation"
    assert all(g[0].start >= cue.start - 500 for g, cue in zip(groups, transcript))
    return groups


# One word of each numbered sentence that Whisper hears reliably: when the number itself
# comes out as another word ("Sentence-free", "Sentence iron"), the sentence is found by it.
_SENTENCE_WORDS = ["submarine", "chocolate", "library", "elephant", "tomato", "london", "egypt", "guitar", "snowman",
                   "listening"]


def sentence_positions(text: str, count: int = 10) -> list[list[int]]:
    """Where each numbered sentence ("Sentence one"/"Sentence 1", …) starts in ``text``.

    A sentence whose number was misheard is found by its own key word instead, so a
    missing or repeated sentence still shows as zero or two positions.
    """
    lowered = " ".join(text.lower().split())
    positions = []
    for n in range(1, count + 1):
        found = [m.start() for m in re.finditer(rf"\bsentence[,-]? ?(?:{_NUMBERS[n - 1]})\b", lowered)]
        positions.append(found or [m.start() for m in re.finditer(rf"\b{_SENTENCE_WORDS[n - 1]}", lowered)])
    return positions


def assert_every_sentence_once_in_order(cues: list[dict[str, Any]]) -> None:
    text = " ".join(c["text"] for c in cues)
    positions = sentence_positions(text)
    assert all(len(p) == 1 for p in positions), f"sentences not exactly once: {positions} in {text!r}"
    firsts = [p[0] for p in positions]
    assert firsts == sorted(firsts), f"sentences out of order in {text!r}"


def assert_monotonic(cues: list[dict[str, Any]], duration_s: float) -> None:
    previous_end = 0
    for cue in cues:
        assert previous_end <= cue["start_ms"] < cue["end_ms"] <= duration_s * 1000 + 1, cues
        previous_end = cue["end_ms"]
