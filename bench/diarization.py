"""Speaker labels: diarization error rate on real recordings, and time per audio minute (issue 37).

    .venv/bin/python bench/diarization.py [--wheel Resemblyzer-0.1.4-py3-none-any.whl] [--thresholds 0.2,0.3,0.4]

Two kinds of real material, each split into a **tuning** half (the threshold in
:data:`app.media.speakers.THRESHOLD` was chosen on it) and a **held-out** half (reported):

- **meetings**: 30 s clips of the AMI corpus as pyannote.audio ships them for its own
  tests (``tests/data/speakers``: real far-field meetings, 1–4 speakers, overlapping
  speech, with their RTTM), and pyannote's own 30 s two-speaker sample;
- **conversations**: turns of 1.5–6 s cut from the real recordings of
  ``tests/data/real_speech`` (one speaker per file), 2, 3 and 4 voices taking turns with
  0.2–0.6 s between them; the reference is each turn's speech as the same VAD finds it.

Where speech is comes from faster-whisper's Silero VAD (the pipeline uses Whisper's own
segments, which follow the same VAD), so the table shows missed speech and false alarm
beside confusion: only confusion is the speaker labels' own error. Scoring is per 10 ms
frame over the whole file, no forgiveness collar, overlapped speech scored (a frame with
two reference speakers and one label counts one miss), speakers mapped one to one for
the most agreement.

pyannote's published DER (speaker-diarization-3.1, README of pyannote/pyannote-audio;
full test sets, no collar, overlap scored) is printed beside it for scale; those are
other files, so read them as the state of the art, not as a same-file comparison.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from faster_whisper.audio import decode_audio  # noqa: E402
from faster_whisper.vad import VadOptions, get_speech_timestamps  # noqa: E402

from app.media.speakers import THRESHOLD, label_speakers  # noqa: E402
from app.ml.speaker_encoder import SpeakerEncoder  # noqa: E402

SR = 16000
DATA = REPO / "tests/data/speakers"
SPEECH = REPO / "tests/data/real_speech"
TUNING_MEETINGS = ("trn03", "trn04", "trn05", "trn06", "trn09")
HELD_OUT_MEETINGS = ("sample", "dev00", "dev01", "tst00", "tst01")
#: Voices of each made conversation (files of tests/data/real_speech); the tuning one shares no voice with the rest.
TUNING_CONVERSATIONS = {"conv-tune-3": ("en_arctic_aew", "en_librispeech_1320", "en_ljspeech_2min")}
HELD_OUT_CONVERSATIONS = {
    "conv-2": ("en_arctic_axb", "en_librispeech_8230"),
    "conv-3": ("en_librispeech_3575", "de_thorsten", "en_librivox_clare"),
    "conv-4": ("en_jfk_inaugural", "en_arctic_axb", "en_librispeech_8230", "de_thorsten"),
}
PYANNOTE_PUBLISHED = "pyannote speaker-diarization-3.1 (published, no collar): AMI headset mix 18.8 %, AMI array1 22.4 %, DIHARD 3 21.7 %"

Segment = tuple[float, float, str]


@dataclass(frozen=True)
class Recording:
    name: str
    samples: np.ndarray
    reference: list[Segment]


def speech_spans(samples: np.ndarray) -> list[tuple[float, float]]:
    spans = get_speech_timestamps(samples, VadOptions(min_silence_duration_ms=300, speech_pad_ms=100))
    return [(s["start"] / SR, s["end"] / SR) for s in spans]


def meetings(names: Sequence[str]) -> list[Recording]:
    rows = [line.split() for line in (DATA / "reference.rttm").read_text().splitlines() if line.strip()]
    return [Recording(name, decode_audio(str(DATA / f"{name}.opus"), sampling_rate=SR),
                      [(float(r[3]), float(r[3]) + float(r[4]), r[7]) for r in rows if r[1] == name]) for name in names]


def conversation(name: str, voices: Sequence[str], seconds: float = 60.0) -> Recording:
    """Voices taking turns (a fixed random order and turn lengths), each turn the next part of that voice's file."""
    rng = np.random.default_rng(sum(map(ord, name)))
    audio = {v: decode_audio(str(SPEECH / f"{v}.opus"), sampling_rate=SR) for v in voices}
    read = {v: 0 for v in voices}
    parts: list[np.ndarray] = []
    reference: list[Segment] = []
    at, last = 0, None
    while at < seconds * SR:
        voice = str(rng.choice([v for v in voices if v != last]))
        length = int(rng.uniform(1.5, 6.0) * SR)
        source = audio[voice]
        if read[voice] + length > source.size:
            read[voice] = 0
        turn = source[read[voice]:read[voice] + length]
        read[voice] += length
        reference += [(at / SR + a, at / SR + b, voice) for a, b in speech_spans(turn)]
        gap = np.zeros(int(rng.uniform(0.2, 0.6) * SR), np.float32)
        parts += [turn, gap]
        at += turn.size + gap.size
        last = voice
    return Recording(name, np.concatenate(parts), reference)


def der(reference: Sequence[Segment], hypothesis: Sequence[Segment], seconds: float) -> tuple[float, float, float, float]:
    """(DER, missed, false alarm, confusion) as shares of the reference speech, per 10 ms frame."""
    frames = int(np.ceil(seconds * 100))
    ref_names = sorted({s for *_, s in reference})
    hyp_names = sorted({s for *_, s in hypothesis})
    ref = np.zeros((frames, len(ref_names)), bool)
    hyp = np.zeros((frames, max(1, len(hyp_names))), bool)
    for a, b, s in reference:
        ref[int(round(a * 100)):int(round(b * 100)), ref_names.index(s)] = True
    for a, b, s in hypothesis:
        hyp[int(round(a * 100)):int(round(b * 100)), hyp_names.index(s)] = True
    n_ref, n_hyp = ref.sum(axis=1), hyp.sum(axis=1)
    total = max(1, int(n_ref.sum()))
    agreement = ref.T.astype(int) @ hyp.astype(int)
    rows, cols = linear_sum_assignment(-agreement)
    correct = sum((ref[:, r] & hyp[:, c]).astype(int) for r, c in zip(rows, cols))
    missed = int(np.maximum(n_ref - n_hyp, 0).sum())
    false_alarm = int(np.maximum(n_hyp - n_ref, 0).sum())
    confusion = int((np.minimum(n_ref, n_hyp) - correct).sum())
    return (missed + false_alarm + confusion) / total, missed / total, false_alarm / total, confusion / total


def run(recordings: Sequence[Recording], encoder: SpeakerEncoder, threshold: float, label: str) -> list[float]:
    print(f"\n{label} (threshold {threshold})")
    print(f"| {'recording':14} | voices | found | DER | missed | false alarm | confusion | s per audio min |")
    print("|---|---|---|---|---|---|---|---|")
    scores = []
    for rec in recordings:
        spans = speech_spans(rec.samples)
        started = time.perf_counter()
        pieces = label_speakers(rec.samples, spans, encoder, threshold=threshold)
        took = time.perf_counter() - started
        seconds = rec.samples.size / SR
        total, missed, false_alarm, confusion = der(rec.reference, [(p.start_s, p.end_s, str(p.speaker)) for p in pieces],
                                                    seconds)
        scores.append(total)
        print(f"| {rec.name:14} | {len({s for *_, s in rec.reference})} | {len({p.speaker for p in pieces})} | "
              f"{total:.1%} | {missed:.1%} | {false_alarm:.1%} | {confusion:.1%} | {took / seconds * 60:.1f} |")
    print(f"| mean | | | {np.mean(scores):.1%} | | | | |")
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, default=Path.home() / ".cache/sidecar-tests/Resemblyzer-0.1.4-py3-none-any.whl")
    parser.add_argument("--thresholds", default="0.2,0.3,0.4", help="tried on the tuning half")
    args = parser.parse_args()
    encoder = SpeakerEncoder.from_wheel(args.wheel)
    tuning = meetings(TUNING_MEETINGS) + [conversation(n, v) for n, v in TUNING_CONVERSATIONS.items()]
    held_out = meetings(HELD_OUT_MEETINGS) + [conversation(n, v) for n, v in HELD_OUT_CONVERSATIONS.items()]
    for threshold in [float(t) for t in args.thresholds.split(",")]:
        run(tuning, encoder, threshold, "Tuning half")
    run(held_out, encoder, THRESHOLD, "Held-out half (reported)")
    print(f"\n{PYANNOTE_PUBLISHED}")


if __name__ == "__main__":
    main()
