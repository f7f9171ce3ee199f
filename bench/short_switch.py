"""A language switch inside a short recording: the transcribe stage's language flow before and with the short check.

    .venv/bin/python bench/short_switch.py [--runs N] RECORDING...

For each recording (any format ffmpeg reads), with the bundled Whisper base in this process
(the model host runs the same calls, in the same order, as ``TranscribeStage.run``):

* **before**: the language vote, stretches only when two vote windows heard two languages,
  then the transcription (what main did before the short check);
* **after**: the same, then, for a recording of one vote window, ``short_switch`` on the
  transcription (its suspect regions heard alone) and, when it splits, the transcription
  again stretch by stretch.

Encoder passes are counted at Whisper's encoder (the opening's kept pass counts once);
"extra" is what the short check added. Seconds are medians of ``--runs``, before and after
alternating. The last column gives each segment's start, the language it was transcribed in
and the offline identifier's (py3langid, as the translation check uses it) reading of its text.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.media.audio import audio_duration, extract_audio  # noqa: E402
from app.media.language_stretches import Stretch, find_stretches, short_switch, suspect_regions  # noqa: E402
from app.media.language_vote import detect_language as vote_language  # noqa: E402
from app.media.language_vote import heard_languages  # noqa: E402
from app.media.translation_quality import LID_LANGUAGES, LanguageIdentifier  # noqa: E402
from app.ml.whisper_runtime import WhisperRuntime  # noqa: E402
from app.pipelines.video import _compact_segment  # noqa: E402


class Counted:
    """Counts Whisper encoder passes (wrapped under the opening-pass cache, so a reused pass is not counted)."""

    def __init__(self, runtime: WhisperRuntime) -> None:
        self.passes = 0
        self._encode = runtime._opening._encode
        runtime._opening._encode = self

    def __call__(self, features: Any) -> Any:
        self.passes += 1
        return self._encode(features)


def flow(runtime: WhisperRuntime, counter: Counted, audio: Path, check: bool) -> dict[str, Any]:
    counter.passes = 0
    started = time.perf_counter()
    duration = audio_duration(audio)
    opened: list[tuple[float, float]] = []

    def detect(start: float, length: float) -> Any:
        return runtime.detect_language(str(audio), start, length)

    def opening(start: float, length: float) -> Any:
        answer = runtime.detect_language(str(audio), start, None, opening=True)
        opened[:] = answer.get("spans") or []
        return answer

    vote = vote_language(audio, detect, opening)
    heard = heard_languages(vote)
    stretches: list[Stretch] = find_stretches(runtime.speech_spans(str(audio)), heard, duration, detect) if len(heard) > 1 else []

    def transcribe() -> list[dict[str, Any]]:
        segments = []
        for stretch in stretches if len(stretches) > 1 else [None]:
            language = stretch.language if stretch else vote.language
            for event in runtime.transcribe(str(audio), stretch.start_s if stretch else 0.0, language,
                                            stretch.end_s if stretch else None):
                if event["type"] == "segment":
                    segments.append(_compact_segment(event, language))
        return segments

    segments = transcribe()
    first = counter.passes
    regions: list[tuple[float, float]] = []
    if check and vote.language and len(vote.windows) == 1 and len(stretches) <= 1 and segments:
        regions = suspect_regions(opened, segments, vote.language)
        top = [code for code, _ in vote.windows[0]["top"]]
        found = short_switch(opened, segments, vote.language, top, duration, detect)
        if found:
            stretches = found
            segments = transcribe()
    return {"seconds": time.perf_counter() - started, "extra": counter.passes - first if check else 0,
            "stretches": stretches, "segments": segments, "regions": regions, "language": vote.language}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("recordings", nargs="+", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    runtime = WhisperRuntime()
    counter = Counted(runtime)
    identifier = LanguageIdentifier._model(tuple(LID_LANGUAGES))
    print(f"Whisper {runtime.model_name} on {runtime.device}/{runtime.compute_type}\n")
    print("| file | s | vote | stretches before | stretches after | suspect regions | extra passes | s before | s after "
          "| load (1 min) | segments: start tag/identifier |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")

    def shown(stretches: list[Stretch]) -> str:
        return " ".join(f"{s.language} {s.start_s:.1f}-{s.end_s:.1f}" for s in stretches) or "-"

    with tempfile.TemporaryDirectory() as tmp:
        for recording in args.recordings:
            audio = extract_audio(recording, Path(tmp) / (recording.stem + ".f32")).path
            before_s, after_s = [], []
            for _ in range(args.runs):
                before = flow(runtime, counter, audio, False)
                before_s.append(before["seconds"])
                after = flow(runtime, counter, audio, True)
                after_s.append(after["seconds"])
            tags = " ".join(f"{s['start']:.0f}:{s.get('language')}/{identifier.rank(' '.join(s['text'].split()))[0][0]}"
                            for s in after["segments"])
            regions = " ".join(f"{a:.1f}-{b:.1f}" for a, b in after["regions"]) or "-"
            load = Path("/proc/loadavg").read_text().split()[0]
            print(f"| {recording.name} | {audio_duration(audio):.1f} | {after['language']} | {shown(before['stretches'])} "
                  f"| {shown(after['stretches'])} | {regions} | {after['extra']} | {statistics.median(before_s):.2f} "
                  f"| {statistics.median(after_s):.2f} | {load} | {tags} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
