"""Subtitle streams inside a media file (SPEC §12: a text subtitle stream in the target language counts).

A Matroska or MP4 file may already carry subtitles (SRT, ASS, mov_text, WebVTT) that
any player shows; subtitling it again for that language would only add a copy.
Image-based streams (Blu-ray PGS, DVD VobSub, DVB) are listed as well but never
count: they cannot be searched, restyled or shown as a bilingual ASS.

Probing reads the container header only (no decoding), so the scan can afford it for
every video it does not already skip by name.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import av

from app.media.languages import language_of

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SubtitleStream:
    """One subtitle stream: its container index, codec, language (ISO 639-1, None when untagged) and kind."""

    index: int
    codec: str
    language: str | None
    text: bool

    def describe(self) -> str:
        kind = "text" if self.text else "image-based"
        return f"stream #{self.index}, {self.codec}, {kind}"


def subtitle_streams(path: Path) -> list[SubtitleStream]:
    """The file's subtitle streams; an unreadable file has none here (its pipeline reports why it cannot be read)."""
    try:
        with av.open(str(path)) as container:
            return [SubtitleStream(s.index, s.codec_context.name, language_of(s.metadata.get("language", "")),
                                   bool(s.codec_context.codec.text_sub))
                    for s in container.streams.subtitles]
    except (av.FFmpegError, OSError, UnicodeDecodeError) as exc:
        log.info("cannot list the subtitle streams of %s: %s", path, exc)
        return []


def embedded_subtitle(path: Path, target_lang: str) -> SubtitleStream | None:
    """The first text subtitle stream in ``target_lang``; image-based ones in that language are logged, not counted."""
    in_target = [s for s in subtitle_streams(path) if s.language == target_lang]
    for stream in in_target:
        if stream.text:
            return stream
        log.info("%s carries an image-based %s subtitle (%s); it does not count as subtitled",
                 path, target_lang, stream.describe())
    return None


__all__ = ["SubtitleStream", "embedded_subtitle", "subtitle_streams"]
