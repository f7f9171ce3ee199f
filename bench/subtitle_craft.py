"""Craft-rule violations per 100 cues, before and after cues were cut to the rules (issue 37).

    .venv/bin/python bench/subtitle_craft.py [RECORDING...] [--segments CACHE.json] [--before COMMIT]

Every recording of tests/data/real_speech and tests/data/speech (or those named) is
transcribed once with the bundled Whisper base on the CPU (the segments are cached in
``--segments``, so a rerun only cuts). The same segments are then cut twice:

- **before**: ``app/media/cues.py`` as it was at ``--before`` (main before issue 37),
  loaded from git, and its translation layout (``wrap_text`` at 42 display columns);
- **after**: :func:`app.media.cues.craft_cues` and :func:`app.media.translation_timing.lay_out` (the
  translation broken to the target's lines, split in time where it needs more than two,
  given the silence around its cue where it reads too fast).

The translated side uses a **scripted translator**, not a model: a deterministic stand-in
that gives each cue a text of the target's typical length (German: each word a fifth
longer; Chinese: one Han character per 3.3 Latin characters, Chinese's usual ratio), so
the layout and reading-speed rules meet texts of realistic length. It says nothing of
translation quality; the rules counted here are layout and timing only.

Both sides are judged by the same Netflix rules (:func:`app.media.craft.rules_for` of
each cue's language or script, a gap of two frames at 23.976 fps): lines over the
limit, cues over two lines, gaps under two frames, cues under 5/6 s (and those of them
whose neighbours leave room: those are the cutting's fault), cues over 7 s, cues over
the reading speed, and how many cues too long or too fast the item does not flag.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import types
from pathlib import Path
from typing import Any, Callable, Sequence

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.media.craft import char_count, reading_speed, rules_for, text_language  # noqa: E402
from app.media.cues import Cue, craft_cues, over_limits  # noqa: E402
from app.media.hallucination import filter_segments  # noqa: E402
from app.media.translation_timing import lay_out  # noqa: E402

BEFORE = "c470d9c"  # main before issue 37
CORPUS = sorted((REPO / "tests/data/real_speech").glob("*.opus")) + sorted((REPO / "tests/data/speech").glob("*.ogg"))
RULES = ("line_over", "over_2_lines", "too_long_unflagged", "gap_under_2f", "under_5/6s", "under_5/6s_with_room", "over_7s",
         "over_cps", "over_cps_unflagged")
#: Common ideographs (the start of the CJK block: 一丁七万丈三上下…), the scripted Chinese's characters.
_HAN = "".join(chr(0x4E00 + k) for k in range(256))


# ------------------------------------------------------------------ transcription


def transcribe(paths: Sequence[Path], cache: Path) -> dict[str, dict[str, Any]]:
    """Segments (filtered as the transcribe stage filters them), language and duration of each recording, cached."""
    known: dict[str, dict[str, Any]] = json.loads(cache.read_text()) if cache.is_file() else {}
    todo = [p for p in paths if p.name not in known]
    if todo:
        from app.media.audio import audio_duration, extract_audio
        from app.ml.whisper_runtime import WhisperRuntime

        runtime = WhisperRuntime(device="cpu", compute_type="int8")
        with tempfile.TemporaryDirectory() as tmp:
            for path in todo:
                audio = extract_audio(path, Path(tmp) / (path.stem + ".f32")).path
                segments, language = [], None
                for event in runtime.transcribe(str(audio)):
                    if event["type"] == "segment":
                        segments.append(event)
                    elif event.get("language"):
                        language = event["language"]
                kept = filter_segments(segments).kept
                known[path.name] = {"language": language, "duration": audio_duration(audio),
                                    "segments": [dict(s) for s in kept]}
                print(f"transcribed {path.name}: {language}, {len(kept)} segments", file=sys.stderr, flush=True)
        cache.write_text(json.dumps(known, ensure_ascii=False))
    return {p.name: known[p.name] for p in paths}


# ----------------------------------------------------------------------- cutting


def before_module(commit: str) -> types.ModuleType:
    """``app/media/cues.py`` at ``commit``, loaded from git (it needs only the standard library)."""
    source = subprocess.run(["git", "-C", str(REPO), "show", f"{commit}:app/media/cues.py"], check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType("cues_before")
    module.__dict__["__name__"] = "cues_before"
    sys.modules["cues_before"] = module  # dataclasses look their module up
    exec(compile(source, f"{commit}:app/media/cues.py", "exec"), module.__dict__)
    return module


def scripted(text: str, target: str) -> str:
    """The scripted translator: a text of the target's typical length for ``text`` (see the module's docstring)."""
    words = text.replace("\n", " ").split()
    if target == "zh":
        count = max(1, round(char_count(" ".join(words)) / 3.3))
        digest = hashlib.sha256(text.encode()).digest()
        body = "".join(_HAN[(digest[i % len(digest)] + i * 7) % len(_HAN)] for i in range(count))
        return body + "。" if text.rstrip().endswith((".", "?", "!")) else body
    return " ".join(w + w[: max(0, round(len(w) * 0.2))].lower() for w in words)


# ---------------------------------------------------------------------- counting


def violations(cues: Sequence[Cue], language: str, flagged: set[int], duration_ms: int) -> dict[str, int]:
    """Each rule's violations among ``cues`` under the Netflix rules of their language."""
    count = dict.fromkeys(RULES, 0)
    for i, cue in enumerate(cues):
        rules = rules_for(text_language(cue.text, language))
        lines = cue.text.split("\n")
        length = cue.end_ms - cue.start_ms
        count["line_over"] += any(char_count(line) > rules.line_chars for line in lines)
        count["over_2_lines"] += len(lines) > 2
        count["too_long_unflagged"] += (len(lines) > 2 or any(char_count(line) > rules.line_chars for line in lines)) \
            and i not in flagged
        if i + 1 < len(cues):
            count["gap_under_2f"] += cues[i + 1].start_ms - cue.end_ms < rules.gap_ms
        if length < rules.min_ms:
            count["under_5/6s"] += 1
            room = (cues[i + 1].start_ms - rules.gap_ms if i + 1 < len(cues) else duration_ms) - cue.start_ms
            count["under_5/6s_with_room"] += room >= rules.min_ms
        count["over_7s"] += length > rules.max_ms
        if reading_speed(cue.text, length) > rules.cps:
            count["over_cps"] += 1
            count["over_cps_unflagged"] += i not in flagged
    return count


def sides(data: dict[str, Any], before: types.ModuleType) -> dict[str, list[tuple[list[Cue], str, set[int], int]]]:
    """(cues, language, flagged cues, duration) for the transcript and each translation, before and after."""
    language, duration = str(data["language"] or ""), float(data["duration"])
    duration_ms = int(duration * 1000)
    old = [Cue(c.start_ms, c.end_ms, c.text) for c in before.build_cues(data["segments"], duration_s=duration)]
    new = craft_cues(data["segments"], duration_s=duration, language=language).cues
    out: dict[str, list[tuple[list[Cue], str, set[int], int]]] = {"before": [], "after": []}
    # The transcript: over its reading speed is flagged as a translation's is (the item's detail).
    out["before"].append((old, language, set(), duration_ms))
    out["after"].append((new, language, set(over_limits(new, [c.flat_text for c in new], language)), duration_ms))
    for target in ("de", "zh"):
        if target == language:
            continue
        old_texts = [scripted(c.flat_text, target) for c in old]
        out["before"].append(([Cue(c.start_ms, c.end_ms, before.wrap_text(t, 42)) for c, t in zip(old, old_texts)],
                              target, set(), duration_ms))
        laid = lay_out(new, [scripted(c.flat_text, target) for c in new], target, limit_ms=duration_ms)
        out["after"].append(([t.cue for t in laid], target, {i for i, t in enumerate(laid) if t.flagged}, duration_ms))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recordings", nargs="*", type=Path, default=CORPUS)
    parser.add_argument("--segments", type=Path, default=Path(tempfile.gettempdir()) / "sidecar-craft-segments.json")
    parser.add_argument("--before", default=BEFORE)
    args = parser.parse_args(argv)
    corpus = transcribe(args.recordings, args.segments)
    before = before_module(args.before)
    totals: dict[str, dict[str, dict[str, int]]] = {}
    cue_counts: dict[str, dict[str, int]] = {}
    for data in corpus.values():
        for side, runs in sides(data, before).items():
            for index, (cues, language, flagged, duration_ms) in enumerate(runs):
                kind = "transcript" if index == 0 else "translation"
                found = violations(cues, language, flagged, duration_ms)
                bucket = totals.setdefault(kind, {}).setdefault(side, dict.fromkeys(RULES, 0))
                for rule, n in found.items():
                    bucket[rule] += n
                cue_counts.setdefault(kind, {}).setdefault(side, 0)
                cue_counts[kind][side] += len(cues)
    print(f"{len(corpus)} recordings, {sum(len(d['segments']) for d in corpus.values())} segments; "
          "translations by the scripted translator (de, zh)\n")
    print("| side | cues | " + " | ".join(RULES) + " |")
    print("|---|---:|" + "---:|" * len(RULES))
    per: Callable[[int, int], str] = lambda n, total: f"{100 * n / total:.1f}" if total else "-"  # noqa: E731
    for kind in ("transcript", "translation"):
        for side in ("before", "after"):
            total = cue_counts[kind][side]
            print(f"| {kind} {side} | {total} | " + " | ".join(per(totals[kind][side][r], total) for r in RULES) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
