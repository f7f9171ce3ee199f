"""Drop what Whisper invents on silence and music (SPEC §7).

Whisper fills quiet or musical stretches with plausible text ("Thank you.",
"Subtitles by ...", one line looped many times). The signals are the ones Whisper
itself reports per segment: a high no-speech probability together with a low average
log-probability, a high gzip compression ratio (looping text compresses well), and
the same line repeated back to back. Dropping here, before cues are built, is what
lets a silent video end as "no speech found" instead of an empty or fake subtitle.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

NO_SPEECH_THRESHOLD = 0.6
LOGPROB_THRESHOLD = -1.0
COMPRESSION_RATIO_THRESHOLD = 2.4
MAX_CONSECUTIVE_REPEATS = 3


@dataclass(frozen=True)
class FilterResult:
    """Segments kept (in order) and, for the log and tests, why the others went."""

    kept: list[dict[str, Any]]
    dropped: list[tuple[int, str]] = field(default_factory=list)

    @property
    def no_speech(self) -> bool:
        """True when nothing usable is left: the item ends as "no speech found"."""
        return not self.kept


def _normalise(text: str) -> str:
    """Compare lines by their words only: case, punctuation and spacing differ in loops."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[\W_]+", " ", text).strip()


def drop_reason(
    segment: Mapping[str, Any],
    *,
    no_speech_threshold: float = NO_SPEECH_THRESHOLD,
    logprob_threshold: float = LOGPROB_THRESHOLD,
    compression_ratio_threshold: float = COMPRESSION_RATIO_THRESHOLD,
) -> str | None:
    """Why a single segment is not speech, or None when it may be kept.

    No-speech needs both signals (as in Whisper's own decoder): a confident segment
    with a high no-speech probability is usually real speech over noise.
    """
    if not _normalise(str(segment.get("text", ""))):
        return "empty"
    no_speech = float(segment.get("no_speech_prob", 0.0) or 0.0)
    logprob = float(segment.get("avg_logprob", 0.0) or 0.0)
    if no_speech > no_speech_threshold and logprob < logprob_threshold:
        return "no_speech"
    if float(segment.get("compression_ratio", 0.0) or 0.0) > compression_ratio_threshold:
        return "compression_ratio"
    return None


def filter_segments(
    segments: Sequence[Mapping[str, Any]],
    *,
    no_speech_threshold: float = NO_SPEECH_THRESHOLD,
    logprob_threshold: float = LOGPROB_THRESHOLD,
    compression_ratio_threshold: float = COMPRESSION_RATIO_THRESHOLD,
    max_repeats: int = MAX_CONSECUTIVE_REPEATS,
) -> FilterResult:
    """Keep real speech; drop invented segments and whole runs of a repeated line.

    A run of ``max_repeats`` or more consecutive identical lines is dropped entirely
    (the first line of a loop is as invented as the rest); shorter runs are kept
    because people do say "No. No." Deterministic and order-preserving.
    """
    dropped: list[tuple[int, str]] = []
    candidates: list[tuple[int, Mapping[str, Any]]] = []
    for index, segment in enumerate(segments):
        reason = drop_reason(
            segment,
            no_speech_threshold=no_speech_threshold,
            logprob_threshold=logprob_threshold,
            compression_ratio_threshold=compression_ratio_threshold,
        )
        if reason:
            dropped.append((index, reason))
        else:
            candidates.append((index, segment))

    kept: list[dict[str, Any]] = []
    run_start = 0
    while run_start < len(candidates):
        key = _normalise(str(candidates[run_start][1].get("text", "")))
        run_end = run_start + 1
        while run_end < len(candidates) and _normalise(str(candidates[run_end][1].get("text", ""))) == key:
            run_end += 1
        run = candidates[run_start:run_end]
        if len(run) >= max_repeats:
            dropped.extend((index, "repeated") for index, _ in run)
        else:
            kept.extend(dict(segment) for _, segment in run)
        run_start = run_end
    dropped.sort()
    return FilterResult(kept=kept, dropped=dropped)
