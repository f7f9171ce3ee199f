"""Settings → Glossary: the library's own names and terms, one block the Settings dialog places where it likes.

Every new job (added, dropped or watched) freezes this list merged with its own terms
(``sidecar add --glossary``); Whisper then expects the terms while it listens, and a
translation must render each term as given. A self-contained box so the dialog's layout
(sections or tabs) can move it without touching what it holds.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGroupBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget


class GlossaryBox(QGroupBox):
    """A text box, one ``term`` or ``term = translation`` a line; ``changed`` on every edit."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(self.tr("Glossary"), parent)
        self.text = QPlainTextEdit(self)
        self.text.setMaximumHeight(110)
        self.text.setPlaceholderText(self.tr("ComfyUI\nJon Snow = Jon Schnee"))
        self.text.setToolTip(self.tr("One name or term a line; add “= translation” for how a translation must write it"))
        about = QLabel(self.tr("Names and terms of your library (characters, products, places): speech recognition "
                               "listens for them as written, and translations must render them as given. New jobs use "
                               "this list together with their own terms."), self)
        about.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(about)
        layout.addWidget(self.text)
        self.text.textChanged.connect(self.changed)

    def set_lines(self, lines: list[str]) -> None:
        self.text.setPlainText("\n".join(lines))

    def lines(self) -> list[str]:
        """The lines as typed, without blank ones (a job reads them with :func:`app.media.glossary.parse_lines`)."""
        return [line.strip() for line in self.text.toPlainText().splitlines() if line.strip()]
