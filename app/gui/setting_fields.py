"""The widget each declared setting gets in the Settings dialog, chosen by what it holds (``app.settings.Holds``).

Every field has the same three members, so the dialog loads, reads and watches any setting
the same way: ``set_value(value)``, ``value()`` and the ``changed`` signal. A setting's
label, help (the tooltip), placeholder, bounds and choices come from its declaration, so a
new setting needs no code here. :func:`field_for` is the one place that picks a widget.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QHBoxLayout, QHeaderView,
                               QLineEdit, QListWidget, QPlainTextEdit, QPushButton, QSizePolicy, QSpinBox, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from app.gui.language_choice import LanguageCombo
from app.gui.work_hours_edit import WindowEdit
from app.settings import SETTINGS_CONTEXT, Holds, SettingSpec, pair_lines, pair_rows


def translated(text: str) -> str:
    """A declared setting's label or help in the windows' language (app.settings marks them under one context)."""
    return QCoreApplication.translate(SETTINGS_CONTEXT, text) if text else text


def _as_wide_as_its_words(widget: QWidget) -> None:
    """A choice is as wide as its longest entry, never the form's width: a long box holding "Pause" reads as a text field."""
    widget.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)


class ChoiceField(QComboBox):
    changed = Signal()

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(parent)
        _as_wide_as_its_words(self)
        for value, label in spec.choices:
            self.addItem(translated(label), value)
        self.currentIndexChanged.connect(self.changed)

    def value(self) -> str:
        return str(self.currentData())

    def set_value(self, value: Any) -> None:
        self.setCurrentIndex(max(0, self.findData(value)))


class BoolField(QCheckBox):
    changed = Signal()

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(translated(spec.label), parent)
        self.toggled.connect(self.changed)

    def value(self) -> bool:
        return self.isChecked()

    def set_value(self, value: Any) -> None:
        self.setChecked(bool(value))


def _shape(box: QSpinBox | QDoubleSpinBox, spec: SettingSpec) -> None:
    """Bounds, step, unit and the words for the lowest value, as declared; as wide as its widest number, never squeezed
    below it (a clipped "5 min" reads as "5 m") nor stretched to the form's width."""
    box.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
    low, high = spec.minimum if spec.minimum is not None else 0, spec.maximum if spec.maximum is not None else 2**31 - 1
    if isinstance(box, QSpinBox):
        box.setRange(int(low), int(high))
    else:
        box.setRange(low, high)
    box.setSingleStep(spec.step)
    if spec.suffix:
        box.setSuffix(" " + translated(spec.suffix))
    if spec.special:
        box.setSpecialValueText(translated(spec.special))


class IntField(QSpinBox):
    changed = Signal()

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(parent)
        _shape(self, spec)
        self.valueChanged.connect(self.changed)

    def set_value(self, value: Any) -> None:
        self.setValue(int(value))


class FloatField(QDoubleSpinBox):
    changed = Signal()

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(parent)
        self.setDecimals(1)
        _shape(self, spec)
        self.valueChanged.connect(self.changed)

    def set_value(self, value: Any) -> None:
        self.setValue(float(value))


class TextField(QLineEdit):
    """One line of text, kept as typed without the spaces around it."""

    changed = Signal()

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(parent)
        self.setPlaceholderText(translated(spec.placeholder))
        self.textChanged.connect(self.changed)

    def value(self) -> str:
        return self.text().strip()

    def set_value(self, value: Any) -> None:
        self.setText(str(value))


class SecretField(TextField):
    """A token or password: shown as dots except while it is typed."""

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(spec, parent)
        self.setEchoMode(QLineEdit.EchoMode.PasswordEchoOnEdit)


class LanguageField(LanguageCombo):
    """Common languages by name, any code typed by hand; empty only where the declaration names what empty means."""

    changed = Signal()

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(parent, auto=bool(spec.special))
        _as_wide_as_its_words(self)
        if spec.special:
            self.setItemText(0, translated(spec.special))
        self._loaded = ""
        self.currentTextChanged.connect(self.changed)

    def value(self) -> str:
        return self.code() or ("" if self.findData("") >= 0 else self._loaded)

    def set_value(self, value: Any) -> None:
        self._loaded = str(value)
        self.set_code(self._loaded)


class LinesField(QWidget):
    """A list of text, one item a line; "Restore defaults" where the declaration has a default list."""

    changed = Signal()

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(parent)
        self.text = QPlainTextEdit(self)
        self.text.setMaximumHeight(110)
        self.text.textChanged.connect(self.changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text)
        if spec.default:
            self.restore = QPushButton(QCoreApplication.translate("SettingsDialog", "Restore defaults"), self)
            self.restore.clicked.connect(lambda: self.set_value(spec.default))
            layout.addWidget(self.restore, 0, Qt.AlignmentFlag.AlignLeft)

    def value(self) -> list[str]:
        return [line.strip() for line in self.text.toPlainText().splitlines() if line.strip()]

    def set_value(self, value: Any) -> None:
        self.text.setPlainText("\n".join(value))


class PairsTable(QTableWidget):
    """The pairs' table: the last row is always empty for the next pair; Enter edits a cell, never closes the dialog."""

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(0, 2, parent)
        self.setHorizontalHeaderLabels([translated(column) for column in spec.columns])
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().hide()
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setMinimumHeight(140)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Delete (or Backspace) outside a cell being edited removes the selected pairs, as in a list; Enter edits the
        current cell (in a dialog it would press Save, closing it with the pair half typed)."""
        editing = self.state() == QAbstractItemView.State.EditingState
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and not editing:
            chosen = {index.row() for index in self.selectionModel().selectedRows()}
            if chosen:
                field = self.parent()
                assert isinstance(field, PairsField)
                field.set_rows([row for n, row in enumerate(field.cells()) if n not in chosen and row[0]])
                return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            # While a cell is edited its editor commits on Enter and lets the key go on up to here: it stops here.
            if not editing and self.currentIndex().isValid():
                self.edit(self.currentIndex())
            event.accept()
            return
        super().keyPressEvent(event)


class PairsField(QWidget):
    """Two columns (a glossary's term and its rendering), one pair a row, with Add and Remove beside them.

    The last row is always empty for the next pair (Add starts typing there). Remove, or
    Delete on selected rows, removes pairs; so does emptying both cells of a row. A row is
    never rebuilt while it is typed in, so Tab from the term to the rendering keeps the
    term. Stored as settings.json keeps them, ``term`` or ``term = rendering``
    (``app.settings.pair_lines``). The table grows with the room it is given (its section
    takes the tab's height).
    """

    changed = Signal()

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(parent)
        self.table = PairsTable(spec, self)
        self.add_button = QPushButton(QCoreApplication.translate("SettingsDialog", "Add"), self)
        self.remove_button = QPushButton(QCoreApplication.translate("SettingsDialog", "Remove"), self)
        self.add_button.setAutoDefault(False)
        self.remove_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.start_new_pair)
        self.remove_button.clicked.connect(self.remove_selected)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        buttons = QVBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.table.itemChanged.connect(self._edited)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.set_value([])

    def rows(self) -> list[tuple[str, str]]:
        return [(key, value) for key, value in self.cells() if key]

    def cells(self) -> list[tuple[str, str]]:
        return [(self._text(row, 0), self._text(row, 1)) for row in range(self.table.rowCount())]

    def _text(self, row: int, col: int) -> str:
        item = self.table.item(row, col)
        return item.text().strip() if item is not None else ""

    def set_rows(self, rows: list[tuple[str, str]]) -> None:
        table = self.table
        table.blockSignals(True)
        table.setRowCount(0)
        for key, value in rows:
            self._append(key, value)
        self._append("", "")
        table.blockSignals(False)
        self._update_buttons()
        self.changed.emit()

    def _append(self, key: str, value: str) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(key))
        self.table.setItem(row, 1, QTableWidgetItem(value))

    def _edited(self, item: QTableWidgetItem) -> None:
        """A cell was typed in: a new empty row follows a filled last one; a row emptied (not the last) goes.

        Rows are added or removed one at a time, never the whole table rebuilt: a rebuild
        while the person tabs from one cell to the next dropped what they had typed.
        """
        table, row = self.table, item.row()
        last = table.rowCount() - 1
        table.blockSignals(True)
        if row == last and (self._text(row, 0) or self._text(row, 1)):
            self._append("", "")
        elif row != last and not self._text(row, 0) and not self._text(row, 1):
            table.removeRow(row)
        table.blockSignals(False)
        self._update_buttons()
        self.changed.emit()

    def start_new_pair(self) -> None:
        """Add: type a new term in the empty last row."""
        last = self.table.rowCount() - 1
        self.table.setFocus()
        self.table.setCurrentCell(last, 0)
        item = self.table.item(last, 0)
        if item is not None:
            self.table.editItem(item)

    def remove_selected(self) -> None:
        chosen = {index.row() for index in self.table.selectionModel().selectedRows()}
        self.set_rows([row for n, row in enumerate(self.cells()) if n not in chosen and row[0]])

    def _update_buttons(self) -> None:
        last = self.table.rowCount() - 1
        self.remove_button.setEnabled(any(index.row() != last for index in self.table.selectionModel().selectedRows()))

    def value(self) -> list[str]:
        return pair_lines(self.rows())

    def set_value(self, value: Any) -> None:
        self.set_rows(pair_rows(value))


class FoldersField(QWidget):
    """A list of folders with Add… (a folder picker) and Remove."""

    changed = Signal()

    def __init__(self, spec: SettingSpec, parent: QWidget):
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setMaximumHeight(90)
        self.add_button = QPushButton(QCoreApplication.translate("SettingsDialog", "Add…"), self)
        self.remove_button = QPushButton(QCoreApplication.translate("SettingsDialog", "Remove"), self)
        self.add_button.clicked.connect(self._pick)
        self.remove_button.clicked.connect(self._remove)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        buttons = QVBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)

    def _pick(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, QCoreApplication.translate("SettingsDialog", "Watch a folder"))
        if folder:
            self.add(folder)

    def add(self, folder: str) -> None:
        if not self.list.findItems(folder, Qt.MatchFlag.MatchExactly):
            self.list.addItem(folder)
            self.changed.emit()

    def _remove(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self.changed.emit()

    def value(self) -> list[str]:
        return [self.list.item(n).text() for n in range(self.list.count())]

    def set_value(self, value: Any) -> None:
        self.list.clear()
        self.list.addItems(list(value))


FIELDS: dict[Holds, Callable[[SettingSpec, QWidget], Any]] = {
    Holds.CHOICE: ChoiceField, Holds.BOOL: BoolField, Holds.INT: IntField, Holds.FLOAT: FloatField,
    Holds.TEXT: TextField, Holds.SECRET: SecretField, Holds.LANGUAGE: LanguageField, Holds.LINES: LinesField, Holds.PAIRS: PairsField,
    Holds.FOLDERS: FoldersField,
    Holds.WORK_HOURS: lambda spec, parent: WindowEdit(parent),  # keeps its own tr() context
}
"""The field class for each kind of value; a new kind is one class and one entry here."""


def field_for(spec: SettingSpec, parent: QWidget) -> Any:
    """The declared setting's field, its help as the tooltip and its label as the name a screen reader says."""
    widget = FIELDS[spec.holds](spec, parent)
    widget.setToolTip(translated(spec.help))
    widget.setAccessibleName(translated(spec.label).rstrip(":：").strip())
    return widget
