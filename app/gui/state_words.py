"""The words the windows show for engine states and stage names, in the person's language.

States (``app/store/states.py``) and stage names are identifiers: stored in the
database, printed by the CLI, compared by code. The windows show a word for each,
marked here for translation. A value without a word here (a stage added later) is
shown as it is.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.gui.translations import QT_TRANSLATE_NOOP
from app.gui.facade.records import ItemState, JobSummaryStatus

TRANSCRIPT_ONLY = "transcript_only"
"""Not a state: a completed item whose translation did not happen (its result says why), as its row says it."""

WORDS: dict[str, str] = {
    JobSummaryStatus.CREATING: QT_TRANSLATE_NOOP("States", "Creating"), JobSummaryStatus.QUEUED: QT_TRANSLATE_NOOP("States", "Queued"),
    ItemState.PENDING: QT_TRANSLATE_NOOP("States", "Pending"), ItemState.RUNNING: QT_TRANSLATE_NOOP("States", "Running"),
    ItemState.PAUSED: QT_TRANSLATE_NOOP("States", "Paused"), ItemState.REVIEW: QT_TRANSLATE_NOOP("States", "Review"),
    ItemState.COMPLETED: QT_TRANSLATE_NOOP("States", "Completed"), ItemState.FAILED: QT_TRANSLATE_NOOP("States", "Failed"),
    ItemState.SKIPPED: QT_TRANSLATE_NOOP("States", "Skipped"),
    TRANSCRIPT_ONLY: QT_TRANSLATE_NOOP("States", "Transcript only"),
    # the stages of the video, audio and image pipelines (hash: every kind's first, the file's content identity)
    "hash": QT_TRANSLATE_NOOP("States", "Fingerprint"),
    "extract_audio": QT_TRANSLATE_NOOP("States", "Extract audio"), "transcribe": QT_TRANSLATE_NOOP("States", "Transcribe"),
    "translate": QT_TRANSLATE_NOOP("States", "Translate"), "render": QT_TRANSLATE_NOOP("States", "Render"),
    "place": QT_TRANSLATE_NOOP("States", "Place"), "visual": QT_TRANSLATE_NOOP("States", "Visual"),
    "index_dialogue": QT_TRANSLATE_NOOP("States", "Index dialogue"),
    "describe": QT_TRANSLATE_NOOP("States", "Describe"), "text_embedding": QT_TRANSLATE_NOOP("States", "Text embedding"),
}


def state_word(value: str) -> str:
    """``value`` (a state or a stage name) as the windows' language says it."""
    word = WORDS.get(value)
    return value if word is None else QCoreApplication.translate("States", word)
