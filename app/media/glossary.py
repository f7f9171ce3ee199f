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

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

#: The key in a job's (and an item's) options.
OPTION_KEY = "glossary"


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


def from_options(options: Mapping[str, Any]) -> tuple[GlossaryEntry, ...]:
    """The glossary a job or item runs with; none when the option is absent."""
    return tuple(GlossaryEntry(str(term), None if rendering in (None, "") else str(rendering))
                 for term, rendering in options.get(OPTION_KEY) or ())


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
