"""Settings fit a 1280×800 screen without sideways scrolling in every language, with no word clipped, no choice
stretched to the form's width and every field at one column; a field that waits for another sits on its row and is
disabled with its label; Tab follows the rows; scrolling the page with the wheel never changes a choice the person
did not click into."""

from __future__ import annotations

from typing import Any, Callable

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QFormLayout, QHBoxLayout, QLabel, QScrollArea, QWidget

from app.gui.app import Gui
from app.gui.settings_dialog import SettingsDialog
from app.gui.translations import install_translators
from app.gui.setting_fields import ChoiceField, LanguageField
from app.settings import SPECS, Holds, Settings


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
        dialog = SettingsDialog(gui.facade, gui.facade.settings.current, gui.window)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        assert dialog.width() <= 1280 and dialog.height() <= 800 - 60  # room for a panel and the title bar
        for n in range(dialog.tabs.count()):
            dialog.tabs.setCurrentIndex(n)
            page = dialog.tabs.widget(n)
            assert isinstance(page, QScrollArea)
            body = page.widget()
            qtbot.waitUntil(body.isVisible)
            QApplication.processEvents()  # the page's layouts run once it shows
            tab = dialog.tabs.tabText(n)
            assert body.minimumSizeHint().width() <= page.viewport().width(), (
                f"tab {tab!r} needs {body.minimumSizeHint().width()} px, has {page.viewport().width()}")
            _nothing_clipped_or_stretched(body, tab)
            _fields_at_one_column(body, tab)
        assert dialog.buttons.isVisible() and dialog.buttons.geometry().bottom() <= dialog.height()
    finally:
        install_translators(gui.app, "en")


def _nothing_clipped_or_stretched(body: QWidget, tab: str) -> None:
    """No label, check box or button shows less than its words; no number or choice is squeezed below its widest
    entry, nor a choice stretched past it (a form-wide box holding "Pause" reads as a text field)."""
    for widget in body.findChildren(QWidget):
        if not widget.isVisible():
            continue
        words = widget.text() if isinstance(widget, (QLabel, QAbstractButton)) else ""
        if isinstance(widget, QLabel) and widget.wordWrap():
            continue  # wraps instead
        if words or isinstance(widget, QComboBox) or hasattr(widget, "setSpecialValueText"):
            assert widget.width() >= widget.sizeHint().width(), (
                f"{tab}: {type(widget).__name__} {words!r} is {widget.width()} px, needs {widget.sizeHint().width()}")
        if isinstance(widget, (ChoiceField, LanguageField)):
            assert widget.width() <= widget.sizeHint().width(), f"{tab}: a choice stretched to {widget.width()} px"


def _fields_at_one_column(body: QWidget, tab: str) -> None:
    """Every labelled row keeps its field beside its label (no row wrapped under it), and the sections of a tab
    start their fields at one column."""
    starts: dict[int, str] = {}
    for form in body.findChildren(QFormLayout):
        for row in range(form.rowCount()):
            label, field = (form.itemAt(row, role) for role in (QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.FieldRole))
            spans = form.itemAt(row, QFormLayout.ItemRole.SpanningRole) is not None  # an intro or a list: the section's width
            if not spans and field is not None and field.widget() is not None and field.widget().isVisible():
                starts[field.widget().mapTo(body, field.widget().rect().topLeft()).x()] = type(field.widget()).__name__
                if label is not None and label.widget() is not None:
                    assert abs(label.widget().geometry().center().y() - field.widget().geometry().center().y()) < 12, (
                        f"{tab}: the row {label.widget().text()!r} wrapped its field under the label")
    assert len(starts) <= 1, f"{tab}: fields start at {starts}"


def test_a_field_that_waits_for_another_sits_on_its_row_disabled_with_its_label(
        qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    """The battery floor only matters with "Pause below a charge", the minutes of input only with "Pause while I use
    the computer": each sits after its switch, and its label greys out with it."""
    gui = start_gui()
    dialog = SettingsDialog(gui.facade, Settings(on_battery="pause", pause_while_in_use=False), gui.window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.show_tab_of(dialog.fields["on_battery"])
    qtbot.waitUntil(dialog.fields["on_battery"].isVisible)
    QApplication.processEvents()
    for switch, waiting, on in (("on_battery", "battery_floor", "below"), ("pause_while_in_use", "in_use_minutes", True)):
        first, second, label = dialog.fields[switch], dialog.fields[waiting], dialog.labels[waiting]
        assert first.parentWidget() is second.parentWidget() is label.parentWidget(), f"{waiting} is not on {switch}'s row"
        assert first.x() < label.x() < second.x()
        assert not second.isEnabled() and not label.isEnabled(), f"{waiting} and its label wait for {switch}"
        first.set_value(on)
        assert second.isEnabled() and label.isEnabled()
        assert label.buddy() is second and label.toolTip() == second.toolTip() == SPECS[waiting].help


def test_a_number_shows_its_help_beside_it_and_labels_carry_the_tooltip(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    """"Use at most: all" says nothing without "cores for the workers and each model's threads" beside it."""
    gui = start_gui()
    dialog = SettingsDialog(gui.facade, gui.facade.settings.current, gui.window)
    qtbot.addWidget(dialog)
    for name, spec in SPECS.items():
        if spec.section and dialog._applies(spec) and spec.holds in (Holds.INT, Holds.FLOAT) and spec.enabled_by is None:
            field = dialog.fields[name]
            row = field.parentWidget().layout()
            beside = [row.itemAt(n).widget() for n in range(row.indexOf(field) + 1, row.count())]
            assert isinstance(row, QHBoxLayout) and spec.help in [w.text() for w in beside if isinstance(w, QLabel)], (
                f"{name}: no help beside it")
    for name, label in dialog.labels.items():
        assert label.toolTip() == dialog.fields[name].toolTip() != "", f"{name}: its label has no tooltip"
        assert dialog.fields[name].accessibleName() == label.text().rstrip(":"), name


def test_tab_goes_down_the_rows_spoken_language_before_translation(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    """From the language spoken to the one translated into (as on the first-run page), then row by row, left to right."""
    gui = start_gui()
    dialog = SettingsDialog(gui.facade, gui.facade.settings.current, gui.window)
    qtbot.addWidget(dialog)
    dialog.show()
    fields = set(dialog.fields.values())
    for n in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(n)
        body = dialog.tabs.widget(n).widget()
        qtbot.waitUntil(body.isVisible)
        QApplication.processEvents()
        order, widget = [], dialog.nextInFocusChain()
        while widget is not dialog:
            if widget in fields and widget.isVisible() and widget not in order:
                order.append(widget)
            widget = widget.nextInFocusChain()
        places = [(w.mapTo(body, w.rect().center()).y(), w.mapTo(body, w.rect().topLeft()).x()) for w in order]
        for (y, x), (next_y, next_x) in zip(places, places[1:]):
            assert next_y > y + 6 or (abs(next_y - y) <= 6 and next_x > x), f"tab {n}: Tab jumps back to {next_x},{next_y}"
    output = dialog.fields["source_lang"].parentWidget()
    assert dialog.fields["source_lang"].y() < dialog.fields["target_lang"].y() and output is dialog.fields["target_lang"].parentWidget()


def test_the_gpu_budget_shows_only_where_there_is_a_gpu(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    gui.facade.settings.gpu_device = None  # what the engine found on this machine decides; both cases are shown here
    without = SettingsDialog(gui.facade, gui.facade.settings.current, gui.window)
    qtbot.addWidget(without)
    assert not without.fields["gpu_budget_mb"].isVisibleTo(without)
    assert SPECS["gpu_budget_mb"].label not in [label.text() for label in without.findChildren(QLabel)], "its label is left out too"
    gui.facade.settings.gpu_device = "NVIDIA GeForce RTX 4060"
    with_gpu = SettingsDialog(gui.facade, gui.facade.settings.current, gui.window)
    qtbot.addWidget(with_gpu)
    budget = with_gpu.fields["gpu_budget_mb"]
    with_gpu.show_tab_of(budget)
    assert budget.isVisibleTo(with_gpu) and budget.toolTip() == f"{SPECS['gpu_budget_mb'].help}\nNVIDIA GeForce RTX 4060", (
        "the device is named after the help, not instead of it")


def test_every_declared_setting_gets_its_field_on_a_tab(qtbot: Any, start_gui: Callable[..., Gui]) -> None:
    """A declaration naming a section no tab shows would leave its setting out of the dialog."""
    gui = start_gui()
    dialog = SettingsDialog(gui.facade, gui.facade.settings.current, gui.window)
    qtbot.addWidget(dialog)
    pages = [dialog.tabs.widget(n) for n in range(dialog.tabs.count())]
    for name, spec in SPECS.items():
        if spec.section and dialog._applies(spec):
            assert any(page.isAncestorOf(dialog.fields[name]) for page in pages), f"{name}: no tab shows {spec.section!r}"
    assert set(dialog.fields) == {name for name, spec in SPECS.items() if spec.section}
