"""A library's own words: names and terms a person gives Sidecar (SPEC §16).

A glossary is a list of terms, each with an optional required rendering in the target
language ("ComfyUI", "Jon Snow", "Bahnhof = station"). It travels in a job's frozen
options under the key ``glossary`` as a JSON list of ``[term, rendering-or-null]`` pairs,
so it is snapshotted with the job like every other option and changes the fingerprint of
the stages that read it. Two readers: Whisper hears the terms as written (``hotwords``),
and translation must render each term as given (checked per cue).

This module holds the type, the parsers for the CLI/settings forms and the options codec;
it imports nothing of the engine so the media and ml layers can use it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

#: Most words Whisper splits one glossary term into ("Comfy UI", "Comfy-U-I").
MAX_SPLIT_WORDS = 4
#: A word as Whisper's word timestamps give it: leading space, the word, trailing punctuation.
_WORD = re.compile(r"\s*\S+")


@dataclass(frozen=True)
class GlossaryEntry:
    """One term; ``rendering`` is what a translation must say for it (None: keep the term as is)."""

    term: str
    rendering: str | None = None

    @property
    def required_in_translation(self) -> str:
        """The text a translated cue must contain when its source contains ``term``."""
        return self.rendering if self.rendering else self.term


def parse_entry(text: str) -> GlossaryEntry | None:
    """``term`` or ``term = rendering`` (also ``term=rendering``); blank lines and ``#`` comments give None."""
    line = text.strip()
    if not line or line.startswith("#"):
        return None
    term, sep, rendering = line.partition("=")
    term, rendering = term.strip(), rendering.strip()
    if not term:
        return None
    return GlossaryEntry(term, rendering if sep and rendering else None)


def parse_lines(lines: Iterable[str]) -> tuple[GlossaryEntry, ...]:
    """A glossary file or settings text box: one entry a line; later duplicates of a term win."""
    entries: dict[str, GlossaryEntry] = {}
    for line in lines:
        entry = parse_entry(line)
        if entry is not None:
            entries[entry.term.casefold()] = entry
    return tuple(entries.values())


def to_option(entries: Iterable[GlossaryEntry]) -> list[list[str | None]]:
    """The JSON form stored in a job's options (sorted, so the fingerprint is stable)."""
    return [[e.term, e.rendering] for e in sorted(entries, key=lambda e: e.term.casefold())]


def from_option(pairs: Iterable[Sequence[str | None]]) -> tuple[GlossaryEntry, ...]:
    """The entries :func:`to_option` wrote (a stored job's; TypeError or ValueError: not pairs)."""
    return tuple(GlossaryEntry(str(term), None if rendering in (None, "") else str(rendering)) for term, rendering in pairs)


def merged(library: Iterable[GlossaryEntry], job: Iterable[GlossaryEntry]) -> tuple[GlossaryEntry, ...]:
    """The library-wide glossary (Settings) with a job's own terms over it: the job's rendering of a term wins."""
    entries = {e.term.casefold(): e for e in library}
    entries.update({e.term.casefold(): e for e in job})
    return tuple(entries.values())


def hotwords(entries: Iterable[GlossaryEntry]) -> str | None:
    """The terms as Whisper hears them (faster-whisper's ``hotwords``): the spoken forms, comma-separated.

    Only the terms, never their renderings: a rendering is target-language text and would
    steer transcription towards words nobody said. So a changed rendering leaves the
    transcription (and its fingerprint) as it was. Whisper reads at most about 220 tokens
    of it (half its context); a longer glossary is cut there, in the sorted order.
    """
    terms = sorted({e.term for e in entries}, key=str.casefold)
    return ", ".join(terms) if terms else None


def _letters(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _case_matters(term: str) -> bool:
    """A term whose capitals sit inside it (ComfyUI, iPhone, GPT4o): no ordinary word is spelled so."""
    return term not in (term.lower(), term.capitalize(), term.upper()) or any(ch.isdigit() for ch in term)


def respellings(words: Sequence[str], entries: Iterable[GlossaryEntry]) -> list[tuple[int, int, str]]:
    """Runs of ``words`` that are a glossary term heard with other spacing or case: ``(first, last, text)``.

    Whisper given a term as a hotword still often writes it split or cased its own way
    ("Comfy UI", "Comfy-UI", "comfyui" for ComfyUI). A run of two to
    :data:`MAX_SPLIT_WORDS` adjacent words whose letters and digits are exactly the term's
    (case folded) is the term; so is one word that differs only in case, for a term whose
    case is part of it (:func:`_case_matters`: "Will" never turns "will" into a name).
    Only exact letters count: a near miss ("confu i") stays as heard, since a fuzzy match
    would rewrite real words. ``text`` keeps the first word's leading space and the last
    word's trailing punctuation.
    """
    terms = {key: e.term for e in entries if len(key := _letters(e.term)) >= 3}
    found: list[tuple[int, int, str]] = []
    i = 0
    while i < len(words):
        for last in range(min(len(words), i + MAX_SPLIT_WORDS) - 1, i - 1, -1):
            term = terms.get(_letters("".join(words[i:last + 1])))
            if term is None or (last == i and not _case_matters(term)):
                continue
            if any(re.search(r"[^\w\s-]\s*$", w) for w in words[i:last]):
                continue  # punctuation between the words: two words, not one term
            core = words[i].strip()
            lead = words[i][: len(words[i]) - len(words[i].lstrip())]
            ending = words[last].strip()
            text = lead + term + ending[len(re.sub(r"\W+$", "", ending)):]
            if last > i or core != text.strip():
                found.append((i, last, text))
            i = last
            break
        i += 1
    return found


def respell_segment(segment: Mapping[str, Any], entries: Sequence[GlossaryEntry]) -> dict[str, Any]:
    """A transcribed segment with each glossary term written as given (:func:`respellings`), words and text alike.

    Words merged into one term keep the first one's start and the last one's end, so the
    cue built from them keeps its timing.
    """
    out = dict(segment)
    if not entries:
        return out
    words = [dict(w) for w in segment.get("words") or []]
    for first, last, text in reversed(respellings([str(w["word"]) for w in words], entries)):
        words[first:last + 1] = [{**words[first], "end": words[last]["end"], "word": text}]
    pieces = _WORD.findall(str(segment.get("text", "")))
    for first, last, text in reversed(respellings(pieces, entries)):
        pieces[first:last + 1] = [text]
    out["text"] = "".join(pieces).strip()
    if segment.get("words"):
        out["words"] = words
    return out
