"""The language picker shared by Settings and the first-run page: common languages by name, any ISO code typed by hand."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QWidget

LANGUAGES = (("en", "English"), ("zh", "Chinese"), ("ja", "Japanese"), ("ko", "Korean"), ("fr", "French"),
             ("de", "German"), ("es", "Spanish"), ("pt", "Portuguese"), ("it", "Italian"), ("ru", "Russian"),
             ("ar", "Arabic"), ("hi", "Hindi"), ("nl", "Dutch"), ("pl", "Polish"), ("tr", "Turkish"),
             ("vi", "Vietnamese"), ("th", "Thai"), ("id", "Indonesian"), ("uk", "Ukrainian"), ("sv", "Swedish"))


class LanguageCombo(QComboBox):
    def __init__(self, parent: QWidget | None = None, auto: bool = False):
        super().__init__(parent)
        self.setEditable(True)
        if auto:
            self.addItem(self.tr("Detect automatically"), "")
        for code, name in LANGUAGES:
            self.addItem(f"{self.tr(name)} ({code})", code)

    def set_code(self, code: str) -> None:
        index = self.findData(code)
        if index < 0:
            self.addItem(code, code)
            index = self.count() - 1
        self.setCurrentIndex(index)

    def code(self) -> str:
        """The chosen code; a code typed by hand (e.g. ``sw``) is taken as it is."""
        index = self.findText(self.currentText())
        if index >= 0:
            return str(self.itemData(index))
        return self.currentText().strip().lower()
