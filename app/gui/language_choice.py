"""The language picker shared by Settings and the first-run page: common languages by name, any ISO code typed by hand."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QWidget

from app.gui.translations import QT_TRANSLATE_NOOP
from app.gui.facade.calculations import english_name, normalise_language

LANGUAGES = (
    ("en", QT_TRANSLATE_NOOP("LanguageCombo", "English")),
    ("zh", QT_TRANSLATE_NOOP("LanguageCombo", "Chinese")),
    ("ja", QT_TRANSLATE_NOOP("LanguageCombo", "Japanese")),
    ("ko", QT_TRANSLATE_NOOP("LanguageCombo", "Korean")),
    ("fr", QT_TRANSLATE_NOOP("LanguageCombo", "French")),
    ("de", QT_TRANSLATE_NOOP("LanguageCombo", "German")),
    ("es", QT_TRANSLATE_NOOP("LanguageCombo", "Spanish")),
    ("pt", QT_TRANSLATE_NOOP("LanguageCombo", "Portuguese")),
    ("it", QT_TRANSLATE_NOOP("LanguageCombo", "Italian")),
    ("ru", QT_TRANSLATE_NOOP("LanguageCombo", "Russian")),
    ("ar", QT_TRANSLATE_NOOP("LanguageCombo", "Arabic")),
    ("hi", QT_TRANSLATE_NOOP("LanguageCombo", "Hindi")),
    ("nl", QT_TRANSLATE_NOOP("LanguageCombo", "Dutch")),
    ("pl", QT_TRANSLATE_NOOP("LanguageCombo", "Polish")),
    ("tr", QT_TRANSLATE_NOOP("LanguageCombo", "Turkish")),
    ("vi", QT_TRANSLATE_NOOP("LanguageCombo", "Vietnamese")),
    ("th", QT_TRANSLATE_NOOP("LanguageCombo", "Thai")),
    ("id", QT_TRANSLATE_NOOP("LanguageCombo", "Indonesian")),
    ("uk", QT_TRANSLATE_NOOP("LanguageCombo", "Ukrainian")),
    ("sv", QT_TRANSLATE_NOOP("LanguageCombo", "Swedish")),
)


def language_name(code: str) -> str:
    """``de`` as the windows' language names it ("German", "德语"); a code outside the list by its English name."""
    code = normalise_language(code)
    for known, name in LANGUAGES:
        if known == code:
            return QCoreApplication.translate("LanguageCombo", name)
    return english_name(code) or code


class LanguageCombo(QComboBox):
    def __init__(self, parent: QWidget | None = None, auto: bool = False):
        super().__init__(parent)
        self.setEditable(True)
        if auto:
            self.addItem(QCoreApplication.translate("LanguageCombo", "Detect automatically"), "")
        for code, name in LANGUAGES:
            self.addItem(f"{QCoreApplication.translate('LanguageCombo', name)} ({code})", code)  # one context for subclasses too

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
