"""Subtitle file names next to a video or audio file (SPEC §5 naming presets, §1.3 already-subtitled rule).

Media servers (Jellyfin, Plex, Kodi, Emby) read the language from a lower-case ISO
639-1 code right before the extension, so the default preset is ``Movie.ja.srt``,
``Movie.zh.srt`` and ``Movie.zh.ass``. The ``compat`` preset reproduces names some
libraries already use (``Movie.CN.srt``, ``Movie.CN_dual_eye.ass``).

Every name starts with ``<stem>.`` and tells its language, so it satisfies the
already-subtitled rule for its language: a second scan with the same target language
skips the finished video, one with another target language translates it again. Names are built from the media's own name and
are therefore hostile input: separators, NUL and traversal can never come out.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from app.media.languages import language_of

PRESETS = ("media-server", "compat")
DEFAULT_PRESET = "media-server"
#: Most file systems limit a name to 255 bytes (ext4, APFS) or 255 UTF-16 units (NTFS).
MAX_NAME_BYTES = 255

_UNSAFE = re.compile(r"[/\\\x00]")
_LANG = re.compile(r"^[a-z]{2,3}$")
#: compat preset: the few codes those libraries spell differently from upper-case ISO.
_COMPAT_CODES = {"zh": "CN"}
SUBTITLE_EXTENSIONS = frozenset(".srt .ass .ssa .vtt".split())


@dataclass(frozen=True)
class SubtitleNames:
    """Preferred file names (bare names, no folders) for one video's outputs.

    ``translation`` and ``bilingual`` are None when there is no translation
    (source language == target language).
    """

    transcript: str
    translation: str | None = None
    bilingual: str | None = None

    def all(self) -> list[str]:
        return [n for n in (self.transcript, self.translation, self.bilingual) if n]


def safe_stem(stem: str) -> str:
    """The video stem with path separators (and NUL) replaced by ``_``.

    On POSIX a file may be called ``a\\b.mp4``; on Windows that backslash is a
    separator, so it never reaches a generated name. Anything else the source's own
    name holds — a newline, undecodable bytes — its folder already accepts, so the
    subtitles keep the exact stem and players still pair them with the video. A stem
    made only of dots would otherwise yield names like ``...ja.srt``, which are harmless; ``..`` alone can
    never be a generated name because a suffix is always appended.
    """
    cleaned = _UNSAFE.sub("_", stem)
    return cleaned if cleaned.strip() else "_"


def normalise_language(code: str | None) -> str:
    """Lower-case ISO 639-1 (or 639-3 when Whisper has no 639-1) primary subtag.

    ``"zh-CN"`` → ``"zh"``, ``"EN"`` → ``"en"``. Anything that is not a plausible
    code becomes ``"und"`` (undetermined) instead of leaking odd characters.
    """
    primary = re.split(r"[-_]", (code or "").strip(), maxsplit=1)[0].lower()
    return primary if _LANG.match(primary) else "und"


def _fit(stem: str, suffix: str) -> str:
    """``stem + suffix``, shortening the stem at a character boundary to fit 255 bytes.

    Only names whose video name is itself near the limit are affected; they then do
    not contain the full stem (the scan's content identity still avoids redoing work).
    Bytes are counted as the file system stores them: an undecodable byte of a name
    (a lone surrogate, see app.store.byte_text) is one byte and stays that byte.
    """
    budget = MAX_NAME_BYTES - len(suffix.encode("utf-8"))
    if len(stem.encode("utf-8", "surrogateescape")) > budget:
        kept, used = [], 0
        for char in stem:
            used += len(char.encode("utf-8", "surrogateescape"))
            if used > budget:
                break
            kept.append(char)
        stem = "".join(kept)
    return stem + suffix


def _code(lang: str, preset: str) -> str:
    code = normalise_language(lang)
    if preset == "compat":
        return _COMPAT_CODES.get(code, code.upper())
    return code


def subtitle_names(
    stem: str, source_lang: str | None, target_lang: str | None, preset: str = DEFAULT_PRESET
) -> SubtitleNames:
    """File names for a video's transcript, translation and bilingual subtitles.

    >>> subtitle_names("Movie", "ja", "zh")
    SubtitleNames(transcript='Movie.ja.srt', translation='Movie.zh.srt', bilingual='Movie.zh.ass')
    >>> subtitle_names("Movie", "ja", "zh", "compat").all()
    ['Movie.JA.srt', 'Movie.CN.srt', 'Movie.CN_dual_eye.ass']
    """
    if preset not in PRESETS:
        raise ValueError(f"unknown naming preset {preset!r}; expected one of {', '.join(PRESETS)}")
    base = safe_stem(stem)
    source = _code(source_lang or "", preset)
    transcript = _fit(base, f".{source}.srt")
    if target_lang is None or normalise_language(source_lang) == normalise_language(target_lang):
        return SubtitleNames(transcript)
    target = _code(target_lang, preset)
    if preset == "compat":
        return SubtitleNames(transcript, _fit(base, f".{target}.srt"), _fit(base, f".{target}_dual_eye.ass"))
    return SubtitleNames(transcript, _fit(base, f".{target}.srt"), _fit(base, f".{target}.ass"))


def example_names(preset: str, stem: str = "Movie", source_lang: str = "ja", target_lang: str = "zh") -> list[str]:
    """The live example shown under the naming setting."""
    return subtitle_names(stem, source_lang, target_lang, preset).all()


def subtitle_matches(media_stem: str, subtitle_name: str) -> bool:
    """Whether a subtitle file counts as this media file's: its name contains the stem (case-insensitive).

    A one-character stem would match almost anything, so then only names starting with
    ``stem.`` count (``a.mp4`` is not subtitled by ``apple.srt``).
    """
    stem = media_stem.lower()
    name = subtitle_name.lower()
    if len(stem) == 1:
        return name.startswith(stem + ".")
    return stem in name


def subtitle_language(media_stem: str, subtitle_name: str) -> str | None:
    """The language a subtitle's name tells, read from the tokens between the media's stem and the extension.

    ``Movie.fr.srt``, ``Movie.fre.srt``, ``Movie.French.srt`` → ``"fr"``; ``Movie.zh-CN.srt``
    and compat ``Movie.CN_dual_eye.ass`` → ``"zh"``; ``Movie.srt`` and ``Movie.Extras.srt``
    → None. ``hi`` next to another language is the hearing-impaired flag
    (``Movie.en.hi.srt`` is English), alone it is Hindi.
    """
    base = Path(subtitle_name).stem
    at = base.lower().find(media_stem.lower())
    rest = base[at + len(media_stem):] if at >= 0 else base
    found = [(token.lower(), code) for token in rest.split(".") if (code := language_of(token))]
    if len(found) > 1:
        found = [(token, code) for token, code in found if token != "hi"] or found
    return found[0][1] if found else None


@lru_cache(maxsize=4)
def _subtitle_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """The subtitle files among a folder's names, found once per folder: a scan asks this for every media
    file in it, and a folder of 10,000 videos would otherwise cost 10,000² name parses."""
    return tuple(name for name in names if os.path.splitext(name)[1].lower() in SUBTITLE_EXTENSIONS)


def is_already_subtitled(media: Path, sibling_names: Sequence[str], target_lang: str | None = None) -> str | None:
    """The name of the subtitle that makes this media file done for ``target_lang``, if any.

    A subtitle whose name tells a language counts only for that language (``Movie.de.srt``
    does not make a French job's video done); one whose name tells none counts for every
    language. Without a target, any matching subtitle counts.
    """
    target = normalise_language(target_lang) if target_lang else None
    for name in _subtitle_names(tuple(sibling_names)):
        if subtitle_matches(media.stem, name):
            language = subtitle_language(media.stem, name) if target else None
            if language is None or language == target:
                return name
    return None
