"""What one queue row shows, worked out off the GUI thread.

The queue of a 1,000-item job is re-read every few hundred milliseconds while it
runs. Turning an :class:`ItemView` into the words of its seven cells (state words,
problem and note sentences, the audio track) is pure Python; done in ``data()`` on
the GUI thread, once per cell per role per repaint, it added up to the stalls a
person feels while scrolling. The facade's worker thread builds a :class:`QueueRow`
per item instead (``QCoreApplication.translate`` is thread-safe), so ``data()`` only
indexes a tuple, and two reads of the same row compare equal when nothing shown changed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from PySide6.QtCore import QCoreApplication

from app.codes import REDONE_RESULTS
from app.gui.translations import QT_TRANSLATE_NOOP, code_words
from app.gui.language_choice import language_name
from app.gui.state_words import TRANSCRIPT_ONLY, state_word
from app.gui.facade.calculations import language_of, normalise_language
from app.gui.facade.records import AudioStreamFact, ItemFacts, ItemState, ItemView
from app.shown_names import one_line
from app.status_words import item_words

log = logging.getLogger(__name__)

#: Why a stream was used, as the Audio column's tooltip says it (keys: ``audio_stream.reason``).
_AUDIO_REASONS: dict[str, Any] = {"chosen": QT_TRANSLATE_NOOP("QueueModel", "chosen by you"),
                  "chosen_missing": QT_TRANSLATE_NOOP("QueueModel", "the chosen track is missing; chosen by rule"),
                  "language": QT_TRANSLATE_NOOP("QueueModel", "in the source language"),
                  "default": QT_TRANSLATE_NOOP("QueueModel", "the file's default track"),
                  "first": QT_TRANSLATE_NOOP("QueueModel", "the first dialogue track"),
                  "only": QT_TRANSLATE_NOOP("QueueModel", "the only track")}

ITEM, STAGE, STATUS, PROGRESS, AUDIO, ERROR, NOTE = range(7)


def _tagged(stream: AudioStreamFact) -> str | None:
    """The ISO 639-1 code the file tags the track with; None when untagged (``und``: undetermined) or unknown."""
    tag = stream.language or ""
    return None if tag in ("", "und") else (language_of(tag) or tag)


def audio_text(facts: ItemFacts) -> str:
    """The Audio column in words: ``English, detected``; ``Track 2 of 3 · German``; ``Japanese track; heard English``."""
    translate = QCoreApplication.translate
    stream = facts.audio_stream
    heard = facts.language
    tagged = _tagged(stream) if stream else None
    parts = []
    if stream and stream.tracks > 1:
        track = translate("QueueModel", "Track {track} of {tracks}").format(track=stream.track, tracks=stream.tracks)
        parts.append(track + (f" “{stream.title}”" if stream.title else ""))
    if heard and tagged and normalise_language(tagged) != normalise_language(heard):
        parts.append(translate("QueueModel", "{tagged} track; heard {heard}").format(
            tagged=language_name(tagged), heard=language_name(heard)))
    elif tagged:
        parts.append(language_name(tagged))
    elif heard:
        parts.append(translate("QueueModel", "{language}, detected").format(language=language_name(heard)))
    return " · ".join(parts)


def audio_tooltip(facts: ItemFacts) -> str | None:
    """The Audio column's details: which track and why, its tag (``und`` explained), what the speech sounded like."""
    translate = QCoreApplication.translate
    stream = facts.audio_stream
    lines = []
    if stream:
        reason = _AUDIO_REASONS.get(stream.reason)
        lines.append(translate("QueueModel", "Audio track {track} of {tracks}: {reason}.").format(
            track=stream.track, tracks=stream.tracks,
            reason=translate("QueueModel", reason) if reason else stream.reason))
        tagged = _tagged(stream)
        if tagged:
            lines.append(translate("QueueModel", "The file tags its language as {language}.").format(
                language=language_name(tagged)))
        else:
            lines.append(translate("QueueModel", "The file does not tag its language (“und”: undetermined)."))
    if facts.language:
        lines.append(translate("QueueModel", "Heard in the speech: {language} ({percent} % sure).").format(
            language=language_name(facts.language), percent=round((facts.language_probability or 0) * 100)))
    return "\n".join(lines) or None


def note_cell(text: str) -> str:
    """A note on one line: a table cell shows only the middle line of a text of several."""
    return "; ".join(line.strip() for line in text.splitlines() if line.strip())


@dataclass(frozen=True)
class QueueRow:
    """One item with its cells' text and tooltips, ready to show."""

    item: ItemView
    display: tuple[str, ...]  # one per column
    tooltips: tuple[str | None, ...]  # one per column
    progress: int  # percent, for the progress bar


def queue_row(item: ItemView) -> QueueRow:
    """The row of ``item``: its cells' words in the window's language (safe on any thread)."""
    words = item_words(item, code_words)
    problem_details = words.problem.details() if words.problem else ""
    progress = round(item.progress * 100)
    # "Completed" would hide that no translation was written: such a row says what it delivered
    untranslated = item.status == ItemState.COMPLETED and item.result in REDONE_RESULTS
    state = state_word(TRANSCRIPT_ONLY if untranslated else item.status)
    display = (one_line(Path(item.path).name), state_word(item.stage or ""), state, f"{progress} %",
               audio_text(item.facts), words.problem.cell() if words.problem else "", note_cell(words.note))
    audio_tip = audio_tooltip(item.facts)
    name_tip = "\n\n".join(part for part in (one_line(item.path), problem_details, words.note_details) if part)
    tooltips = (name_tip or None, None, None, None, audio_tip, problem_details or None, words.note_details or None)
    return QueueRow(item, display, tooltips, progress)


class RowCache:
    """:func:`queue_row` for a page of items, reusing the row of an item unchanged since it was last read.

    While a job runs, its pages are re-read a few times a second and most of their items
    (waiting or done) have not changed: their rows are the same objects as before, so
    neither the worker formats them again nor the GUI thread compares them field by
    field. Called on the facade's one-thread store lane only.
    """

    def __init__(self, limit: int = 5000):
        self.limit = limit
        self._rows: dict[int, QueueRow] = {}

    def __call__(self, items: Sequence[ItemView]) -> list[QueueRow]:
        if len(self._rows) + len(items) > self.limit:
            self._rows.clear()
        page = []
        for item in items:
            row = self._rows.get(item.id)
            if row is None or row.item != item:
                row = self._rows[item.id] = queue_row(item)
            page.append(row)
        return page
