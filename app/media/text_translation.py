"""What of a text to machine-translate for search, from which language, and into which (issue 38).

Search crosses languages in two directions, both through the installed OPUS-MT packages:

- **the text to the query**, once, at indexing: an image's OCR text in a language with a
  route to the languages people search in is translated line by line, and the
  translations are indexed beside it (:data:`~app.store.search_schema.TRANSLATION_SCHEMA`);
- **the query to the text**, at search time (:mod:`app.engine.query_translation`).

Languages are told by script first (kana → Japanese, Hangul → Korean, Han alone →
Chinese), which is certain where it applies and works on a two-character query, then by
py3langid for alphabetic text long enough to identify.

Japanese text with no Japanese package installed still has its kanji compounds: place
and person names (大阪, 関西, 浙江省) and many nouns (万博, 春分) are written and read alike
in Chinese, so with a Chinese package each run of two or more Han characters is translated
on its own (a name found across scripts: "Osaka" ↔ 大阪). Kana words (ダンスバトル) are
not; that needs a Japanese package, or a romaniser: cutlet (MIT, with fugashi and
unidic-lite) reads ダンスバトル as "Dance battle" and 大阪 as "Osaka"; indexed as one more
row per Japanese line it lifted ``bench/search_relevance.py`` from MRR@10 0.952 to 0.966
(cross-language 0.778 → 0.889, silence 100 %), measured but not yet a dependency.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from app.media.craft import script_language
from app.media.naming import normalise_language
from app.store.search_writes import TextTranslation

Translate = Callable[[str, str, list[str]], list[str]]
"""``(from, to, texts) → translations``, one per text, through an installed route."""
HasRoute = Callable[[str, str], bool]

_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
MIN_LETTERS = 8
"""Fewer letters of an alphabetic script than this: too short to tell its language (a query like "Osaka")."""
MIN_PROBABILITY = 0.8
"""py3langid's probability a text's language needs before it is translated from it."""
MAX_LINES = 48
"""OCR lines of one image translated (a sign or a page; the rest of a long scan is left to its own words)."""
MAX_GLOSSES = 32
"""Kanji compounds of one Japanese text translated alone."""
SCRIPT_LANGUAGES = ("zh", "ja", "ko")


def text_language(text: str) -> str | None:
    """The language of ``text``, or None when it cannot be told (too short, mixed, numbers only)."""
    script = script_language(text)
    if script:
        return script
    letters = sum(1 for ch in text if unicodedata.category(ch).startswith("L"))
    if letters < MIN_LETTERS:
        return None
    from app.media.translation_quality import LanguageIdentifier

    code, probability = LanguageIdentifier.best(text)
    return normalise_language(code) if probability >= MIN_PROBABILITY else None


@dataclass(frozen=True)
class Request:
    """One text to translate: its language, the package's source language it goes through, and the target."""

    source_lang: str
    route_from: str
    target: str
    text: str


def translation_requests(ocr_text: str, targets: Iterable[str], has_route: HasRoute) -> list[Request]:
    """Each OCR line of ``ocr_text`` translated into every target its language has a route to; kanji
    compounds of Japanese text through Chinese when Japanese has no route (module docstring).

    Lines, not the passages e5 embeds: OCR lines of a sign or an ad are fragments ("正品促销",
    "日常价", "极速发货"), and joined into one passage the translator kept one of seven
    ("- 40°C deep ice-freezing.").
    """
    units = list(dict.fromkeys(" ".join(line.split()) for line in ocr_text.splitlines() if line.strip()))[:MAX_LINES]
    wanted = [normalise_language(t) for t in dict.fromkeys(targets) if t]
    requests: list[Request] = []
    glosses: dict[str, None] = {}
    for unit in units:
        lang = text_language(unit)
        if lang is None:
            continue
        for target in wanted:
            if target == lang:
                continue
            if has_route(lang, target):
                requests.append(Request(lang, lang, target, unit))
            elif lang == "ja" and has_route("zh", target):
                glosses.update(dict.fromkeys(_HAN_RUN.findall(unit)))
    for target in wanted:
        if target != "ja" and has_route("zh", target):
            requests += [Request("ja", "zh", target, run) for run in list(glosses)[:MAX_GLOSSES]]
    return requests


def translate_requests(requests: Sequence[Request], translate: Translate) -> list[TextTranslation]:
    """Run the requests, one translator call per (route, target); a translation that only echoes its source is dropped."""
    groups: dict[tuple[str, str], list[Request]] = {}
    for request in requests:
        groups.setdefault((request.route_from, request.target), []).append(request)
    found = []
    for (route_from, target), members in groups.items():
        lines = translate(route_from, target, [m.text for m in members])
        for request, line in zip(members, lines, strict=True):
            line = " ".join(line.split())
            if line and line.casefold() != request.text.casefold():
                found.append(TextTranslation(request.source_lang, target, request.text, line))
    return found
