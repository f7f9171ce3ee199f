"""A language switch inside a recording of under 90 s: the transcribe stage's language flow before and with its checks.

    .venv/bin/python bench/short_switch.py [--runs N] [--before] RECORDING[@SWITCH_S]...
    .venv/bin/python bench/short_switch.py [--runs N] [--before] --clips FIXTURES [--set tune|held]

For each recording (any format ffmpeg reads), with the bundled Whisper base in this process
(the model host runs the same calls, in the same order, as ``TranscribeStage.run``):

* **before** (with ``--before``): what main did before the piece check: the language vote,
  stretches only when two vote windows heard two languages, the transcription, then, for a
  recording of one vote window, ``short_switch`` on the transcription (its suspect regions
  heard alone) and, when it splits, the transcription again stretch by stretch;
* **after**: as the stage does it now: the same, but a recording of 30-90 s whose vote heard
  one language first has its speech heard piece by piece (``piece_switch``), and a stretch
  whose last window Whisper left partly unwritten (``left_unwritten``) is transcribed once
  more from its last segment.

Encoder passes are counted at Whisper's encoder (the opening's kept pass counts once), all of
them: the vote's, the checks' and the transcription's. Seconds are medians of ``--runs``,
before and after alternating.

``@SWITCH_S`` gives where a recording built from two readings changes language: the segments
that start before it are its first part, the others its second, and each part's column shows
the languages Sidecar tagged its segments with and the offline identifier's (py3langid, as the
translation check uses it) reading of the segments' text, as ``count×tag/identifier``, before
and after. A recording without it is one language (one part). The last column gives each
segment's start, tag and identifier reading after. Prints a Markdown table.

``--clips`` builds the recordings of :data:`RECORDINGS` from the FLEURS clips in FIXTURES (the
folder ``packages/cuttledoc/fixtures`` of ``sebastian-software/cuttledoc`` @ e0c5878, CC BY 4.0;
see tests/data/speech/README.md): each is its clips' audio as Sidecar extracts it, joined, as a
16-kHz WAV, its switch where its first part ends. ``tune`` holds only clips the checks were
tuned on (tests/data/speech), ``held`` none of them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import wave
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.media.audio import SAMPLE_RATE, audio_duration, extract_audio  # noqa: E402
from app.media.language_stretches import (PIECE_CHECK_BELOW_S, Stretch, find_stretches, left_unwritten,  # noqa: E402
                                          piece_switch, short_switch, suspect_regions)
from app.media.language_vote import WINDOW_S, heard_languages  # noqa: E402
from app.media.language_vote import detect_language as vote_language  # noqa: E402
from app.media.translation_quality import LID_LANGUAGES, LanguageIdentifier  # noqa: E402
from app.ml.whisper_runtime import WhisperRuntime  # noqa: E402
from app.pipelines.video import _compact_segment  # noqa: E402


#: name -> (the first part's FLEURS clips, the second part's; none for a one-language recording), in order.
RECORDINGS: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "tune": {
        "en-de-60": (("en-000", "en-001", "en-002"), ("de-000", "de-001")),
        "en-de-41": (("en-009", "en-003", "en-004"), ("de-001", "de-004")),
        "de-en-36": (("de-003", "de-004"), ("en-000", "en-004")),
        "en-41": (("en-000", "en-001", "en-002", "en-003", "en-004"), ()),
        "de-42": (("de-000", "de-001", "de-002"), ()),
        "de-62": (("de-000", "de-001", "de-002", "de-003", "de-004"), ()),
    },
    "held": {
        "en-de-31": (("en-007", "en-008"), ("de-006",)),
        "fr-es-45": (("fr-001",), ("es-001",)),
        "es-en-44": (("es-007", "es-008"), ("en-005", "en-008")),
        "pt-fr-58": (("pt-000", "pt-001"), ("fr-007", "fr-009")),
        "de-fr-77": (("de-009",), ("fr-003", "fr-005", "fr-006", "fr-008")),
        "en-pt-88": (("en-005", "en-006", "en-007", "en-008"), ("pt-005", "pt-006", "pt-009")),
        "fr-de-51": (("fr-002", "fr-003", "fr-004"), ("de-006", "de-008")),
        "en-de-55": (("en-005", "en-006", "en-008"), ("de-006", "de-005")),
        "es-pt-36": (("es-002", "es-003"), ("pt-002", "pt-007")),
        "de-en-57": (("de-007", "de-005"), ("en-005", "en-006", "en-007")),
        "fr-42": (("fr-000", "fr-001", "fr-002"), ()),
        "es-52": (("es-000", "es-001", "es-002", "es-003"), ()),
        "pt-51": (("pt-000", "pt-001", "pt-002", "pt-003"), ()),
        "en-40": (("en-005", "en-006", "en-007", "en-008"), ()),
        "de-87": (("de-006", "de-007", "de-008", "de-009"), ()),
        "pt-32": (("pt-004", "pt-005"), ()),
    },
}


def built(fixtures: Path, which: str, folder: Path) -> list[tuple[Path, float | None]]:
    """The recordings of ``RECORDINGS[which]`` as WAVs in ``folder``, each with its switch (None: one language)."""
    out = []
    for name, (first, second) in RECORDINGS[which].items():
        parts = [[np.fromfile(extract_audio(fixtures / f"fleurs-{clip}.ogg", folder / "clip.f32").path, dtype="<f4")
                  for clip in clips] for clips in (first, second)]
        samples = np.concatenate(parts[0] + parts[1])
        path = folder / f"{which}-{name}.wav"
        with wave.open(str(path), "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(SAMPLE_RATE)
            wav.writeframes((np.clip(samples, -1.0, 1.0) * 32767).astype("<i2").tobytes())
        out.append((path, round(sum(p.size for p in parts[0]) / SAMPLE_RATE, 2) if second else None))
    return out


class Counted:
    """Counts Whisper encoder passes (wrapped under the opening-pass cache, so a reused pass is not counted)."""

    def __init__(self, runtime: WhisperRuntime) -> None:
        self.passes = 0
        self._encode = runtime._opening._encode
        runtime._opening._encode = self

    def __call__(self, features: Any) -> Any:
        self.passes += 1
        return self._encode(features)


def flow(runtime: WhisperRuntime, counter: Counted, audio: Path, pieces: bool) -> dict[str, Any]:
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
    if pieces and len(heard) <= 1 and vote.language and WINDOW_S < duration < PIECE_CHECK_BELOW_S:
        stretches = piece_switch(opened or runtime.speech_spans(str(audio)), vote.language, duration, detect)

    def transcribe() -> list[dict[str, Any]]:
        segments: list[dict[str, Any]] = []
        for stretch in stretches if len(stretches) > 1 else [None]:
            language = stretch.language if stretch else vote.language
            start, written = stretch.start_s if stretch else 0.0, len(segments)
            for event in runtime.transcribe(str(audio), start, language, stretch.end_s if stretch else None):
                if event["type"] == "segment":
                    segments.append(_compact_segment(event, language))
            if pieces and stretch and len(segments) > written:  # as the stage: a rest Whisper left unwritten, once more
                end = max(s["end"] for s in segments[written:])
                if left_unwritten(runtime.speech_spans(str(audio)), end, stretch.end_s):
                    for event in runtime.transcribe(str(audio), end, language, stretch.end_s):
                        if event["type"] == "segment":
                            segments.append(_compact_segment(event, language))
        return segments

    segments = transcribe()
    regions: list[tuple[float, float]] = []
    if vote.language and len(vote.windows) == 1 and len(stretches) <= 1 and segments:
        regions = suspect_regions(opened, segments, vote.language)
        top = [code for code, _ in vote.windows[0]["top"]]
        found = short_switch(opened, segments, vote.language, top, duration, detect)
        if found:
            stretches = found
            segments = transcribe()
    return {"seconds": time.perf_counter() - started, "passes": counter.passes, "stretches": stretches,
            "segments": segments, "regions": regions, "language": vote.language}


def recording_and_switch(argument: str) -> tuple[Path, float | None]:
    """``path`` or ``path@seconds`` (where a recording built from two readings changes language)."""
    path, _, switch = argument.rpartition("@") if "@" in argument else (argument, "", "")
    return Path(path), float(switch) if switch else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("recordings", nargs="*", type=recording_and_switch, metavar="RECORDING[@SWITCH_S]")
    parser.add_argument("--clips", type=Path, help="build RECORDINGS from the FLEURS clips in this folder")
    parser.add_argument("--set", choices=sorted(RECORDINGS), action="append", help="which of RECORDINGS (default: all)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", action="store_true", help="also run main's flow before the checks")
    args = parser.parse_args()
    runtime = WhisperRuntime()
    counter = Counted(runtime)
    identifier = LanguageIdentifier._model(tuple(LID_LANGUAGES))

    def read(text: str) -> str:
        return identifier.rank(" ".join(text.split()))[0][0]

    def part(segments: list[dict[str, Any]]) -> str:
        counts = Counter(f"{s.get('language')}/{read(s['text'])}" for s in segments)
        return " ".join(f"{n}×{key}" for key, n in counts.most_common()) or "-"

    def parts(segments: list[dict[str, Any]], switch: float | None) -> str:
        """The two parts' columns: the segments that start before ``switch``, and the others."""
        if switch is None:
            return f"{part(segments)} | -"
        return f"{part([s for s in segments if s['start'] < switch])} | {part([s for s in segments if s['start'] >= switch])}"

    print(f"Whisper {runtime.model_name} on {runtime.device}/{runtime.compute_type}\n")
    print("| file | s | switch at | vote | stretches before | stretches after | first part before | second part before "
          "| first part after | second part after | suspect regions | passes before | passes after | s before | s after "
          "| load (1 min) | segments after: start tag/identifier |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")

    def shown(stretches: list[Stretch]) -> str:
        return " ".join(f"{s.language} {s.start_s:.1f}-{s.end_s:.1f}" for s in stretches) or "-"

    with tempfile.TemporaryDirectory() as tmp:
        recordings = list(args.recordings)
        for which in (args.set or sorted(RECORDINGS, reverse=True)) if args.clips else []:
            recordings += built(args.clips, which, Path(tmp))
        for recording, switch in recordings:
            audio = extract_audio(recording, Path(tmp) / (recording.stem + ".f32")).path
            before_s, after_s = [], []
            before: dict[str, Any] = {"stretches": [], "passes": "-", "segments": []}
            for _ in range(args.runs):
                if args.before:
                    before = flow(runtime, counter, audio, False)
                    before_s.append(before["seconds"])
                after = flow(runtime, counter, audio, True)
                after_s.append(after["seconds"])

            segments = after["segments"]
            tags = " ".join(f"{s['start']:.0f}:{s.get('language')}/{read(s['text'])}" for s in segments)
            regions = " ".join(f"{a:.1f}-{b:.1f}" for a, b in after["regions"]) or "-"
            load = Path("/proc/loadavg").read_text().split()[0]
            print(f"| {recording.name} | {audio_duration(audio):.1f} | {switch if switch is not None else '-'} "
                  f"| {after['language']} | {shown(before['stretches']) if args.before else 'not run'} "
                  f"| {shown(after['stretches'])} | {parts(before['segments'], switch) if args.before else 'not run | not run'} "
                  f"| {parts(segments, switch)} | {regions} "
                  f"| {before['passes']} | {after['passes']} "
                  f"| {f'{statistics.median(before_s):.2f}' if before_s else '-'} | {statistics.median(after_s):.2f} "
                  f"| {load} | {tags} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
