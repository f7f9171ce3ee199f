"""A person's edits to a finished video's subtitles: read the placed files, split, merge, shift, render again.

The files next to the video are the truth here, not the stored stage results: the
person may have edited them before (with Sidecar or another editor), and what they
see in the editor must be what a player shows. The translation SRT lies on the
transcript's timings (a translation too long for its cue as two cues on that cue's
time), so each transcript cue is read with its translation; files with as many cues are
paired by index (timings drifted apart by an edit elsewhere keep their pairs, the
transcript's timing winning). Rendering goes through
the same renderers the pipeline uses, so an edited file looks like a Sidecar file.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Sequence

import pysubs2

from app.media.cues import Cue, join_fragments
from app.media.subtitles import render_bilingual_ass, render_transcript_srt, render_transcript_text, render_translation_srt

MIN_CUE_MS = 200  # a split never leaves a cue shorter than a blink


@dataclass(frozen=True)
class EditCue:
    start_ms: int
    end_ms: int
    original: str
    translation: str | None = None  # None: the video has no translation
    speaker: str | None = None  # who says it, by name ("Speaker 2" until the person renames them); None: no labels


def _srt_events(data: bytes) -> list[pysubs2.SSAEvent]:
    subs = pysubs2.SSAFile.from_string(data.decode("utf-8-sig"), format_="srt")
    return [e for e in subs.events if not e.is_comment]


def _plain(event: pysubs2.SSAEvent) -> str:
    return event.plaintext.replace("\uff5b", "{").replace("\uff5d", "}").replace("\uff3c", "\\")


def _translations_by_cue(originals: Sequence[pysubs2.SSAEvent], translated: Sequence[pysubs2.SSAEvent]) -> list[str]:
    """Each transcript cue's translation, found by time (by index where times drifted apart and the counts agree).

    A translation too long for its cue is written as two cues on that cue's time
    (:mod:`app.media.translation_timing`), so the files can differ in count: each translated
    cue belongs to the transcript cue it overlaps most (the nearest when none), and a cue's
    parts are joined again into the one text the person edits. Files edited elsewhere whose
    timings drifted (a cue left with no translation by time) keep their pairs by index.
    """
    parts: list[list[str]] = [[] for _ in originals]
    for event in translated:
        if not originals:
            break
        overlaps = [min(event.end, o.end) - max(event.start, o.start) for o in originals]
        best = max(range(len(originals)), key=lambda i: (overlaps[i], -abs(originals[i].start - event.start)))
        if overlaps[best] <= 0:
            best = min(range(len(originals)), key=lambda i: abs(originals[i].start - event.start))
        parts[best].append(_plain(event))
    if len(translated) == len(originals) and not all(parts):
        return [_plain(event) for event in translated]
    return ["" if not texts else texts[0] if len(texts) == 1 else join_fragments(line for text in texts for line in text.split("\n"))
            for texts in parts]


def read_cues(transcript: bytes, translation: bytes | None = None) -> list[EditCue]:
    """The cues of a transcript SRT, each with its text from the translation SRT when there is one."""
    originals = _srt_events(transcript)
    texts = _translations_by_cue(originals, _srt_events(translation)) if translation is not None else None
    return [EditCue(int(event.start), int(event.end), _plain(event), texts[i] if texts is not None else None)
            for i, event in enumerate(originals)]


def split_cue(cues: Sequence[EditCue], index: int, at_ms: int | None = None) -> list[EditCue]:
    """Two cues from one, at ``at_ms`` (default: the middle); the text is split at the word nearest the same share."""
    cue = cues[index]
    at = (cue.start_ms + cue.end_ms) // 2 if at_ms is None else at_ms
    if not cue.start_ms + MIN_CUE_MS <= at <= cue.end_ms - MIN_CUE_MS:
        raise ValueError("the cue is too short to split there")
    share = (at - cue.start_ms) / (cue.end_ms - cue.start_ms)

    def halves(text: str | None) -> tuple[str | None, str | None]:
        if text is None:
            return None, None
        words = text.split()
        cut = max(1, min(len(words) - 1, round(len(words) * share))) if len(words) > 1 else len(words)
        return " ".join(words[:cut]), " ".join(words[cut:])

    first_original, second_original = halves(cue.original)
    first_translation, second_translation = halves(cue.translation)
    first = EditCue(cue.start_ms, at, first_original or "", first_translation, cue.speaker)
    second = EditCue(at, cue.end_ms, second_original or "", second_translation, cue.speaker)
    return [*cues[:index], first, second, *cues[index + 1:]]


def merge_cues(cues: Sequence[EditCue], index: int) -> list[EditCue]:
    """Cue ``index`` and the next one become one cue spanning both."""
    if not 0 <= index < len(cues) - 1:
        raise ValueError("there is no next cue to merge with")
    a, b = cues[index], cues[index + 1]

    def joined(x: str | None, y: str | None) -> str | None:
        if x is None and y is None:
            return None
        return " ".join(part for part in (x or "", y or "") if part)

    merged = EditCue(a.start_ms, max(a.end_ms, b.end_ms), joined(a.original, b.original) or "",
                     joined(a.translation, b.translation), a.speaker or b.speaker)
    return [*cues[:index], merged, *cues[index + 2:]]


def shift_cues(cues: Sequence[EditCue], delta_ms: int, indexes: Sequence[int] | None = None) -> list[EditCue]:
    """Move the chosen cues (default: all) by ``delta_ms``; nothing moves before 0."""
    chosen = set(range(len(cues)) if indexes is None else indexes)
    out = []
    for i, cue in enumerate(cues):
        if i in chosen:
            move = max(delta_ms, -cue.start_ms)
            cue = replace(cue, start_ms=cue.start_ms + move, end_ms=cue.end_ms + move)
        out.append(cue)
    return out


def rename_speaker(cues: Sequence[EditCue], old: str, new: str) -> list[EditCue]:
    """Every cue of speaker ``old`` said by ``new`` instead (a name already used merges the two)."""
    name = " ".join(new.split())
    if not name:
        raise ValueError("a speaker needs a name")
    return [replace(c, speaker=name) if c.speaker == old else c for c in cues]


def speakers_by_time(cues: Sequence[EditCue], spans: Sequence[tuple[int, int, str]]) -> list[str | None]:
    """Each cue's speaker from timed labels (``spans``: start ms, end ms, name): the one overlapping it most."""
    names: list[str | None] = []
    for cue in cues:
        best, most = None, 0
        for start, end, name in spans:
            overlap = min(cue.end_ms, end) - max(cue.start_ms, start)
            if overlap > most:
                best, most = name, overlap
        names.append(best)
    return names


def render_edited(cues: Sequence[EditCue], roles: Sequence[str]) -> Mapping[str, bytes]:
    """The files for ``roles`` (transcript / translation / bilingual / transcript_text), rendered as the pipeline
    renders them; speakers' names go where the files carry them (the bilingual ASS's styles, the text's labels)."""
    timed = [Cue(c.start_ms, c.end_ms, c.original) for c in cues]
    texts = [c.translation or "" for c in cues]
    speakers = [c.speaker for c in cues] if any(c.speaker for c in cues) else None
    renderers = {"transcript": lambda: render_transcript_srt(timed),
                 "translation": lambda: render_translation_srt(timed, texts),
                 "bilingual": lambda: render_bilingual_ass(timed, texts, speakers=speakers),
                 "transcript_text": lambda: render_transcript_text(timed, speakers)}
    return {role: renderers[role]() for role in roles if role in renderers}
