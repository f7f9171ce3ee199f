"""The language of the windows: Sidecar's own catalogue and Qt's, chosen from the OS locale or the person's setting.

Qt widgets take their text when they are built, so the catalogue is installed once,
before the first window, and a change in Settings applies at the next start. The
catalogues are ``resources/i18n/sidecar_<code>.qm``, compiled from the ``.ts`` sources
by ``scripts/update-translations``; Qt's own ``qtbase_<code>.qm`` (standard dialog
buttons, file dialogs) comes from the Qt that PySide6 ships. Any locale without a
catalogue gets the English source text.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.resources import find_resource
from app.translate_marks import QT_TRANSLATE_NOOP as QT_TRANSLATE_NOOP  # GUI modules import the marker from here

log = logging.getLogger(__name__)


def code_words(text: str) -> str:
    """A code's explanation (app.codes, marked under the "Code" context) in the windows' language."""
    return QCoreApplication.translate("Code", text) if text else text

CATALOGUES = ("zh_CN", "de")
"""The languages with a catalogue under resources/i18n (English is the source text)."""

_installed: list[QTranslator] = []  # kept referenced: Qt does not own an installed translator


def catalogue_for(locale: QLocale) -> str | None:
    """The catalogue that serves ``locale``: any Chinese gets Simplified Chinese (the only Chinese one), any German gets German."""
    language = locale.language()
    if language == QLocale.Language.Chinese:
        return "zh_CN"
    if language == QLocale.Language.German:
        return "de"
    return None


def ui_locale(choice: str) -> QLocale:
    """The locale the windows speak: the Settings choice, or the OS's when it is "" (System)."""
    return QLocale(choice) if choice else QLocale.system()


def _install_english_plurals(app: QCoreApplication) -> None:
    """English windows: the source texts, except that a count says "1 job" and "2 jobs", not "1 job(s)"."""
    plurals = find_resource("i18n/sidecar_en.qm")
    english = QTranslator(app)
    if plurals is not None and english.load(str(plurals)):
        _installed.append(english)
        app.installTranslator(english)
    else:
        log.warning("the English plural catalogue is missing from this installation; counts read \"(s)\"")


def install_translators(app: QCoreApplication, choice: str) -> str | None:
    """Replace any catalogue installed before with the one ``choice`` asks for; returns its code, or None for English.

    Called again (tests build several windows in one process), it removes the earlier
    translators first, so catalogues never stack.
    """
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    code = catalogue_for(ui_locale(choice))
    if code is None:
        _install_english_plurals(app)
        return None
    own = find_resource(f"i18n/sidecar_{code}.qm")
    sidecar = QTranslator(app)
    if own is None or not sidecar.load(str(own)):
        log.warning("the %s catalogue is missing from this installation; the windows stay in English", code)
        return None
    qt = QTranslator(app)
    if qt.load(f"qtbase_{code}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        _installed.append(qt)
    else:
        log.info("Qt ships no qtbase_%s catalogue here; standard buttons stay in English", code)
    _installed.append(sidecar)
    for translator in _installed:
        app.installTranslator(translator)
    return code
