"""The windows speak Simplified Chinese and German: no string is left in English, and the catalogues cannot drift.

The walk covers what a person reads on the main window and the Settings dialog:
labels, buttons, actions, group and tab titles, table headers (from the models),
window titles, tooltips, placeholders, combo box entries, menus and the status bar.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QAbstractButton, QApplication, QComboBox, QGroupBox, QLabel, QLineEdit, QMenu,
                               QProgressBar, QTableView, QTabWidget, QWidget)


from app.gui.app import Gui
from app.gui.settings_dialog import LANGUAGE_NOTICE, SettingsDialog
from app.gui.state_words import state_word
from app.gui.translations import CATALOGUES, catalogue_for, install_translators
from app.settings import Settings, load_settings, save_settings

from tests.engine_stages import make_media


REPO = Path(__file__).resolve().parents[2]
I18N = REPO / "resources" / "i18n"
BIN = Path(sys.executable).parent

#: Words that are the same in every language here: the product's name, technical terms,
#: file and preset names the person types or sees on disk, and languages named in their own tongue.
TECHNICAL = re.compile(r"Sidecar|sha256|GPU|CLIP|OCR|SRT|ASS|MB|GB|media-server|compat|English|Deutsch|"
                       r"With Jellyfin, Plex, Emby and Bazarr|README|Jellyfin|Emby|Plex|Bazarr|Whisper|X-Plex-Token|API|URL|"
                       r"Authorization: Bearer|`[^`]*`|serve_\w+|SERVER_PREFIX=LOCAL_PREFIX|\?token=|Netflix|WebVTT|\.argosmodel|\.srt\b|\.vtt\b|\[music\]|\(applause\)|"
                       r"Ctrl|Shift|OpenAI|LM Studio|Ollama|ComfyUI|llama\.cpp server|Apache-2\.0|CC-BY-4\.0|translate-[a-z]{2}-[a-z]{2}|[\w.-]+-instruct|(?:https?|postgresql\+psycopg)://\S+|"
                       r"[\w.-]+\.(?:srt|ass|vtt|json|jpg|mp4)\b|[A-Za-z]:?[/\\][^\s]*|/[^\s]*|\((?:[a-z]{2}(?:_[A-Z]{2})?)\)")
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
#: German strings that are rightly the same as the English source.
SAME_IN_GERMAN = {"Status", "Engine", "System", "Sidecar", "English", "Deutsch", "简体中文", "media-server", "compat",
                  "http://127.0.0.1:1234/v1",
                  "Revision:", "MB", " MB", "Hindi (hi)", "Server"}


def _texts(root: QWidget) -> list[tuple[str, str]]:
    """(where, text) for every string a person can read on ``root`` and its children, in a stable order."""
    found: list[tuple[str, str]] = []

    def add(where: str, text: str | None) -> None:
        text = re.sub(r"<[^>]+>", "", text or "").strip()  # rich text: only what is drawn counts
        if text:
            found.append((where, text))

    for widget in [root, *root.findChildren(QWidget)]:
        name = type(widget).__name__
        if widget.isWindow():
            add(f"{name}.windowTitle", widget.windowTitle())
        add(f"{name}.toolTip", widget.toolTip())
        if isinstance(widget, QLabel):
            add("QLabel", widget.text())
        elif isinstance(widget, QAbstractButton):
            add(f"{name}.text", widget.text())
        elif isinstance(widget, QGroupBox):
            add("QGroupBox", widget.title())
        elif isinstance(widget, QLineEdit):
            add("QLineEdit.placeholder", widget.placeholderText())
        elif isinstance(widget, QComboBox):
            for n in range(widget.count()):
                add("QComboBox.item", widget.itemText(n))
        elif isinstance(widget, QProgressBar):
            add("QProgressBar.format", widget.format())
        elif isinstance(widget, QMenu):
            add("QMenu", widget.title())
        elif isinstance(widget, QTabWidget):
            for n in range(widget.count()):
                add("QTabWidget.tab", widget.tabText(n))
        elif isinstance(widget, QTableView):
            for col in range(widget.horizontalHeader().count()):
                add(f"{name}.header", widget.model().headerData(col, Qt.Orientation.Horizontal))
    for action in root.findChildren(QAction):
        add("QAction", action.text())
        add("QAction.toolTip", action.toolTip())
    return found


def _screens(gui: Gui, qtbot: Any) -> list[tuple[str, str]]:
    """The main window with its status bar settled, then the Settings dialog once its models are listed."""
    qtbot.waitUntil(lambda: gui.facade.settings.current is not None, timeout=20000)
    qtbot.waitUntil(lambda: "…" not in gui.window.statusBar().currentMessage(), timeout=20000)
    texts = _texts(gui.window) + [("status bar", gui.window.statusBar().currentMessage())]
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    qtbot.waitUntil(lambda: dialog.models.rowCount() > 0, timeout=20000)
    texts += _texts(dialog)
    dialog.reject()
    return texts


@pytest.fixture
def in_language(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> Iterator[Callable[[str], Gui]]:
    """Start the app on a fresh data dir whose settings choose a language; English again afterwards."""
    def start(code: str) -> Gui:
        root = tmp_path / f"data-{code}"
        root.mkdir()
        save_settings(root, Settings(ui_language=code))
        return start_gui(root=root)

    yield start
    install_translators(QApplication.instance(), "en")  # type: ignore[arg-type]


def test_main_window_and_settings_in_chinese_leave_nothing_in_english(qtbot: Any, tmp_path: Path,
                                                                      in_language: Callable[[str], Gui]) -> None:
    gui = in_language("zh_CN")
    make_media(tmp_path / "假期", 2)
    gui.window.add_paths([tmp_path / "假期"])
    jobs, queue = gui.window.jobs_model, gui.window.queue.model
    qtbot.waitUntil(lambda: jobs.rowCount() == 1 and jobs.jobs[0].status == "completed", timeout=60000)
    qtbot.waitUntil(lambda: queue.rowCount() == 2 and all(
        (item := queue.item_at(r)) is not None and item.status == "completed" for r in range(2)), timeout=20000)
    assert [jobs.data(jobs.index(0, 1))] + [queue.data(queue.index(r, 2)) for r in range(2)] == ["已完成"] * 3
    texts = _screens(gui, qtbot)
    assert ("QTabWidget.tab", "队列") in texts and ("QAction", "全部暂停") in texts
    assert ("QPushButton.text", "保存") in texts, "Qt's own catalogue (standard buttons) was not loaded"
    english = [(where, text) for where, text in texts if ENGLISH_WORD.search(TECHNICAL.sub("", text))]
    assert english == [], f"left in English: {english}"


def test_german_differs_from_english_wherever_a_word_is_shown(qtbot: Any, in_language: Callable[[str], Gui]) -> None:
    english = _screens(in_language("en"), qtbot)
    german = _screens(in_language("de"), qtbot)
    assert [where for where, _ in german] == [where for where, _ in english]
    same = [(where, en) for (where, en), (_, de) in zip(english, german)
            if en == de and en not in SAME_IN_GERMAN and ENGLISH_WORD.search(TECHNICAL.sub("", en))]
    assert same == [], f"not translated into German: {same}"
    assert ("QAction", "Alle anhalten") in german and ("QPushButton.text", "Speichern") in german



def test_language_chosen_in_settings_is_saved_for_the_next_start(qtbot: Any, data_dir: Path,
                                                                  start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    qtbot.waitUntil(lambda: gui.facade.settings.current is not None, timeout=20000)
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    language = dialog.fields["ui_language"]
    assert [language.itemData(n) for n in range(language.count())] == ["", "en", "zh_CN", "de"]
    language.set_value("de")
    assert LANGUAGE_NOTICE in dialog.notice.text() and dialog.notice.isVisibleTo(dialog)
    with qtbot.waitSignal(gui.facade.settings.settingsSaved, timeout=10000):
        dialog.save()
    assert load_settings(data_dir).ui_language == "de"


def test_language_follows_the_locale_unless_settings_choose() -> None:
    from PySide6.QtCore import QLocale

    assert catalogue_for(QLocale("zh_CN")) == "zh_CN" and catalogue_for(QLocale("zh_TW")) == "zh_CN"
    assert catalogue_for(QLocale("de_AT")) == "de" and catalogue_for(QLocale("fr_FR")) is None
    app = QApplication.instance()
    assert install_translators(app, "de") == "de"  # type: ignore[arg-type]
    assert QApplication.translate("MainWindow", "Queue") == "Warteschlange"
    assert (state_word("running"), state_word("transcribe"), state_word("new_stage")) == ("Läuft", "Transkribieren", "new_stage")
    assert install_translators(app, "en") is None  # type: ignore[arg-type]
    assert QApplication.translate("MainWindow", "Queue") == "Queue", "an earlier catalogue stayed installed"


PLACEHOLDER = re.compile(r"\{[a-z_]+(?::[^}]*)?\}|%[nvm]")


def _messages(ts: Path) -> Iterator[tuple[str, str, list[str], bool]]:
    """(context, source, translations, unfinished) for each message of a .ts file."""
    for context in ET.parse(ts).getroot().iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            forms = [f.text or "" for f in translation.findall("numerusform")] or [translation.text or ""]
            yield (context.findtext("name", ""), message.findtext("source", ""), forms,
                   translation.get("type") in ("unfinished", "vanished", "obsolete"))


@pytest.mark.parametrize("code", CATALOGUES)
def test_catalogue_translates_every_string_of_the_code_and_keeps_its_placeholders(tmp_path: Path, code: str) -> None:
    """lupdate over today's app/gui finds nothing new to translate; every translation keeps {name}s and %n."""
    ts = tmp_path / f"sidecar_{code}.ts"
    shutil.copy(I18N / ts.name, ts)
    sources = sorted(str(p) for p in (REPO / "app" / "gui").rglob("*.py"))
    subprocess.run([str(BIN / "pyside6-lupdate"), "-silent", "-no-obsolete", "-locations", "none", *sources,
                    "-ts", str(ts)], check=True, cwd=REPO)
    messages = list(_messages(ts))
    assert len(messages) > 150
    unfinished = [source for _, source, _, pending in messages if pending]
    assert unfinished == [], f"{code}: not translated yet (run scripts/update-translations): {unfinished}"
    for context, source, forms, _ in messages:
        for form in forms:
            assert form.strip() or not source.strip(), f"{code}: empty translation of {context}/{source!r}"
            assert sorted(PLACEHOLDER.findall(form)) == sorted(PLACEHOLDER.findall(source)), \
                f"{code}: {context}/{source!r} → {form!r} changes its placeholders"


@pytest.mark.parametrize("code", CATALOGUES)
def test_committed_catalogue_is_compiled_from_its_source(tmp_path: Path, code: str) -> None:
    """The .qm the app loads is exactly what lrelease makes of the committed .ts (they cannot drift)."""
    compiled = tmp_path / f"sidecar_{code}.qm"
    subprocess.run([str(BIN / "pyside6-lrelease"), "-silent", str(I18N / f"sidecar_{code}.ts"), "-qm", str(compiled)],
                   check=True)
    assert compiled.read_bytes() == (I18N / compiled.name).read_bytes(), "run scripts/update-translations"


def test_job_label_counts_and_the_heard_language_are_translated(qapp: Any) -> None:
    from app.gui.jobs_view import JobsModel
    from app.codes import Code
    from app.gui.queue_rows import audio_text
    from app.store.records import ItemFacts
    from app.status_words import ALL_FAILED, FAILED, TO_DECIDE, Count

    _count = JobsModel().count_words

    try:
        assert install_translators(qapp, "zh_CN") == "zh_CN"
        assert [_count(Count(what, n)) for what, n in (
            (FAILED, 2), (ALL_FAILED, 3), (TO_DECIDE, 1), (Code.TRANSLATION_FAILED, 4))] == [
            "2 个失败", "全部 3 个失败", "1 个待决定", "4 个未翻译"]
        assert audio_text(ItemFacts(language="de", language_probability=0.55)) == "德语（自动识别）"
        assert install_translators(qapp, "de") == "de"
        assert _count(Count(FAILED, 2)) == "2 fehlgeschlagen"
    finally:
        install_translators(qapp, "en")
    assert _count(Count(FAILED, 2)) == _count(Count(FAILED, 2)) == Count(FAILED, 2).english() == "2 failed"


@pytest.mark.parametrize("code", CATALOGUES)
def test_the_reviews_why_and_the_decisions_reason_read_differently(qapp: Any, code: str) -> None:
    from PySide6.QtCore import QCoreApplication

    try:
        assert install_translators(qapp, code) == code
        why, reason = (QCoreApplication.translate("ReviewPanel", text) for text in ("Why:", "Reason:"))
        assert why != reason and why != "Why:" and reason != "Reason:"
    finally:
        install_translators(qapp, "en")


@pytest.mark.parametrize("code", CATALOGUES)
def test_every_codes_explanation_is_translated_and_shown_translated(qapp: Any, code: str) -> None:
    from app.codes import EXPLANATIONS, WHAT_TO_DO, Code
    from app.gui.translations import code_words
    from app.status_words import problem

    texts = {t for e in EXPLANATIONS.values() for t in (e.sentence, e.advice) if t} | {WHAT_TO_DO}
    try:
        assert install_translators(qapp, code) == code
        left = sorted(t for t in texts if code_words(t) == t)
        assert left == [], f"explanations left in English in {code}: {left}"
        shown = problem(Code.DISK_FULL, "", code_words).details()
        assert code_words("The disk holding the folder is full.") in shown and code_words(WHAT_TO_DO).split("{")[0] in shown
        assert "The disk" not in shown and "What to do" not in shown
    finally:
        install_translators(qapp, "en")
    assert problem(Code.DISK_FULL, "", code_words).details() == problem(Code.DISK_FULL, "").details()
