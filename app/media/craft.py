"""The craft rules subtitles are held to, per language and profile (SPEC §7, issue 37).

The Netflix profile is Netflix's Timed Text Style Guide as SubtitleEdit encodes it
(github.com/SubtitleEdit/subtitleedit, commit 5c98fbd, src/ui/Logic/NetflixQualityCheck/):

- characters per line (``NetflixQualityController.SingleLineMaxLength`` and
  ``NetflixCheckMaxLineLength``): 42, Chinese and Korean 16, Thai 35, Japanese 13
  full-width characters for horizontal lines (the controller's 23 is not what its
  line-length check tests: that one checks 13);
- two lines at most (``NetflixCheckNumberOfLines``);
- 5/6 s to 7 s on screen (``NetflixCheckMinDuration``: 833 ms, fixed to 834 ms;
  Japanese 0.5 s; ``NetflixCheckMaxDuration``);
- adult reading speed (``CharactersPerSecond``, neither children nor SDH): English and
  Arabic 20, Hindi 22, Korean 12, Chinese 9, Japanese 4, others 17; characters counted
  as ``CalcAll`` does, spaces included, line breaks not;
- gaps of 3–11 frames are closed to 2 frames (``NetflixCheckBridgeGaps``), so no gap is
  under 2 frames.

Characters are counted, not display columns: the guide's 16 for Chinese is 16
characters. A line's limit follows its script when that says more than the language
(a Chinese stretch of an English recording is held to 16). The line-break word lists are
small and cover the common languages: break after punctuation, before a conjunction,
never after an article (it belongs to its noun).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Mapping

NETFLIX = "netflix"
RELAXED = "relaxed"
CUSTOM = "custom"

#: Frame rate for the 2-frame gap when the media's is not known: film's 23.976 fps, whose 84 ms are two
#: frames or more at every common rate (24, 25, 29.97, 30, 50, 60).
DEFAULT_FPS = 23.976
GAP_FRAMES = 2
#: Gaps shorter than this many frames (Netflix's 11 + 1 at 24 fps: half a second) are closed to 2 frames,
#: and never more than :data:`BRIDGE_MAX_MS` (12 frames of a 10 fps screen recording would be 1.2 s of a cue
#: held over silence).
BRIDGE_FRAMES = 12
BRIDGE_MAX_MS = 500

_LINE_CHARS = {"ja": 13, "zh": 16, "ko": 16, "th": 35}
_DEFAULT_LINE_CHARS = 42
_CPS = {"en": 20, "ar": 20, "hi": 22, "ko": 12, "zh": 9, "ja": 4}
_DEFAULT_CPS = 17
#: Cue times are whole centiseconds (ASS's unit, so SRT and ASS say the same times): a cue's start is rounded up
#: and its end down, which may take up to 18 ms off a cue, so the minima carry that margin above the guide's.
_MIN_MS = {"ja": 520}
_DEFAULT_MIN_MS = 860  # 5/6 s (834 ms, as SubtitleEdit fixes it) plus the rounding to centiseconds
MAX_MS = 7000
MAX_LINES = 2

#: Relaxed: longer lines, faster reading, for viewers who asked for more text per cue (not a broadcast rule).
_RELAXED_LINE = 1.2
_RELAXED_CPS = 1.25


@dataclass(frozen=True)
class CraftRules:
    """Limits for one language's cues."""

    language: str
    line_chars: int
    cps: float
    max_lines: int = MAX_LINES
    min_ms: int = _DEFAULT_MIN_MS
    max_ms: int = MAX_MS
    gap_ms: int = 84
    bridge_ms: int = 500


def gap_ms(fps: float | None) -> int:
    """Two frames at ``fps`` in whole milliseconds, rounded up so the gap is never under two frames."""
    rate = fps if fps and fps > 0 else DEFAULT_FPS
    return math.ceil(GAP_FRAMES * 1000 / rate)


def base_language(language: str | None) -> str:
    return (language or "").lower().replace("_", "-").split("-")[0]


def rules_for(language: str | None, profile: str = NETFLIX, fps: float | None = None,
              custom: Mapping[str, int] | None = None) -> CraftRules:
    """The rules for ``language`` under ``profile``; ``custom`` holds ``line_chars`` and ``cps`` for the custom one."""
    lang = base_language(language)
    line = _LINE_CHARS.get(lang, _DEFAULT_LINE_CHARS)
    cps: float = _CPS.get(lang, _DEFAULT_CPS)
    min_ms = _MIN_MS.get(lang, _DEFAULT_MIN_MS)
    if profile == RELAXED:
        line, cps, min_ms = round(line * _RELAXED_LINE), cps * _RELAXED_CPS, min(min_ms, 700)
    elif profile == CUSTOM and custom:
        # The custom numbers are written for Latin text; CJK keeps its share of them.
        scale = line / _DEFAULT_LINE_CHARS
        line = max(8, round(int(custom.get("line_chars", _DEFAULT_LINE_CHARS)) * scale))
        cps = max(1.0, float(custom.get("cps", _DEFAULT_CPS)) * cps / _DEFAULT_CPS)
    rate = fps if fps and fps > 0 else DEFAULT_FPS
    return CraftRules(lang, line, cps, min_ms=min_ms, gap_ms=gap_ms(rate),
                      bridge_ms=min(math.floor(BRIDGE_FRAMES * 1000 / rate), BRIDGE_MAX_MS))


# ---------------------------------------------------------------------- counting


def script_language(text: str) -> str | None:
    """The CJK language ``text``'s script shows (kana: Japanese, Hangul: Korean, Han only: Chinese), else None."""
    han = False
    for ch in text:
        code = ord(ch)
        if 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF:
            return "ja"
        if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
            return "ko"
        if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF:
            han = True
    return "zh" if han else None


#: Languages written in a CJK script: a line without that script is not in them (a line kept in its source language).
_CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})


def text_language(text: str, language: str | None) -> str:
    """The language whose limits hold ``text``: its CJK script when it has one, else ``language`` — unless that is a
    CJK language the text is not written in (an English line left untranslated in a Chinese file keeps 42 a line)."""
    found = script_language(text)
    if found:
        return found
    base = base_language(language)
    return "" if base in _CJK_LANGUAGES else base


def char_count(text: str) -> int:
    """Characters as the guide counts them: spaces yes; line breaks, controls, combining and zero-width marks no."""
    return sum(1 for ch in text if not (unicodedata.combining(ch) or unicodedata.category(ch) in ("Cc", "Cf", "Mn", "Me")))


def reading_speed(text: str, duration_ms: int) -> float:
    """Characters per second of a cue (its lines counted without the break between them)."""
    chars = char_count(text.replace("\n", ""))
    return chars * 1000.0 / duration_ms if duration_ms > 0 else float("inf")


def reading_ms(text: str, rules: CraftRules) -> int:
    """How long ``text`` must stay on screen to be read at ``rules``' speed."""
    return math.ceil(char_count(text.replace("\n", "")) * 1000 / rules.cps)


# -------------------------------------------------------------------- line breaks

#: Articles (and the like) that belong to the noun after them: no line or cue ends on one.
ARTICLES: dict[str, frozenset[str]] = {
    "en": frozenset({"a", "an", "the", "my", "your", "his", "her", "its", "our", "their", "this", "these", "those"}),
    "de": frozenset({"der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines"}),
    "fr": frozenset({"le", "la", "les", "un", "une", "des", "du", "au", "aux", "l'", "ce", "cette", "ces"}),
    "es": frozenset({"el", "la", "los", "las", "un", "una", "unos", "unas", "del", "al"}),
    "it": frozenset({"il", "lo", "la", "i", "gli", "le", "un", "uno", "una", "l'", "del", "della"}),
    "pt": frozenset({"o", "a", "os", "as", "um", "uma", "uns", "umas", "do", "da", "no", "na"}),
    "nl": frozenset({"de", "het", "een"}),
}
#: Conjunctions a line may start with: the break goes before them.
CONJUNCTIONS: dict[str, frozenset[str]] = {
    "en": frozenset({"and", "but", "or", "nor", "so", "yet", "because", "that", "which", "who", "when", "if",
                     "while", "although", "though", "until", "unless", "since", "where"}),
    "de": frozenset({"und", "aber", "oder", "denn", "sondern", "weil", "dass", "wenn", "als", "ob", "obwohl", "damit"}),
    "fr": frozenset({"et", "mais", "ou", "donc", "car", "que", "qui", "quand", "parce", "si", "lorsque"}),
    "es": frozenset({"y", "pero", "o", "porque", "que", "cuando", "si", "aunque", "mientras"}),
    "it": frozenset({"e", "ma", "o", "perché", "che", "quando", "se", "mentre", "anche"}),
    "pt": frozenset({"e", "mas", "ou", "porque", "que", "quando", "se", "embora"}),
    "nl": frozenset({"en", "maar", "of", "want", "omdat", "dat", "als", "wanneer"}),
}
_SENTENCE_END = set(".?!…。？！")
_CLAUSE_END = set(",;:、，；：")
_WORD = re.compile(r"[\w']+", re.UNICODE)


def _last_word(text: str) -> str:
    words = _WORD.findall(text.lower())
    return words[-1] if words else ""


def _first_word(text: str) -> str:
    words = _WORD.findall(text.lower())
    return words[0] if words else ""


def break_score(before: str, after: str, language: str | None, conjunctions: bool = True) -> float:
    """How good a break between ``before`` and ``after`` is: > 0 good, < 0 bad; an article before it is -10.

    Scored on the texts' edges only, so it serves both a line break inside a cue and a
    cut between cues; a cut leaves ``conjunctions`` out, so a clause is split between
    cues only at its punctuation (a translation is judged cue by cue, and half a clause
    translates worse than a line of it).
    """
    end = before.rstrip("\"'”’»)]」』 ")
    if end and end[-1] in _SENTENCE_END:
        return 1.0
    if end and end[-1] in _CLAUSE_END:
        return 0.6
    lang = base_language(language)
    if _last_word(before) in ARTICLES.get(lang, ()) or before.rstrip().endswith("'") and lang in ("fr", "it"):
        return -10.0
    if conjunctions and _first_word(after) in CONJUNCTIONS.get(lang, ()):
        return 0.4
    return 0.0


# ----------------------------------------------------------------------- clean-up

_SOUND_TAG = re.compile(r"\[[^\]\n]{1,40}\]|\((?:[^)\n]{1,40})\)|[♪♫♩♬]+")
_TAG_WORDS = re.compile(r"^[\w\s'-]+$", re.UNICODE)


def remove_sound_tags(text: str) -> str:
    """``text`` without sound tags: ``[music]``, ``(applause)``, ``♪``; parentheses around speech
    (more than three words) are kept, they are words someone said."""
    def drop(match: re.Match[str]) -> str:
        tag = match.group(0)
        if tag[0] in "[(":
            inner = tag[1:-1]
            if not _TAG_WORDS.match(inner) or len(inner.split()) > 3:
                return tag
        return " "
    return " ".join(_SOUND_TAG.sub(drop, text).split())


def collapse_repeats(text: str, times: int = 3) -> tuple[str, bool]:
    """``text`` with a phrase said ``times`` or more times in a row kept once; and whether one was.

    Whisper's loops ("thank you thank you thank you …") fill a cue with one phrase; the
    phrase is matched word by word (or character by character for text without spaces),
    1 to 8 units long, case and punctuation ignored.
    """
    spaced = " " in text.strip()
    if not spaced and script_language(text) is None:
        return text, False  # one Latin word ("xxxxxx" in a URL) is no phrase said again
    units = text.split() if spaced else list(text)
    if len(units) < times:
        return text, False
    keys = [re.sub(r"[^\w]", "", u.lower()) or u for u in units]
    out: list[str] = []
    i, changed = 0, False
    while i < len(units):
        found = span = 0
        for size in range(1, 9):
            phrase = keys[i:i + size]
            if len(phrase) < size:
                break
            count = 1
            while keys[i + count * size:i + (count + 1) * size] == phrase:
                count += 1
            if count >= times:
                found = size
                span = count * size
                break
        if found:
            # The first copy's words (its capital), with the last copy's closing punctuation.
            out.extend(units[i:i + found - 1] + [units[i + span - 1]])
            i += span
            changed = True
        else:
            out.append(units[i])
            i += 1
    return (" ".join(out) if spaced else "".join(out)), changed
