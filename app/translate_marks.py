"""The marker that puts a source string into the windows' catalogues, usable below the GUI (no Qt).

pyside6-lupdate finds ``QT_TRANSLATE_NOOP("Context", "text")`` calls by name in every file
scripts/update-translations lists; the settings' declarations (app/settings.py) and the codes'
explanations (app/codes.py) are marked with it, so the CLI, the README and the windows read the
same English source, and the windows show it translated
(``QCoreApplication.translate(context, text)``).
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """Mark ``source`` for translation under ``context``; returns it as is.

    Qt's own marker is declared to return ``object``, so every label built from it
    needed a cast; this one says what it gives back, a ``str``.
    """
    return source
