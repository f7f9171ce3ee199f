"""The spoken language of a whole recording, by a vote over speech windows spread across it.

Whisper guesses the language from 30 s of audio. Left to itself that is the first 30 s
of speech: a cold open in another language, a theme song or a foreign-language
newsreel at the start of a film decides the language of every subtitle after it. So
when the person did not set the source language, the file is split into up to
:data:`MAX_WINDOWS` equal spans and in each the :data:`WINDOW_S` stretch with the most
sound (short-time energy) is handed to Whisper's language detector, which keeps only
what its VAD calls speech. Windows with too little speech abstain; the others cast a
soft vote, each giving its probability for every language it names, and the language
with the largest sum wins. Its probability is that sum over the windows that voted.
Windows are heard first, last, middle, then the rest (:func:`hearing_order`), and the
vote stops once the rest could not change the winner (each window adds at most 1 to
any language): a film in one language is decided after three windows, not five, and
the encoder passes saved are the vote's whole cost over bare Whisper. Hearing both
ends first means a recording that switches language once, anywhere between its first
and last windows, is caught by the first two windows disagreeing; two windows that
each heard a different language confidently (:func:`heard_languages`) make it a
mixed-language recording, told apart stretch by stretch (:mod:`app.media.language_stretches`).

Pure logic over an extracted ``.f32`` file and a ``detect`` callable (the model host's
``detect_language``): which model answers, and where it runs, is the caller's business.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from app.media.audio import SAMPLE_RATE, audio_duration

log = logging.getLogger(__name__)

#: How many windows at most (a feature film gets all of them; a 40 s clip one or two).
MAX_WINDOWS = 5
#: Whisper's own detection length: one encoder pass per window.
WINDOW_S = 30.0
#: A window whose VAD found less speech than this abstains.
MIN_SPEECH_S = 2.0
#: A window's language counts as heard (for a mixed-language recording) at this probability or more.
CONFIDENT = 0.7
#: Energy is measured on frames of this length (seconds).
_FRAME_S = 0.5
#: Frames read at once while measuring energy (10 minutes: bounded memory for a two-hour film).
_CHUNK_FRAMES = 1200

#: ``detect(start_s, duration_s)`` → ``{"language", "language_probability", "top": [(code, p)], "speech_s"}``.
Detect = Callable[[float, float], Mapping[str, Any]]


@dataclass(frozen=True)
class LanguageVote:
    """The winner, its probability (0..1), and each window's answer (kept in the transcript for a person to check)."""

    language: str | None
    probability: float
    windows: tuple[dict[str, Any], ...]


def _frame_energy(audio_path: Path) -> np.ndarray:
    """RMS of each :data:`_FRAME_S` frame, read chunk by chunk (never the whole film at once)."""
    frame = int(_FRAME_S * SAMPLE_RATE)
    samples = np.memmap(audio_path, dtype="<f4", mode="r")
    energy = []
    step = frame * _CHUNK_FRAMES
    for start in range(0, samples.size - frame + 1, step):
        chunk = np.asarray(samples[start:start + step], dtype=np.float32)
        whole = chunk.size // frame
        energy.append(np.sqrt(np.mean(np.square(chunk[:whole * frame].reshape(whole, frame)), axis=1)))
    return np.concatenate(energy) if energy else np.zeros(0, dtype=np.float32)


def speech_windows(audio_path: Path, max_windows: int = MAX_WINDOWS, window_s: float = WINDOW_S) -> list[tuple[float, float]]:
    """``(start_s, duration_s)`` of the windows to detect on: one per equal span of the file, at its loudest stretch.

    "Loudest" counts frames above a tenth of the file's typical loud level, so a
    window lands on sustained sound (speech, or music the detector's VAD then drops)
    rather than on silence.
    """
    duration = audio_duration(audio_path)
    if duration <= window_s:
        return [(0.0, duration)] if duration > 0 else []
    count = max(1, min(max_windows, math.floor(duration / window_s)))
    energy = _frame_energy(audio_path)
    level = float(np.percentile(energy, 90)) if energy.size else 0.0
    active = (energy > max(1e-4, level / 10)).astype(np.int32)
    frames_per_window = max(1, int(window_s / _FRAME_S))
    sums = np.convolve(active, np.ones(frames_per_window, dtype=np.int32), mode="valid")  # active frames per window start
    span = duration / count
    windows = []
    for k in range(count):
        first, last = math.ceil(k * span / _FRAME_S), int(((k + 1) * span - window_s) / _FRAME_S)
        last = max(first, min(last, sums.size - 1))
        best = first + int(np.argmax(sums[first:last + 1])) if first < sums.size else first
        start = min(best * _FRAME_S, duration - window_s)
        windows.append((round(start, 3), window_s))
    return windows


def _scores(answers: Sequence[Mapping[str, Any]]) -> tuple[dict[str, float], int]:
    """(language -> summed probability, number of windows that voted)."""
    scores: dict[str, float] = {}
    voters = 0
    for answer in answers:
        if float(answer.get("speech_s", 0.0)) < MIN_SPEECH_S or not answer.get("language"):
            continue
        voters += 1
        top = answer.get("top") or [(answer["language"], answer["language_probability"])]
        for code, p in top:
            scores[str(code)] = scores.get(str(code), 0.0) + float(p)
    return scores, voters


def decided(answers: Sequence[Mapping[str, Any]], remaining: int) -> bool:
    """True when ``remaining`` more windows could not change the winner: its lead exceeds what they can add."""
    ranked = sorted(_scores(answers)[0].values(), reverse=True)
    if not ranked:
        return False
    return ranked[0] - (ranked[1] if len(ranked) > 1 else 0.0) > remaining


def vote(answers: Sequence[Mapping[str, Any]]) -> LanguageVote:
    """The soft vote over the windows' answers (see the module docstring)."""
    scores, voters = _scores(answers)
    if not scores:
        return LanguageVote(None, 0.0, tuple(dict(a) for a in answers))
    winner = max(scores, key=lambda code: scores[code])
    return LanguageVote(winner, scores[winner] / voters, tuple(dict(a) for a in answers))


def hearing_order(count: int) -> list[int]:
    """Window indexes in the order they are heard: the first, the last, then each time the one farthest from those heard.

    One language costs the same as in order (the early stop needs three agreeing
    windows either way); a single switch of language between the ends shows at once.
    """
    order = [0] if count else []
    while len(order) < count:
        order.append(max((k for k in range(count) if k not in order), key=lambda k: (min(abs(k - h) for h in order), -k)))
    return order


def heard_languages(result: LanguageVote) -> tuple[str, ...]:
    """The languages some voting window heard with :data:`CONFIDENT` probability, most probable first.

    Two or more: the recording speaks more than one language (a window with too little
    speech, or an unsure one, never makes a recording mixed).
    """
    best: dict[str, float] = {}
    for answer in result.windows:
        code, p = answer.get("language"), float(answer.get("language_probability") or 0.0)
        if code and p >= CONFIDENT and float(answer.get("speech_s", 0.0)) >= MIN_SPEECH_S:
            best[str(code)] = max(best.get(str(code), 0.0), p)
    return tuple(sorted(best, key=lambda code: -best[code]))


def detect_language(audio_path: Path, detect: Detect) -> LanguageVote:
    """Detect on :func:`speech_windows` in :func:`hearing_order` and :func:`vote`; language None when no window held speech."""
    answers: list[dict[str, Any]] = []
    windows = speech_windows(audio_path)
    for n, index in enumerate(hearing_order(len(windows))):
        if decided(answers, len(windows) - n):
            break
        start, length = windows[index]
        answer = dict(detect(start, length))
        answers.append({"start": start, "language": answer.get("language"),
                        "language_probability": round(float(answer.get("language_probability") or 0.0), 4),
                        "speech_s": round(float(answer.get("speech_s") or 0.0), 2),
                        "top": [(str(c), round(float(p), 4)) for c, p in answer.get("top") or []]})
    result = vote(answers)
    log.info("%s: language %s (%.2f) from %d window(s): %s", Path(audio_path).name, result.language,
             result.probability, len(answers), [(a["start"], a["language"], a["speech_s"]) for a in answers])
    return result


__all__ = ["CONFIDENT", "LanguageVote", "decided", "detect_language", "heard_languages", "hearing_order",
           "speech_windows", "vote"]
