"""What telling a recording's languages apart costs: one-language recordings against the vote before, mixed ones in full.

    .venv/bin/python bench/language_check.py RECORDING... [--transcribe]

For each recording (any format ffmpeg reads), with the bundled Whisper base in this
process (the model host runs the same calls):

* **before**: the language vote as it was (windows heard in file order, early stop);
* **now**: windows heard first, last, middle, … (same early stop), then, only when two
  windows heard different languages confidently, the VAD over the whole file and the
  stretch search (pieces, then the boundaries).

Encoder passes are calls to Whisper's language detector (one 30-s encoder pass each).
``--transcribe`` also times the transcription itself: before, the whole file in the
voted language; now, each stretch in its own language (the same call for one language).
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.media import language_vote  # noqa: E402
from app.media.audio import audio_duration, extract_audio  # noqa: E402
from app.media.language_stretches import find_stretches  # noqa: E402
from app.ml.whisper_runtime import WhisperRuntime  # noqa: E402


def _counted(runtime: WhisperRuntime, audio: Path) -> tuple[Callable[[float, float], Any], list[int]]:
    calls = [0]

    def detect(start: float, length: float) -> Any:
        calls[0] += 1
        return runtime.detect_language(str(audio), start, length)

    return detect, calls


def _transcribe_s(runtime: WhisperRuntime, audio: Path, parts: list[tuple[float, float | None, str | None]]) -> float:
    started = time.perf_counter()
    for start, end, language in parts:
        for _ in runtime.transcribe(str(audio), start, language, end):
            pass
    return time.perf_counter() - started


def measure(runtime: WhisperRuntime, recording: Path, work: Path, transcribe: bool) -> dict[str, Any]:
    audio = extract_audio(recording, work / (recording.stem + ".f32")).path
    row: dict[str, Any] = {"file": recording.name, "seconds": round(audio_duration(audio), 1)}
    in_order = language_vote.hearing_order
    language_vote.hearing_order = lambda count: list(range(count))  # type: ignore[assignment]
    try:
        detect, calls = _counted(runtime, audio)
        started = time.perf_counter()
        before = language_vote.detect_language(audio, detect)
        row.update(before_language=before.language, before_passes=calls[0], before_s=time.perf_counter() - started)
    finally:
        language_vote.hearing_order = in_order  # type: ignore[assignment]
    detect, calls = _counted(runtime, audio)
    started = time.perf_counter()
    now = language_vote.detect_language(audio, detect)
    heard = language_vote.heard_languages(now)
    row.update(now_passes=calls[0], now_s=time.perf_counter() - started, heard="+".join(heard) or "-")
    parts: list[tuple[float, float | None, str | None]] = [(0.0, None, now.language)]
    if len(heard) > 1:
        started = time.perf_counter()
        spans = runtime.speech_spans(str(audio))
        row["vad_s"] = time.perf_counter() - started
        detect, calls = _counted(runtime, audio)
        started = time.perf_counter()
        stretches = find_stretches(spans, heard, audio_duration(audio), detect)
        row.update(stretch_passes=calls[0], stretch_s=time.perf_counter() - started,
                   stretches=" ".join(f"{s.language}@{s.start_s:.1f}" for s in stretches))
        parts = [(s.start_s, s.end_s, s.language) for s in stretches]
    if transcribe:
        row["before_transcribe_s"] = _transcribe_s(runtime, audio, [(0.0, None, before.language)])
        row["now_transcribe_s"] = _transcribe_s(runtime, audio, parts) if len(parts) > 1 else row["before_transcribe_s"]
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("recordings", nargs="+", type=Path)
    parser.add_argument("--transcribe", action="store_true", help="also time the transcription before and now")
    args = parser.parse_args()
    runtime = WhisperRuntime()
    print(f"Whisper {runtime.model_name} on {runtime.device}/{runtime.compute_type}\n")
    columns = ["file", "seconds", "before_language", "before_passes", "before_s", "now_passes", "now_s", "heard",
               "vad_s", "stretch_passes", "stretch_s", "stretches"]
    if args.transcribe:
        columns += ["before_transcribe_s", "now_transcribe_s"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    with tempfile.TemporaryDirectory() as tmp:
        for recording in args.recordings:
            row = measure(runtime, recording, Path(tmp), args.transcribe)
            print("| " + " | ".join(f"{row[c]:.2f}" if isinstance(row.get(c), float) and c != "seconds"
                                    else str(row.get(c, "")) for c in columns) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
