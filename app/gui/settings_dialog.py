"""The Settings dialog: what new jobs will do, how hard the engine works, what it watches.

The dialog edits a copy of the facade's ``Settings``; saving hands the copy to the
facade, which writes the file off the GUI thread. Settings that change outputs are
frozen into each job when it is created (so is the Scanning list of system and hidden
names that ``add`` and watched folders leave out), so the dialog says so the moment one of
them differs from what was loaded; workers and the GPU budget size the running
engine and apply at the next start, as does the windows' Language (Qt widgets take their
text when built; see ``app/gui/translations.py``).

The Models box installs, chooses and removes models through the facade. An install
shows its download progress and can be cancelled; the part downloaded so far is
kept, so Install again resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any, Callable, Sequence

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QFrame, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget,
                               QPlainTextEdit, QProgressBar, QPushButton, QScrollArea, QSpinBox, QTableWidget, QTableWidgetItem,
                               QTabWidget, QVBoxLayout, QWidget)

from app.engine.kinds import LEFT_OUT_BY_DEFAULT
from app.errors import Code
from app.gui.background_settings import BackgroundBox
from app.gui.database_dialog import check_words
from app.gui.facade import EngineFacade
from app.gui.glossary_box import GlossaryBox
from app.gui.language_choice import LanguageCombo
from app.gui.theme import ink
from app.ml.catalogue import ROLE_PURPOSE
from app.gui.translations import QT_TRANSLATE_NOOP, UI_LANGUAGES
from app.media.naming import PRESETS, example_names
from app.settings import OUTPUT_AFFECTING, SETTINGS_CONTEXT, SPECS, Settings, SettingSpec
from app.gui.wheel_guard import guard_wheel

if TYPE_CHECKING:  # the model list is read off the GUI thread, where model_choice is imported
    from app.ml.model_choice import ModelRow

log = logging.getLogger(__name__)

NEW_JOBS_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "New jobs will use the changed output settings; jobs already "
                                                      "added keep the settings they were created with.")
LEFT_OUT_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "New jobs leave out the changed list; watched folders follow it "
                                                      "the next time Sidecar starts.")
RESTART_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "Workers and the GPU budget apply the next time Sidecar starts.")
LANGUAGE_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "Sidecar shows the chosen language the next time it starts.")
DATABASE_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "Sidecar opens the other library database the next time it starts.")


INSTALLED_COLUMN = 3


def translated(text: str) -> str:
    """A declared setting's label or help in the windows' language (app.settings marks them under one context)."""
    return QCoreApplication.translate(SETTINGS_CONTEXT, text)


def declared_field(spec: SettingSpec, parent: QWidget) -> QComboBox | QCheckBox | QSpinBox:
    """The widget a declared setting gets: its choices in a combo box, a check box for a yes/no, a spin box for a number."""
    widget: QComboBox | QCheckBox | QSpinBox
    if spec.choices:
        widget = QComboBox(parent)
        for value, label in spec.choices:
            widget.addItem(translated(label), value)
    elif spec.kind is bool:
        widget = QCheckBox(translated(spec.label), parent)
    else:
        widget = QSpinBox(parent)
        widget.setRange(spec.minimum if spec.minimum is not None else 0, spec.maximum if spec.maximum is not None else 2**31 - 1)
        if spec.suffix:
            widget.setSuffix(" " + translated(spec.suffix))
    widget.setToolTip(translated(spec.help))
    return widget


def set_field(widget: QComboBox | QCheckBox | QSpinBox, value: Any) -> None:
    if isinstance(widget, QComboBox):
        widget.setCurrentIndex(max(0, widget.findData(value)))
    elif isinstance(widget, QCheckBox):
        widget.setChecked(bool(value))
    else:
        widget.setValue(int(value))


def field_value(widget: QComboBox | QCheckBox | QSpinBox) -> Any:
    if isinstance(widget, QComboBox):
        return str(widget.currentData())
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    return widget.value()


def field_changed(widget: QComboBox | QCheckBox | QSpinBox) -> Any:
    """The signal a generated field sends when the person changes it."""
    if isinstance(widget, QComboBox):
        return widget.currentIndexChanged
    if isinstance(widget, QCheckBox):
        return widget.toggled
    return widget.valueChanged


def format_size(size: int | None) -> str:
    """Catalogue sizes are approximate: one decimal in GB, whole MB below."""
    if not size:
        return ""
    return f"{size / 1e9:.1f} GB" if size >= 1e9 else f"{size / 1e6:.0f} MB"


class SettingsDialog(QDialog):
    def __init__(self, facade: EngineFacade, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Sidecar settings"))
        self.facade = facade
        self.original = settings

        self.source_lang = LanguageCombo(self, auto=True)
        self.target_lang = LanguageCombo(self)
        self.naming = QComboBox(self)
        for preset in PRESETS:
            self.naming.addItem(preset, preset)
        self.naming_example = QLabel(self)
        self.naming_example.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.naming_warning = QLabel(self.tr("Media servers see no language in “CN”: use media-server unless your library "
                                             "already uses these names."), self)
        self.naming_warning.setWordWrap(True)
        self.naming_warning.setStyleSheet(f"color:{ink('warning')};")
        self.fields: dict[str, QComboBox | QCheckBox | QSpinBox] = {
            name: declared_field(spec, self) for name, spec in SPECS.items() if spec.tab}  # generated from the declarations
        self.endpoint = QLineEdit(self)
        self.endpoint.setPlaceholderText(self.tr("empty: translate on this computer"))
        self.endpoint_note = QLabel(self)
        self.endpoint_note.setWordWrap(True)
        self.workers = QSpinBox(self)
        self.workers.setRange(1, 64)
        self.gpu_budget = QSpinBox(self)
        self.gpu_budget.setRange(256, 262144)
        self.gpu_budget.setSingleStep(512)
        self.gpu_budget.setSuffix(self.tr(" MB"))
        self.gpu_budget_label = QLabel(self.tr("GPU memory budget:"), self)
        for gpu_widget in (self.gpu_budget, self.gpu_budget_label):  # shown only on a computer with a GPU
            gpu_widget.setVisible(facade.gpu_device is not None)
        if facade.gpu_device:
            self.gpu_budget.setToolTip(facade.gpu_device)
        self.close_to_tray = QCheckBox(self.tr("Closing the window keeps processing in the tray"), self)
        self.background = BackgroundBox(self)
        self.database_url = QLineEdit(self)  # a library shared with other machines (README: When one machine is not enough)
        self.database_url.setPlaceholderText(self.tr("empty: the library on this computer"))
        self.database_where = QLabel(self.tr("The library on this computer: {path}").format(path=facade.local_database()), self)
        self.database_where.setWordWrap(True)
        self.database_where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.database_check = QLabel(self)  # what Save's check of a changed URL found
        self.database_check.setWordWrap(True)
        self.database_check.hide()
        self.database_url.setToolTip(self.tr("A library shared by several machines: postgresql+psycopg://user@server/sidecar"))
        self.ui_language = QComboBox(self)
        for code, name in UI_LANGUAGES:
            self.ui_language.addItem(self.tr(name) if not code else name, code)
        self.left_out = QPlainTextEdit(self)
        self.left_out.setMaximumHeight(110)
        self.left_out.setToolTip(self.tr("One name a line; * and ? match any text; a name ending in / matches folders only"))
        self.restore_left_out = restore_left_out = QPushButton(self.tr("Restore defaults"), self)
        restore_left_out.clicked.connect(lambda: self.left_out.setPlainText("\n".join(LEFT_OUT_BY_DEFAULT)))
        self.watched = QListWidget(self)
        self.watched.setMaximumHeight(90)
        self.add_watch, self.remove_watch = QPushButton(self.tr("Add…"), self), QPushButton(self.tr("Remove"), self)
        self.add_watch.clicked.connect(self._add_watched)
        self.remove_watch.clicked.connect(self._remove_watched)
        self.models = QTableWidget(0, 6, self)
        self.models.setHorizontalHeaderLabels([self.tr("Model"), self.tr("For"), self.tr("Size"), self.tr("Installed"),
                                               self.tr("In use"), self.tr("Licence")])  # INSTALLED_COLUMN: 3
        self.model_about = QLabel(self)
        self.model_about.setWordWrap(True)
        self.models.verticalHeader().hide()
        self.models.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.models.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for col in (0, 1, 2, 3, 4):
            self.models.horizontalHeader().setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.models.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)  # long licences elide
        self.models.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.models.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.models.setWordWrap(False)
        self.models.setMinimumHeight(140)
        self.install_button, self.use_button = QPushButton(self.tr("Install"), self), QPushButton(self.tr("Use"), self)
        self.remove_button, self.cancel_install_button = QPushButton(self.tr("Remove"), self), QPushButton(self.tr("Cancel install"), self)
        self.install_button.setToolTip(self.tr("Download the selected model (an interrupted download resumes)"))
        self.use_button.setToolTip(self.tr("New jobs use the selected model for its role"))
        self.remove_button.setToolTip(self.tr("Delete a downloaded model, or forget one you registered (its files stay)"))
        self.install_progress = QProgressBar(self)
        self.install_progress.setFormat("%p%")
        self.model_status = QLabel(self)
        self.model_status.setWordWrap(True)
        self._model_rows: list[ModelRow] = []
        self._downloads: dict[str, tuple[int, int]] = {}
        self.glossary = GlossaryBox(self)
        self.notice = QLabel(self)
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(f"color:{ink('info')};")

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.tabs = QTabWidget(self)
        self._contributors: list[Any] = []  # section widgets with an edit_settings(settings) -> settings of their own
        for title, sections in self.TABS:
            self.tabs.addTab(self._tab_page([build(self) for build in sections]), self.tr(title).replace("&", "&&"))  # no mnemonic
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)
        self.resize(760, 600)
        guard_wheel(self)  # after every section is built: the wheel scrolls the page, not the control under the pointer

        self._load(settings)
        for signal in (self.source_lang.currentTextChanged, self.target_lang.currentTextChanged,
                       self.naming.currentIndexChanged, self.endpoint.textChanged, self.workers.valueChanged,
                       self.gpu_budget.valueChanged, self.left_out.textChanged, self.database_url.textChanged,
                       self.ui_language.currentIndexChanged, self.background.changed, self.glossary.changed):
            signal.connect(self._changed)
        for widget in self.fields.values():
            field_changed(widget).connect(self._changed)
        self._checking: str | None = None  # the URL Save is having checked
        facade.databaseChecked.connect(self._database_checked)
        facade.modelsListed.connect(self.show_models)
        facade.modelProgress.connect(self._model_progress)
        facade.modelInstallEnded.connect(self._install_ended)
        self.models.itemSelectionChanged.connect(self._update_model_actions)
        self.install_button.clicked.connect(lambda: self._on_selected(self.install_model))
        self.use_button.clicked.connect(lambda: self._on_selected(self.facade.use_model))
        self.remove_button.clicked.connect(lambda: self._on_selected(self.facade.remove_model))
        self.cancel_install_button.clicked.connect(lambda: self._on_selected(self.facade.cancel_install))
        self._update_model_actions()
        facade.list_models()
        self._changed()

    def _load(self, s: Settings) -> None:
        self.source_lang.set_code(s.source_lang)
        self.target_lang.set_code(s.target_lang)
        self.naming.setCurrentIndex(max(0, self.naming.findData(s.naming)))
        for name, widget in self.fields.items():
            set_field(widget, getattr(s, name))
        self.endpoint.setText(s.translation_endpoint)
        self.workers.setValue(s.workers)
        self.gpu_budget.setValue(s.gpu_budget_mb)
        self.close_to_tray.setChecked(s.close_to_tray)
        self.database_url.setText(s.database_url)
        self.ui_language.setCurrentIndex(max(0, self.ui_language.findData(s.ui_language)))
        self.left_out.setPlainText("\n".join(s.scan_ignore))
        self.watched.clear()
        self.watched.addItems(s.watched_folders)
        self.background.load(s)
        self.glossary.set_lines(s.glossary)

    def edited(self) -> Settings:
        """The settings as the dialog shows them now (with what the sections of other modules contribute)."""
        settings = self.background.apply(dataclasses.replace(
            self.original,
            source_lang=self.source_lang.code(), target_lang=self.target_lang.code() or self.original.target_lang,
            naming=str(self.naming.currentData()), **{name: field_value(widget) for name, widget in self.fields.items()},
            translation_endpoint=self.endpoint.text().strip(),
            workers=self.workers.value(), gpu_budget_mb=self.gpu_budget.value(),
            close_to_tray=self.close_to_tray.isChecked(), ui_language=str(self.ui_language.currentData()),
            database_url=self.database_url.text().strip(),
            scan_ignore=[line.strip() for line in self.left_out.toPlainText().splitlines() if line.strip()],
            watched_folders=[self.watched.item(n).text() for n in range(self.watched.count())],
            glossary=self.glossary.lines(),
        ))
        for section in getattr(self, "_contributors", ()):
            settings = section.edit_settings(settings)
        return settings

    @Slot()
    def _changed(self) -> None:
        s = self.edited()
        source = s.source_lang or "ja"
        self.naming_example.setText("  ".join(example_names(s.naming, "Movie", source, s.target_lang)))
        self.naming_warning.setVisible(s.naming == "compat")
        self.endpoint_note.setText(
            self.tr("Subtitle text (not audio, not file names) is sent to {endpoint} for translation.").format(
                endpoint=s.translation_endpoint)

            if s.translation_endpoint else self.tr("Nothing leaves this computer."))
        notes = []
        if any(getattr(s, name) != getattr(self.original, name) for name in OUTPUT_AFFECTING):
            notes.append(self.tr(NEW_JOBS_NOTICE))
        if s.scan_ignore != self.original.scan_ignore:
            notes.append(self.tr(LEFT_OUT_NOTICE))
        if (s.workers, s.gpu_budget_mb, s.max_cores) != (self.original.workers, self.original.gpu_budget_mb,
                                                          self.original.max_cores):  # the core cap sizes the workers too
            notes.append(self.tr(RESTART_NOTICE))
        if s.ui_language != self.original.ui_language:
            notes.append(self.tr(LANGUAGE_NOTICE))
        if s.database_url != self.original.database_url:
            notes.append(self.tr(DATABASE_NOTICE))
        self.notice.setText("\n".join(notes))
        self.notice.setVisible(bool(notes))

    def _add_watched(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Watch a folder"))
        if folder:
            self.add_watched_folder(folder)

    def add_watched_folder(self, folder: str) -> None:
        if not self.watched.findItems(folder, Qt.MatchFlag.MatchExactly):
            self.watched.addItem(folder)

    def _remove_watched(self) -> None:
        for item in self.watched.selectedItems():
            self.watched.takeItem(self.watched.row(item))

    @Slot(list)
    def show_models(self, rows: Sequence[ModelRow]) -> None:
        selected = self.selected_model()
        self._model_rows = list(rows)
        self.models.setRowCount(len(rows))
        for n, row in enumerate(rows):
            for col, value in enumerate((row.name, ROLE_PURPOSE.get(row.role, row.role),
                                         format_size(row.size), self._installed_text(row),
                                         "✓" if row.active else "", row.licence)):
                cell = QTableWidgetItem(str(value))
                tip = "\n".join(part for part in (row.description, row.licence) if part)
                if tip:
                    cell.setToolTip(tip)
                self.models.setItem(n, col, cell)
            if selected is not None and row.name == selected.name:
                self.models.selectRow(n)
        self._update_model_actions()

    def _installed_text(self, row: ModelRow) -> str:
        if row.name in self._downloads:
            done, total = self._downloads[row.name]
            return self.tr("downloading {percent}%").format(percent=done * 100 // total) if total else self.tr("downloading")
        return self.tr("yes") if row.installed else (self.tr("partly downloaded") if row.partial_download else self.tr("no"))

    def selected_model(self) -> ModelRow | None:
        rows = self.models.selectionModel().selectedRows()
        return self._model_rows[rows[0].row()] if rows and rows[0].row() < len(self._model_rows) else None

    def select_model(self, name: str) -> None:
        for n, row in enumerate(self._model_rows):
            if row.name == name:
                self.models.selectRow(n)

    def _on_selected(self, action: Any) -> None:
        row = self.selected_model()
        if row is not None:
            action(row.name)
        self._update_model_actions()

    def install_model(self, name: str) -> None:
        self._downloads[name] = (0, 0)
        self.model_status.setText(self.tr("Downloading {name}…").format(name=name))
        self.facade.install_model(name)
        self._refresh_model_row(name)

    @Slot()
    def _update_model_actions(self) -> None:
        row = self.selected_model()
        name = row.name if row else ""
        about = [row.description if row else ""]
        if row and row.licence:
            about.append(self.tr("Licence: {licence}.").format(licence=row.licence))
        self.model_about.setText(" ".join(a for a in about if a))
        downloading = bool(name) and (name in self._downloads or self.facade.installing(name))
        installed = bool(row and row.installed)
        source = row.source if row else ""
        self.install_button.setEnabled(source == "download" and not installed and not downloading)
        self.use_button.setEnabled(installed and not (row and row.active) and not downloading)
        self.remove_button.setEnabled(source in ("download", "local") and installed and not downloading)
        self.cancel_install_button.setEnabled(downloading)
        done, total = self._downloads.get(name, (0, 0))
        self.install_progress.setVisible(downloading)
        self.install_progress.setRange(0, 100 if total else 0)
        self.install_progress.setValue(done * 100 // total if total else 0)

    @Slot(str, int, int)
    def _model_progress(self, name: str, done: int, total: int) -> None:
        self._downloads[name] = (done, total)
        self._refresh_model_row(name)
        self._update_model_actions()

    def _refresh_model_row(self, name: str) -> None:
        for n, row in enumerate(self._model_rows):
            cell = self.models.item(n, INSTALLED_COLUMN)
            if row.name == name and cell is not None:
                cell.setText(self._installed_text(row))

    @Slot(str, str)
    def _install_ended(self, name: str, code: str) -> None:
        self._downloads.pop(name, None)
        if not code:
            self.model_status.setText(self.tr("{name} is installed. Choose “Use” to have new jobs use it.").format(name=name))
        elif code == Code.DOWNLOAD_CANCELLED:
            self.model_status.setText(self.tr("Stopped downloading {name}. What arrived is kept: Install resumes "
                                              "from there.").format(name=name))
        else:
            self.model_status.setText(self.tr("Installing {name} failed ({code}).").format(name=name, code=code))

        self._refresh_model_row(name)
        self._update_model_actions()

    @Slot()
    def save(self) -> None:
        """Save; a changed library database URL is checked first (off the GUI thread) and saved only if it opens."""
        url = self.edited().database_url
        if url == self.original.database_url or not url:
            self._save_now()
            return
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(False)
        self._show_database_check(self.tr("Checking the library database…"), "info")
        self.show_tab_of(self.database_url)
        self._checking = url
        self.facade.check_database(url)

    @Slot(str, str, str)
    def _database_checked(self, url: str, code: str, message: str) -> None:
        if url != self._checking:
            return  # another window's check
        self._checking = None
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(True)
        if url != self.edited().database_url:
            self.database_check.hide()  # the person changed the URL meanwhile: their next Save checks that one
            return
        self._show_database_check(check_words(code, message) + ("" if not code else "\n" + self.tr(
            "Correct the address, or empty it to keep the library on this computer.")), "error" if code else "ok")
        if not code:
            self._save_now()

    def _show_database_check(self, text: str, accent: str) -> None:
        self.database_check.setText(text)
        self.database_check.setStyleSheet(f"color:{ink(accent)};")
        self.database_check.show()

    def _save_now(self) -> None:
        self.facade.save_settings(self.edited())
        self.accept()

    def show_tab_of(self, widget: QWidget) -> None:
        """Bring the tab holding ``widget`` to the front."""
        for n in range(self.tabs.count()):
            page = self.tabs.widget(n)
            if page is not None and page.isAncestorOf(widget):
                self.tabs.setCurrentIndex(n)

    # -- layout: tabs of sections -----------------------------------------------------------

    def _tab_page(self, sections: list[QWidget]) -> QScrollArea:
        """One tab: its sections stacked, scrolling vertically only (the page is as wide as the dialog)."""
        body = QWidget(self)
        layout = QVBoxLayout(body)
        for section in sections:
            layout.addWidget(section, section.sizePolicy().verticalStretch())
            if hasattr(section, "edit_settings"):
                self._contributors.append(section)
        if not any(section.sizePolicy().verticalStretch() for section in sections):
            layout.addStretch(1)  # sections keep their height; a section with a stretch takes the room instead
        page = QScrollArea(self)
        page.setWidgetResizable(True)
        page.setFrameShape(QFrame.Shape.NoFrame)
        page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        page.setWidget(body)
        return page

    def _form(self, title: str, rows: Sequence[tuple[str | QWidget, QWidget]]) -> QGroupBox:
        """A titled section of label/field rows; long rows wrap below their label on a narrow dialog."""
        box = QGroupBox(title, self)
        form = QFormLayout(box)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        for label, field in rows:
            form.addRow(label, field)
        return box

    def _output_section(self) -> QWidget:
        return self._form(self.tr("Output (new jobs)"), [
            (self.tr("Spoken language:"), self.source_lang), (self.tr("Translate to:"), self.target_lang),
            (self.tr("Subtitle names:"), self.naming), ("", self.naming_example), ("", self.naming_warning),
            *self._declared_rows("output")])

    def _translation_section(self) -> QWidget:
        return self._form(self.tr("Translation"), [(self.tr("Translation server:"), self.endpoint),
                                                   ("", self.endpoint_note)])

    def _engine_section(self) -> QWidget:
        return self._form(self.tr("Engine"), [(self.tr("Workers:"), self.workers), (self.gpu_budget_label, self.gpu_budget),
                                              *self._declared_rows("processing")])

    def _declared_rows(self, tab: str) -> list[tuple[str | QWidget, QWidget]]:
        """The generated fields of the settings declared on ``tab``: a check box carries its own label."""
        return [("" if isinstance(widget, QCheckBox) else translated(SPECS[name].label), widget)
                for name, widget in self.fields.items() if SPECS[name].tab == tab]

    def _library_section(self) -> QWidget:
        return self._form(self.tr("Library database"), [(self.tr("Library database:"), self.database_url),
                                                        ("", self.database_where), ("", self.database_check)])

    def _window_section(self) -> QWidget:
        restart = QLabel(self.tr("The language of Sidecar's windows changes the next time Sidecar starts."), self)
        return self._form(self.tr("Window"), [(self.tr("Language:"), self.ui_language), ("", restart),
                                              ("", self.close_to_tray)])

    def _scanning_section(self) -> QWidget:
        box = QGroupBox(self.tr("Scanning"), self)
        sl = QVBoxLayout(box)
        explanation = QLabel(self.tr("Left out of every added or watched folder (system and hidden files, as media "
                                     "servers skip them); the folder you add itself is always scanned:"), self)
        explanation.setWordWrap(True)
        sl.addWidget(explanation)
        sl.addWidget(self.left_out)
        sl.addWidget(self.restore_left_out, 0, Qt.AlignmentFlag.AlignLeft)
        return box

    def _watched_section(self) -> QWidget:
        box = QGroupBox(self.tr("Watched folders"), self)
        wl = QHBoxLayout(box)
        wl.addWidget(self.watched, 1)
        wb = QVBoxLayout()
        wb.addWidget(self.add_watch)
        wb.addWidget(self.remove_watch)
        wb.addStretch(1)
        wl.addLayout(wb)
        return box

    def _glossary_section(self) -> QWidget:
        return self.glossary

    def _background_section(self) -> QWidget:
        return self.background

    def _models_section(self) -> QWidget:
        box = QGroupBox(self.tr("Models"), self)
        policy = box.sizePolicy()
        policy.setVerticalStretch(1)  # the list takes the tab's height
        box.setSizePolicy(policy)
        ml = QVBoxLayout(box)
        ml.addWidget(self.models, 1)
        ml.addWidget(self.model_about)
        actions = QHBoxLayout()
        for button in (self.install_button, self.use_button, self.remove_button, self.cancel_install_button):
            actions.addWidget(button)
        actions.addWidget(self.install_progress, 1)
        ml.addLayout(actions)
        ml.addWidget(self.model_status)
        return box

    #: The tabs and the sections on each, in order. A section builder takes the dialog and
    #: returns a self-contained widget; adding one to a tab is one entry here. A section
    #: widget with ``edit_settings(settings) -> settings`` contributes its fields to what
    #: Save writes (it reads ``dialog.original`` for its start values).
    TABS: tuple[tuple[Any, list[Callable[[SettingsDialog], QWidget]]], ...] = (
        (QT_TRANSLATE_NOOP("SettingsDialog", "Output"), [_output_section, _translation_section, _glossary_section]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Processing"), [_engine_section, _library_section]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Schedule & power"), [_background_section]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Folders"), [_scanning_section, _watched_section]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Models"), [_models_section]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Window"), [_window_section]),
    )
