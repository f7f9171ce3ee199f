"""Speaker labels for a transcript, when the job asks for them (the ``speakers`` setting).

Why a module of its own: labelling needs the audio, the installed speaker model and the
transcript's words, and gives each cue its speakers; the transcribe stage only calls
:func:`speaker_pieces` and :func:`label_cues`. Off (the default) changes nothing, so jobs
without labels keep the transcripts they had.

A cue two people share is written as a dialogue (each speaker's words on a line of its own,
after a dash), as subtitlers write a quick exchange; when either part would not fit a
line, the cue keeps its text and is labelled with the speaker heard longest.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from app.engine.job_options import JobOptions
from app.errors import Code
from app.media.craft import char_count
from app.media.cues import CueOptions, join_fragments
from app.media.speakers import Piece, VoiceEncoder, label_speakers, longest_speaker
from app.ml.catalogue import RESEMBLYZER_WHEEL, load_catalogue
from app.ml.model_state import install_dir, read_manifest

log = logging.getLogger(__name__)

OFF = "off"
AUTO = "auto"
#: Bump when labels change for the same audio and model.
LABEL_VERSION = 1


def wanted(options: JobOptions) -> int | None:
    """None when the job wants no labels; 0 to count speakers automatically; else the number given."""
    value = options.speakers
    if value == OFF:
        return None
    return 0 if value == AUTO else int(value)


def installed_model(data_dir: Path) -> tuple[str, Path] | None:
    """(identity, wheel) of the installed speaker model, or None when none is installed."""
    for entry in load_catalogue().values():
        if entry.role != "speakers" or entry.format != RESEMBLYZER_WHEEL or not entry.files:
            continue
        manifest = read_manifest(data_dir, entry.name)
        if manifest is not None:
            digest = manifest.files.get(entry.files[0].path)
            return f"{entry.name}:{digest.sha256[:12] if digest else ''}", install_dir(data_dir, entry.name) / entry.files[0].path
    return None


def fingerprint(data_dir: Path, options: JobOptions) -> dict[str, Any]:
    """What the transcript's labels depend on; empty when the job wants none (older transcripts stay valid)."""
    count = wanted(options)
    if count is None:
        return {}
    model = installed_model(data_dir)
    return {"speakers": count, "speaker_model": model[0] if model else None, "speaker_labels": LABEL_VERSION}


@lru_cache(maxsize=2)
def _encoder(wheel: str) -> VoiceEncoder:
    # Imported here: the encoder pulls in faster-whisper's feature code, which a run without labels never needs.
    from app.ml.speaker_encoder import SpeakerEncoder

    return SpeakerEncoder.from_wheel(Path(wheel))


def speaker_pieces(data_dir: Path, options: JobOptions, samples: np.ndarray,
                   segments: Sequence[Mapping[str, Any]]) -> list[Piece] | None:
    """Who speaks when over the segments' speech; None when the job wants no labels or no model is installed."""
    count = wanted(options)
    model = installed_model(data_dir) if count is not None else None
    if count is None or model is None:
        return None
    stretches = [(float(s["start"]), float(s["end"])) for s in segments]
    return label_speakers(samples, stretches, _encoder(str(model[1])), count or None)


def _word_groups(words: Sequence[Mapping[str, Any]], pieces: Sequence[Piece]) -> list[tuple[int, str]]:
    """The words as runs of one speaker each: (speaker, text)."""
    groups: list[tuple[int, list[str]]] = []
    for word in words:
        middle = (float(word["start"]) + float(word["end"])) / 2
        found = longest_speaker(pieces, middle - 0.05, middle + 0.05)
        speaker = found if found is not None else (groups[-1][0] if groups else 0)
        if groups and groups[-1][0] == speaker:
            groups[-1][1].append(str(word["word"]))
        else:
            groups.append((speaker, [str(word["word"])]))
    return [(speaker, join_fragments(parts)) for speaker, parts in groups]


def label_cues(cues: list[dict[str, Any]], segments: Sequence[Mapping[str, Any]], pieces: Sequence[Piece],
               language: str | None, options: CueOptions) -> list[dict[str, Any]]:
    """``cues`` each with its ``speakers`` (in order of speech); a cue two speakers share becomes a dialogue."""
    words = [w for s in segments for w in s.get("words") or []]
    labelled = []
    for cue in cues:
        start, end = cue["start_ms"] / 1000, cue["end_ms"] / 1000
        inside = [w for w in words if start <= (float(w["start"]) + float(w["end"])) / 2 < end]
        groups = [(k, text) for k, text in _word_groups(inside, pieces) if text] if inside else []
        line_chars = options.rules(cue["text"], cue.get("language") or language).line_chars
        if len(groups) == 2 and groups[0][0] != groups[1][0] and all(char_count(f"- {t}") <= line_chars for _, t in groups):
            labelled.append({**cue, "text": "\n".join(f"- {text}" for _, text in groups),
                             "speakers": [groups[0][0], groups[1][0]]})
            continue
        longest = longest_speaker(pieces, start, end)
        labelled.append({**cue, "speakers": [longest]} if longest is not None else dict(cue))
    return labelled


def unavailable_note() -> str:
    """The item's note when labels were asked for and no speaker model is installed."""
    log.info("speaker labels were asked for, but no speaker model is installed (sidecar models install speakers-ge2e)")
    return Code.MODEL_MISSING.value
