"""Which audio stream of a file is the speech to subtitle (SPEC §2: films with dubs and commentaries).

A film from a NAS often carries several audio streams: the original, dubs, a
director's commentary, an audio description for the visually impaired. Whisper should
hear the one a player plays, in the language the person said the film is in:

1. a track the person chose (``--audio-track N`` or the queue's "Audio track" menu),
   counted from 1 among the audio streams as players list them;
2. otherwise, among the streams that are not commentary or descriptions (unless
   every stream is), the first whose language tag matches the job's source language;
3. then the stream flagged default;
4. then the first one.

The choice is a pure function of the file's header and the job's options, so the
extract stage's fingerprint (the track option and the source language) together with
the file's content identifies it: a different choice is never served a cached result.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import Code, MediaError
from app.media.ffmpeg_reasons import ffmpeg_reason
from app.media.languages import english_name, language_of

log = logging.getLogger(__name__)

#: Why a stream was chosen (stable strings shown in ``status --items --json`` as ``audio_stream.reason``).
CHOSEN = "chosen"  # the person named this track
CHOSEN_MISSING = "chosen_missing"  # the person named a track the file does not have; chosen as if automatic
LANGUAGE = "language"  # its language tag is the job's source language
DEFAULT = "default"  # flagged default in the container
FIRST = "first"  # nothing set it apart: the first stream
ONLY = "only"  # the file has a single audio stream

#: Bump when the rule above changes: the extract stage's fingerprint carries it.
RULE_VERSION = 1


@dataclass(frozen=True)
class AudioStream:
    """One audio stream as the container describes it."""

    index: int  # the container's stream index (ffprobe's ``#0:N``)
    track: int  # position among the audio streams, from 1 (what ``--audio-track`` takes)
    language: str | None  # ISO 639-1, None when untagged or unknown
    tag: str  # the raw language tag (``ger``, ``und``, "")
    title: str
    default: bool
    secondary: bool  # commentary or description: not the dialogue itself
    channels: int

    def label(self) -> str:
        """How the queue lists it: ``2: German — Director's commentary (default)``."""
        parts = [(english_name(self.language) or self.language) if self.language else (self.tag or "unknown language")]
        if self.title:
            parts.append(self.title)
        text = f"{self.track}: " + " — ".join(parts)
        return text + (" (default)" if self.default else "")


@dataclass(frozen=True)
class AudioChoice:
    """The stream to decode and why; ``streams`` are all the file's audio streams."""

    stream: AudioStream
    reason: str
    streams: tuple[AudioStream, ...]

    def to_dict(self) -> dict[str, Any]:
        """What the extract stage stores and ``status --items --json`` shows as ``audio_stream``."""
        s = self.stream
        return {"index": s.index, "track": s.track, "language": s.tag or None, "title": s.title or None,
                "reason": self.reason, "tracks": len(self.streams)}


def _secondary(disposition: Any) -> bool:
    import av.stream

    flags = av.stream.Disposition
    return bool(disposition & (flags.comment | flags.visual_impaired | flags.hearing_impaired | flags.descriptions))


def audio_streams(path: Path) -> list[AudioStream]:
    """The file's audio streams, read from its header (nothing is decoded).

    Raises ``MediaError`` (``file_missing``, ``corrupt_media``) when the file cannot be
    opened: the extract stage reports it as it always did.
    """
    import av
    import av.stream

    try:
        container = av.open(str(path), metadata_errors="ignore")
    except FileNotFoundError as exc:
        raise MediaError(f"{path} does not exist (moved or deleted?)", code=Code.FILE_MISSING) from exc
    except (av.FFmpegError, ValueError, OSError) as exc:
        raise MediaError(f"{Path(path).name} cannot be read as media: {ffmpeg_reason(exc)}", code=Code.CORRUPT_MEDIA) from exc
    with container:
        out = []
        for track, s in enumerate(container.streams.audio, start=1):
            tag = str(s.metadata.get("language", "")).strip()
            out.append(AudioStream(
                index=s.index, track=track, language=language_of(tag) if tag and tag != "und" else None, tag=tag,
                title=str(s.metadata.get("title", "")).strip(),
                default=bool(s.disposition & av.stream.Disposition.default), secondary=_secondary(s.disposition),
                channels=int(s.codec_context.channels or 0),
            ))
        return out


def choose_audio_stream(streams: list[AudioStream], source_lang: str | None = None,
                        track: int | None = None) -> AudioChoice | None:
    """The stream Whisper should hear (see the module docstring); None when there is none."""
    if not streams:
        return None
    every = tuple(streams)
    if track:
        named = [s for s in streams if s.track == track]
        if named:
            return AudioChoice(named[0], CHOSEN, every)
        log.warning("audio track %d was asked for but the file has %d; choosing as if none was asked", track,
                    len(streams))
    if len(streams) == 1:
        return AudioChoice(streams[0], CHOSEN_MISSING if track else ONLY, every)
    dialogue = [s for s in streams if not s.secondary] or list(streams)
    wanted = language_of(source_lang) if source_lang else None
    pick: tuple[AudioStream, str] | None = None
    if wanted:
        pick = next(((s, LANGUAGE) for s in dialogue if s.language == wanted), None)
    pick = pick or next(((s, DEFAULT) for s in dialogue if s.default), None) or (dialogue[0], FIRST)
    return AudioChoice(pick[0], CHOSEN_MISSING if track else pick[1], every)


__all__ = ["AudioChoice", "AudioStream", "RULE_VERSION", "audio_streams", "choose_audio_stream"]
