"""Who speaks when: speaker labels for a transcript's stretches of speech.

Why this shape: Whisper's segments already say where speech is, so there is no separate
voice-activity pass. Each stretch is cut into pieces of at most :data:`PIECE_S` (a turn
change inside a long segment then costs at most one piece), each piece gets the mean of
the voice vectors (:mod:`app.ml.speaker_encoder`) of its 1.6 s windows, and the pieces
are grouped by average-linkage clustering on cosine distance: stopped at
:data:`THRESHOLD`, or at the number of speakers the person gave. Average linkage leaves
a few stray pieces (a cough, a laugh, crosstalk) as clusters of their own; a cluster
with under :data:`MIN_SHARE` of the speech is folded into the nearest voice, and every
piece then goes to the voice whose centre it is nearest, twice, so one early merge
cannot decide a whole recording. Speakers are numbered by first appearance.

Everything is a pure function of the audio and the stretches: the same input always
labels the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

SAMPLE_RATE = 16000
#: The longest piece that gets one label (a turn change inside a segment costs at most this).
PIECE_S = 3.0
#: Voice windows every 0.4 s inside a piece (the encoder hears 1.6 s at a time).
STEP_S = 0.4
#: Cosine distance at which two groups of pieces stop being one voice (chosen on bench/diarization.py's tuning half).
THRESHOLD = 0.3
#: A voice with less of the speech than this is a stray and joins the nearest voice (automatic count only).
MIN_SHARE = 0.1
_REASSIGN_ROUNDS = 2


class VoiceEncoder(Protocol):
    window_samples: int

    def embed_windows(self, samples: np.ndarray, starts: list[int]) -> np.ndarray: ...


@dataclass(frozen=True)
class Piece:
    """A stretch of speech that gets one speaker: seconds, and the 1-based speaker."""

    start_s: float
    end_s: float
    speaker: int


def pieces_of(stretches: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The stretches cut into equal pieces of at most :data:`PIECE_S` (empty stretches dropped)."""
    out: list[tuple[float, float]] = []
    for start, end in stretches:
        if end <= start:
            continue
        count = max(1, int(np.ceil((end - start) / PIECE_S - 1e-9)))
        edges = np.linspace(start, end, count + 1)
        out.extend((float(a), float(b)) for a, b in zip(edges[:-1], edges[1:]))
    return out


def _window_starts(start: int, end: int, window: int, step: int, total: int) -> list[int]:
    """Window offsets covering ``[start, end)``; a piece shorter than a window gets one centred on it."""
    if end - start <= window:
        return [max(0, min(total - window, (start + end) // 2 - window // 2))]
    count = max(2, (end - start - window) // step + 1)
    return [int(s) for s in np.linspace(start, end - window, count)]


def voice_vectors(samples: np.ndarray, pieces: Sequence[tuple[float, float]], encoder: VoiceEncoder) -> np.ndarray:
    """One unit voice vector per piece: the mean of its windows' vectors."""
    window, step = encoder.window_samples, int(STEP_S * SAMPLE_RATE)
    starts: list[int] = []
    owner: list[int] = []
    for index, (a, b) in enumerate(pieces):
        found = _window_starts(int(a * SAMPLE_RATE), int(b * SAMPLE_RATE), window, step, samples.size)
        starts.extend(found)
        owner.extend([index] * len(found))
    vectors = encoder.embed_windows(samples, starts)
    owners = np.asarray(owner)
    means = np.stack([vectors[owners == i].mean(axis=0) for i in range(len(pieces))])
    return means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-9)


def cluster_voices(vectors: np.ndarray, weights: np.ndarray, count: int | None = None,
                   threshold: float = THRESHOLD) -> np.ndarray:
    """0-based voice per row of ``vectors``, weighted by ``weights`` (seconds), numbered by first appearance."""
    if len(vectors) < 2 or count == 1:
        return np.zeros(len(vectors), dtype=int)
    # Imported here: scipy costs 0.2 s, and every run imports this module while few jobs label speakers.
    from scipy.cluster.hierarchy import fcluster, linkage

    tree = linkage(vectors, method="average", metric="cosine")
    labels = fcluster(tree, count, "maxclust") if count else fcluster(tree, threshold, "distance")
    for _ in range(_REASSIGN_ROUNDS):
        kept = _kept_voices(labels, weights, 0.0 if count else MIN_SHARE)
        centres = np.stack([(vectors[labels == k] * weights[labels == k, None]).sum(axis=0) for k in kept])
        centres /= np.maximum(np.linalg.norm(centres, axis=1, keepdims=True), 1e-9)
        labels = np.asarray(kept)[np.argmax(vectors @ centres.T, axis=1)]
    order = {label: n for n, label in enumerate(dict.fromkeys(labels.tolist()))}
    return np.array([order[label] for label in labels.tolist()], dtype=int)


def _kept_voices(labels: np.ndarray, weights: np.ndarray, min_share: float) -> list[int]:
    total = float(weights.sum()) or 1.0
    shares = {int(k): float(weights[labels == k].sum()) / total for k in np.unique(labels)}
    kept = [k for k, share in shares.items() if share >= min_share]
    return kept or [max(shares, key=lambda k: shares[k])]


def label_speakers(samples: np.ndarray, stretches: Sequence[tuple[float, float]], encoder: VoiceEncoder,
                   count: int | None = None, threshold: float = THRESHOLD) -> list[Piece]:
    """The stretches' pieces, each with its 1-based speaker; ``count`` fixes how many speakers there are."""
    pieces = pieces_of(stretches)
    if not pieces:
        return []
    vectors = voice_vectors(samples, pieces, encoder)
    weights = np.array([b - a for a, b in pieces])
    labels = cluster_voices(vectors, weights, count, threshold)
    return [Piece(a, b, int(label) + 1) for (a, b), label in zip(pieces, labels)]


def seconds_by_speaker(pieces: Sequence[Piece], start_s: float, end_s: float) -> dict[int, float]:
    """How long each speaker is heard in ``[start_s, end_s)``, in order of appearance."""
    heard: dict[int, float] = {}
    for piece in pieces:
        overlap = min(end_s, piece.end_s) - max(start_s, piece.start_s)
        if overlap > 0:
            heard[piece.speaker] = heard.get(piece.speaker, 0.0) + overlap
    return heard


def longest_speaker(pieces: Sequence[Piece], start_s: float, end_s: float) -> int | None:
    """The speaker heard longest in ``[start_s, end_s)``; None where no one is."""
    heard = seconds_by_speaker(pieces, start_s, end_s)
    return max(heard, key=lambda k: heard[k]) if heard else None
