"""The words the windows show for engine states and stage names, in the person's language.

States (``app/store/states.py``) and stage names are identifiers: stored in the
database, printed by the CLI, compared by code. The windows show a translated word
for each; the English word is the identifier itself, so the English window reads as
before. A value without a word here (a stage added later) is shown as it is.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

WORDS = frozenset({
    # job and item states
    QT_TRANSLATE_NOOP("States", "creating"), QT_TRANSLATE_NOOP("States", "queued"),
    QT_TRANSLATE_NOOP("States", "pending"), QT_TRANSLATE_NOOP("States", "running"),
    QT_TRANSLATE_NOOP("States", "paused"), QT_TRANSLATE_NOOP("States", "review"),
    QT_TRANSLATE_NOOP("States", "completed"), QT_TRANSLATE_NOOP("States", "failed"),
    QT_TRANSLATE_NOOP("States", "skipped"),
    # the stages of the video, audio and image pipelines
    QT_TRANSLATE_NOOP("States", "extract_audio"), QT_TRANSLATE_NOOP("States", "transcribe"),
    QT_TRANSLATE_NOOP("States", "translate"), QT_TRANSLATE_NOOP("States", "render"),
    QT_TRANSLATE_NOOP("States", "place"), QT_TRANSLATE_NOOP("States", "visual"),
    QT_TRANSLATE_NOOP("States", "describe"), QT_TRANSLATE_NOOP("States", "text_embedding"),
})


def state_word(value: str) -> str:
    """``value`` (a state or a stage name) as the windows' language says it."""
    return QCoreApplication.translate("States", value) if value in WORDS else value
