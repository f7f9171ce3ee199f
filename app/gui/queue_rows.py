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
from typing import Any, Mapping, Sequence

from PySide6.QtCore import QCoreApplication

from app.gui.state_words import state_word
from app.shown_names import one_line
from app.status_words import item_words
from app.store.records import ItemView

log = logging.getLogger(__name__)

#: Why a stream was used, as the Audio column's tooltip says it (keys: ``audio_stream.reason``).
_AUDIO_REASONS = {"chosen": "chosen by you", "chosen_missing": "the chosen track is missing; chosen by rule",
                  "language": "in the source language", "default": "the file's default track",
                  "first": "the first dialogue track", "only": "the only track"}

ITEM, STAGE, STATUS, PROGRESS, AUDIO, ERROR, NOTE = range(7)


def audio_text(facts: Mapping[str, Any]) -> str:
    """The Audio column: ``2/3 eng — Commentary`` (track of tracks, language tag, title), then the language heard."""
    stream = facts.get("audio_stream") or {}
    text = ""
    if stream:
        text = f"{stream['track']}/{stream['tracks']} {stream.get('language') or ''}".rstrip()
        text += f" — {stream['title']}" if stream.get("title") else ""
    if facts.get("language"):
        heard = QCoreApplication.translate("QueueModel", "heard: {language} ({percent} %)").format(
            language=facts["language"], percent=round(float(facts.get("language_probability") or 0) * 100))
        text += ("  · " if text else "") + heard
    return text


@dataclass(frozen=True)
class QueueRow:
    """One item with its cells' text and tooltips, ready to show."""

    item: ItemView
    display: tuple[str, ...]  # one per column
    tooltips: tuple[str | None, ...]  # one per column
    progress: int  # percent, for the progress bar


def queue_row(item: ItemView) -> QueueRow:
    """The row of ``item``: its cells' words in the window's language (safe on any thread)."""
    words = item_words(item)
    problem_details = words.problem.details() if words.problem else ""
    progress = round(item.progress * 100)
    display = (one_line(Path(item.path).name), state_word(item.stage or ""), state_word(item.status), f"{progress} %",
               audio_text(item.facts), words.problem.cell() if words.problem else "", words.note)
    stream = item.facts.get("audio_stream")
    audio_tip = (f"audio track {stream['track']}: {_AUDIO_REASONS.get(stream['reason'], stream['reason'])}"
                 if stream else None)
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
