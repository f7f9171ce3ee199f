"""Settings fit a 1280×800 screen without sideways scrolling in every language, and scrolling the page with
the wheel never changes a choice the person did not click into."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea

from app.gui.app import Gui
from app.gui.settings_dialog import SettingsDialog
from app.gui.translations import install_translators
from app.settings import SPECS


def _wheel(widget: Any, steps: int = -1) -> None:
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(), QPoint(0, 120 * steps),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_scrolls_past_an_unfocused_choice_and_changes_only_a_focused_one(
        qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    dialog = gui.window.open_settings()
    assert isinstance(dialog, SettingsDialog)
    qtbot.waitExposed(dialog)
    language, workers = dialog.fields["ui_language"], dialog.fields["workers"]
    for control in (language, workers):
        dialog.show_tab_of(control)
        before = control.value()
        dialog.buttons.setFocus()
        _wheel(control)
        assert control.value() == before, f"the wheel changed {type(control).__name__} without focus"
    dialog.show_tab_of(workers)
    workers.setFocus()
    qtbot.waitUntil(workers.hasFocus)
    start = workers.value()
    _wheel(workers, steps=1)
    assert workers.value() != start, "a focused spin box no longer takes the wheel"


@pytest.mark.parametrize("language", ["en", "zh_CN", "de"])
def test_every_settings_tab_fits_1280_by_800_without_scrolling_sideways(
        qtbot: Any, start_gui: Callable[..., Gui], language: str) -> None:
    gui = start_gui()
    install_translators(gui.app, language)
    try:
        dialog = SettingsDialog(gui.facade, gui.facade.settings, gui.window)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        assert dialog.width() <= 1280 and dialog.height() <= 800 - 60  # room for a panel and the title bar
        for n in range(dialog.tabs.count()):
            dialog.tabs.setCurrentIndex(n)
            page = dialog.tabs.widget(n)
            assert isinstance(page, QScrollArea)
            body = page.widget()
            assert body.minimumSizeHint().width() <= page.viewport().width(), (
                f"tab {dialog.tabs.tabText(n)!r} needs {body.minimumSizeHint().width()} px, has {page.viewport().width()}")
        assert dialog.buttons.isVisible() and dialog.buttons.geometry().bottom() <= dialog.height()
    finally:
        install_translators(gui.app, "en")


def test_the_gpu_budget_shows_only_where_there_is_a_gpu(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    gui.facade.gpu_device = None  # what the engine found on this machine decides; both cases are shown here
    without = SettingsDialog(gui.facade, gui.facade.settings, gui.window)
    qtbot.addWidget(without)
    assert not without.fields["gpu_budget_mb"].isVisibleTo(without)
    assert "GPU" not in " ".join(label.text() for label in without.findChildren(QLabel)), "its label is left out too"
    gui.facade.gpu_device = "NVIDIA GeForce RTX 4060"
    with_gpu = SettingsDialog(gui.facade, gui.facade.settings, gui.window)
    qtbot.addWidget(with_gpu)
    budget = with_gpu.fields["gpu_budget_mb"]
    with_gpu.show_tab_of(budget)
    assert budget.isVisibleTo(with_gpu) and budget.toolTip() == "NVIDIA GeForce RTX 4060"


def test_every_declared_setting_gets_its_field_on_a_tab(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    """A declaration naming a section no tab shows would leave its setting out of the dialog."""
    gui = start_gui()
    dialog = SettingsDialog(gui.facade, gui.facade.settings, gui.window)
    qtbot.addWidget(dialog)
    pages = [dialog.tabs.widget(n) for n in range(dialog.tabs.count())]
    for name, spec in SPECS.items():
        if spec.section and dialog._applies(spec):
            assert any(page.isAncestorOf(dialog.fields[name]) for page in pages), f"{name}: no tab shows {spec.section!r}"
    assert set(dialog.fields) == {name for name, spec in SPECS.items() if spec.section}
