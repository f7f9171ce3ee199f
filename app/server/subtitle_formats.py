"""The reply of ``/asr`` in whisper-asr-webservice's formats: srt, vtt, txt, json, tsv.

The cues are Sidecar's own (VAD, sentence cues, the language vote, the glossary), so
every format is written from them; a translation is the translated text on the same
cues. The shapes follow whisper-asr-webservice's writers (its json: ``text``,
``segments`` with seconds, ``language``; its tsv: milliseconds), since clients parse them.
"""

from __future__ import annotations

import json
from typing import Sequence

import pysubs2

from app.media.cues import Cue, wrap_text
from app.media.subtitles import escape_text, render_srt

MEDIA_TYPES = {
    "srt": "application/x-subrip; charset=utf-8",
    "vtt": "text/vtt; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
    "json": "application/json",
    "tsv": "text/tab-separated-values; charset=utf-8",
}
"""Every output a client may ask for, with the content type of its reply."""


def subtitle_reply(cues: Sequence[Cue], texts: Sequence[str] | None, language: str | None, output: str) -> bytes:
    """``cues`` (with ``texts`` over them when translated) written as ``output`` (a key of :data:`MEDIA_TYPES`)."""
    lines = [cue.text for cue in cues] if texts is None else [wrap_text(t) for t in texts]
    if output == "srt":
        return render_srt(cues, lines)
    if output == "vtt":
        subs = pysubs2.SSAFile()
        subs.events = [pysubs2.SSAEvent(start=c.start_ms, end=c.end_ms, text=escape_text(t)) for c, t in zip(cues, lines)]
        return subs.to_string("vtt").encode("utf-8")
    flat = [" ".join(t.split("\n")) for t in lines]
    if output == "txt":
        return "".join(t + "\n" for t in flat).encode("utf-8")
    if output == "tsv":
        rows = ["start\tend\ttext", *(f"{c.start_ms}\t{c.end_ms}\t{t.replace(chr(9), ' ')}" for c, t in zip(cues, flat))]
        return ("\n".join(rows) + "\n").encode("utf-8")
    if output == "json":
        segments = [{"id": n, "start": c.start_ms / 1000, "end": c.end_ms / 1000, "text": t}
                    for n, (c, t) in enumerate(zip(cues, flat))]
        return json.dumps({"text": " ".join(flat), "segments": segments, "language": language},
                          ensure_ascii=False).encode("utf-8")
    raise ValueError(f"unknown output {output!r}")
