"""The Settings dialog: what new jobs will do, how hard the engine works, what it watches.

The dialog edits a copy of the facade's ``Settings``; saving hands the copy to the
facade, which writes the file off the GUI thread. Settings that change outputs are
frozen into each job when it is created (so is the Scanning list of system and hidden
names that ``add`` and watched folders leave out), so the dialog says so the moment one of
them differs from what was loaded; the settings declared ``restart`` (workers, the GPU
budget…) size the running engine and apply at the next start, as does the windows'
Language (Qt widgets take their text when built; see ``app/gui/translations.py``).

Every field is generated from the settings' declarations (``app.settings``, widgets in
``app.gui.setting_fields``) and placed on the section its declaration names; the
dialog adds only what depends on the values live (example names, where the text goes,
the database check) below the field it explains.

The Models box installs, chooses and removes models through the facade. An install
shows its download progress and can be cancelled; the part downloaded so far is
kept, so Install again resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
from typing import TYPE_CHECKING, Any, Callable, Sequence

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QFrame,
                               QGroupBox,
                               QHBoxLayout, QHeaderView, QLabel, QProgressBar, QPushButton, QScrollArea, QSizePolicy, QTableWidget,
                               QTableWidgetItem, QTabWidget, QVBoxLayout, QWidget)

from app.gui.facade.calculations import example_names
from app.gui.facade.records import NEVER_TEXT, ROLE_PURPOSE
from app.errors import Code, explain
from app.gui.database_dialog import check_words
from app.gui.facade import EngineFacade
from app.gui.setting_fields import field_for, translated
from app.gui.theme import ink, muted
from app.gui.translations import QT_TRANSLATE_NOOP, code_words
from app.gui.wheel_guard import guard_wheel
from app.settings import LIST_HOLDS, OUTPUT_AFFECTING, SPECS, Holds, Settings, SettingSpec

if TYPE_CHECKING:  # the model list is read off the GUI thread, where model_choice is imported
    from app.gui.facade.records import ModelRow

log = logging.getLogger(__name__)

NEW_JOBS_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "New jobs will use the changed output settings; jobs already "
                                                      "added keep the settings they were created with.")
LEFT_OUT_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "New jobs leave out the changed list; watched folders follow it "
                                                      "the next time Sidecar starts.")
RESTART_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "The changed engine settings apply the next time Sidecar starts.")
LANGUAGE_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "Sidecar shows the chosen language the next time it starts.")
DATABASE_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "Sidecar opens the other library database the next time it starts.")


INSTALLED_COLUMN = 3


def format_size(size: int | None) -> str:
    """Catalogue sizes are approximate: one decimal in GB, whole MB below."""
    if not size:
        return ""
    return f"{size / 1e9:.1f} GB" if size >= 1e9 else f"{size / 1e6:.0f} MB"


def declared(section: str, title: str, intro: str = "") -> Callable[[SettingsDialog], QWidget]:
    """A section builder for ``TABS``: the settings declared on ``section`` under ``title``, after ``intro``."""
    return lambda dialog: dialog._declared_section(section, title, intro)


class SettingsDialog(QDialog):
    def __init__(self, facade: EngineFacade, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Sidecar settings"))
        self.facade = facade
        self.original = settings

        self.fields: dict[str, Any] = {name: field_for(spec, self) for name, spec in SPECS.items() if spec.section}
        """Every setting's generated field, by name (``app.gui.setting_fields``); the sections lay them out."""
        self.labels: dict[str, QLabel] = {}
        """Each shown field's label (a check box is its own), by name: disabled with its field."""
        self.naming_example = QLabel(self)
        self.naming_example.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.naming_warning = QLabel(self.tr("Media servers see no language in “CN”: use media-server unless your library "
                                             "already uses these names."), self)
        self.naming_warning.setWordWrap(True)
        self.naming_warning.setStyleSheet(f"color:{ink('warning')};")
        self.endpoint_note = QLabel(self)
        self.endpoint_note.setWordWrap(True)
        if facade.settings.gpu_device:  # the help says what the budget is, the device which memory it is taken from
            self.fields["gpu_budget_mb"].setToolTip(f"{translated(SPECS['gpu_budget_mb'].help)}\n{facade.settings.gpu_device}")
        self.database_where = QLabel(self.tr("The library on this computer: {path}").format(path=facade.settings.local_database()), self)
        self.database_where.setWordWrap(True)
        self.database_where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.database_check = QLabel(self)  # what Save's check of a changed URL found
        self.database_check.setWordWrap(True)
        self.database_check.hide()
        self.server_check = QLabel(self)  # what Save's check of a changed translation server found
        self.server_check.setWordWrap(True)
        self.server_check.hide()
        language_restart = QLabel(self.tr("The language of Sidecar's windows changes the next time Sidecar starts."), self)
        self._after: dict[str, list[QWidget]] = {  # what the dialog shows below a setting's field, live from its value
            "naming": [self.naming_example, self.naming_warning], "translation_endpoint": [self.endpoint_note, self.server_check],
            "database_url": [self.database_where, self.database_check], "ui_language": [language_restart]}
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
        self.install_file_button = QPushButton(self.tr("Install from file…"), self)
        self.install_file_button.setToolTip(self.tr("A translation package (.argosmodel) downloaded on another computer: "
                                                    "installed without internet, checked before it is used"))
        self.install_progress = QProgressBar(self)
        self.install_progress.setFormat("%p%")
        self.model_status = QLabel(self)
        self.model_status.setWordWrap(True)
        self._model_rows: list[ModelRow] = []
        self._downloads: dict[str, tuple[int, int]] = {}
        self.notice = QLabel(self)
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(f"color:{ink('info')};")

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        self.tabs = QTabWidget(self)
        for title, sections in self.TABS:
            self.tabs.addTab(self._tab_page([build(self) for build in sections]), self.tr(title).replace("&", "&&"))  # no mnemonic
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)
        self.resize(820, 600)  # the German Schedule & power rows (a field and the one waiting for it) fit unwrapped
        guard_wheel(self)  # after every section is built: the wheel scrolls the page, not the control under the pointer

        self._load(settings)
        for widget in self.fields.values():
            widget.changed.connect(self._changed)
        self._checking: str | None = None  # the URL Save is having checked
        facade.settings.databaseChecked.connect(self._database_checked)
        self._server_checked: str | None = None  # the translation server address Save checked last (a second Save keeps it)
        facade.settings.serverChecked.connect(self._server_answered)
        facade.models.modelsListed.connect(self.show_models)
        facade.models.modelProgress.connect(self._model_progress)
        facade.models.modelInstallEnded.connect(self._install_ended)
        self.models.itemSelectionChanged.connect(self._update_model_actions)
        self.install_button.clicked.connect(lambda: self._on_selected(self.install_model))
        self.use_button.clicked.connect(lambda: self._on_selected(self.facade.models.use_model))
        self.remove_button.clicked.connect(lambda: self._on_selected(self.facade.models.remove_model))
        self.cancel_install_button.clicked.connect(lambda: self._on_selected(self.facade.models.cancel_install))
        self.install_file_button.clicked.connect(self._install_from_file)
        self._update_model_actions()
        facade.models.list_models()
        self._changed()

    def _load(self, s: Settings) -> None:
        for name, widget in self.fields.items():
            widget.set_value(getattr(s, name))

    def edited(self) -> Settings:
        """The settings as the dialog shows them now."""
        return dataclasses.replace(self.original, **{name: widget.value() for name, widget in self.fields.items()})

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
        if any(getattr(s, name) != getattr(self.original, name) for name, spec in SPECS.items() if spec.restart):
            notes.append(self.tr(RESTART_NOTICE))
        if s.ui_language != self.original.ui_language:
            notes.append(self.tr(LANGUAGE_NOTICE))
        if s.database_url != self.original.database_url:
            notes.append(self.tr(DATABASE_NOTICE))
        if s.work_weekdays == NEVER_TEXT and s.work_weekends == NEVER_TEXT:
            notes.append(self.tr("With both work windows set to “Not at all”, Sidecar never works: jobs wait for ever."))
        self.notice.setText("\n".join(notes))
        self.notice.setVisible(bool(notes))
        for name, spec in SPECS.items():
            if spec.enabled_by is not None and name in self.fields:
                other, wanted = spec.enabled_by
                for widget in (self.fields[name], self.labels.get(name)):
                    if widget is not None:
                        widget.setEnabled(getattr(s, other) == wanted)

    def add_watched_folder(self, folder: str) -> None:
        self.fields["watched_folders"].add(folder)

    @Slot(list)
    def show_models(self, rows: Sequence[ModelRow]) -> None:
        selected = self.selected_model()
        self._model_rows = list(rows)
        self.models.setRowCount(len(rows))
        for n, row in enumerate(rows):
            for col, value in enumerate((self._model_name(row), self._role_words(row.role),
                                         format_size(row.size), self._installed_text(row),
                                         "✓" if row.active else "", row.licence)):
                cell = QTableWidgetItem(str(value))
                tip = "\n".join(part for part in (row.description, row.licence) if part)
                if tip:
                    cell.setToolTip(tip)
                if col == 0 and (row.placeholder or row.recommended):
                    cell.setForeground(QColor(ink("warning" if row.placeholder else "ok")))
                    cell.setToolTip(self._model_note(row) + ("\n" + tip if tip else ""))
                self.models.setItem(n, col, cell)
            if selected is not None and row.name == selected.name:
                self.models.selectRow(n)
        self._update_model_actions()

    def _model_name(self, row: ModelRow) -> str:
        """The name, marked when it is the placeholder or the recommended model of its role (seen without a click)."""
        if row.placeholder:
            return self.tr("{name} (placeholder)").format(name=row.name)
        if row.recommended:
            return self.tr("{name} (recommended)").format(name=row.name)
        return row.name

    def _model_note(self, row: ModelRow) -> str:
        """Why the mark: the placeholder's warning or the recommendation, in the window's language."""
        if row.placeholder:
            return self.tr("A placeholder that comes with Sidecar so translation works without a download: most of its "
                           "lines are wrong and Sidecar refuses them, so most videos get only their transcript. Install "
                           "a recommended translation model, or set a translation server.")
        if row.recommended:
            return self.tr("Recommended: good enough on a CPU, with a licence that allows any use.")
        return ""

    def _role_words(self, role: str) -> str:
        """What a role does, in the window's language (the catalogue's words are English)."""
        return {"asr": self.tr("transcription"), "translation": self.tr("translation"),
                "text_embedding": self.tr("text search over descriptions and dialogue"),
                "ocr": self.tr("text recognition in images"),
                "visual": self.tr("image search by picture content (CLIP)"),
                "speakers": self.tr("speaker labels in subtitles and transcripts")}.get(role, ROLE_PURPOSE.get(role, role))

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
        self.facade.models.install_model(name)
        self._refresh_model_row(name)

    def _install_from_file(self) -> None:
        """Ask for a package file (the dialog is the person's pause, not work), then install it off the GUI thread."""
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Install a translation package"), "",
                                              self.tr("Translation packages (*.argosmodel);;All files (*)"))
        if path:
            self.model_status.setText(self.tr("Installing {name}…").format(name=path.rsplit("/", 1)[-1]))
            self.facade.models.install_model_file(path)

    @Slot()
    def _update_model_actions(self) -> None:
        row = self.selected_model()
        name = row.name if row else ""
        about = [(self._model_note(row) or row.description) if row else ""]
        if row and row.licence:
            about.append(self.tr("Licence: {licence}.").format(licence=row.licence))
        if row and row.attribution:
            about.append(self.tr("Credit: {attribution}.").format(attribution=row.attribution))
        if row and row.source == "download" and not row.sha256_verified:
            about.append(self.tr("Unverified: no published checksum; the first download is pinned and every later one "
                                 "must match it."))
        if row and row.pair:
            about.append(self.tr("Used by itself for {pair} once installed (and through English for other pairs).")
                         .format(pair=row.pair))
        self.model_about.setText(" ".join(a for a in about if a))
        downloading = bool(name) and (name in self._downloads or self.facade.models.installing(name))
        installed = bool(row and row.installed)
        source = row.source if row else ""
        self.install_button.setEnabled(source == "download" and not installed and not downloading)
        self.use_button.setEnabled(installed and not (row and (row.active or row.pair)) and not downloading)
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
    def _install_ended(self, name: str, code: str, why: str) -> None:
        self._downloads.pop(name, None)
        if not code:
            self.model_status.setText(self.tr("{name} is installed. Choose “Use” to have new jobs use it.").format(name=name))
        elif code == Code.DOWNLOAD_CANCELLED:
            self.model_status.setText(self.tr("Stopped downloading {name}. What arrived is kept: Install resumes "
                                              "from there.").format(name=name))
        else:  # the cause in words, and in full (the label wraps): "no network", not "(download_failed)"
            explanation = explain(code)
            sentence = code_words(explanation.sentence) if explanation else ""
            self.model_status.setText(self.tr("Installing {name} failed: {why}").format(
                name=name, why=" ".join(part for part in (sentence, why) if part)))

        self._refresh_model_row(name)
        self._update_model_actions()

    @Slot()
    def save(self) -> None:
        """Save; a changed translation server is asked for an answer first, and a changed library database URL is
        checked (both off the GUI thread): the database is saved only if it opens; a server that does not answer is
        named, and a second Save keeps it (it may be started later)."""
        server = self.edited().translation_endpoint.strip()
        if server and server != self.original.translation_endpoint and server != self._server_checked:
            self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(False)
            self._show_check(self.server_check, self.tr("Checking the translation server…"), "info")
            self.show_tab_of(self.fields["translation_endpoint"])
            self._server_checked = server
            self.facade.settings.check_translation_server(server)
            return
        url = self.edited().database_url
        if url == self.original.database_url or not url:
            self._save_now()
            return
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(False)
        self._show_database_check(self.tr("Checking the library database…"), "info")
        self.show_tab_of(self.fields["database_url"])
        self._checking = url
        self.facade.settings.check_database(url)

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

    @Slot(str, str, str)
    def _server_answered(self, url: str, code: str, message: str) -> None:
        if url != self._server_checked:
            return  # another window's check, or an address changed since
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(True)
        if url != self.edited().translation_endpoint.strip():
            self.server_check.hide()
            return
        if not code:
            self._show_check(self.server_check, self.tr("The translation server answers."), "ok")
            self.save()
            return
        self._show_check(self.server_check, self.tr("The translation server does not answer: {reason}").format(
            reason=message) + "\n" + self.tr(
            "Correct the address, or Save again to keep it (for a server you start later); jobs wait for it and "
            "then write the transcript alone."), "error")

    def _show_database_check(self, text: str, accent: str) -> None:
        self._show_check(self.database_check, text, accent)

    @staticmethod
    def _show_check(label: QLabel, text: str, accent: str) -> None:
        label.setText(text)
        label.setStyleSheet(f"color:{ink(accent)};")
        label.show()

    def _save_now(self) -> None:
        self.facade.settings.save(self.edited())
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
        if not any(section.sizePolicy().verticalStretch() for section in sections):
            layout.addStretch(1)  # sections keep their height; a section with a stretch takes the room instead
        page = QScrollArea(self)
        page.setWidgetResizable(True)
        page.setFrameShape(QFrame.Shape.NoFrame)
        page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        page.setWidget(body)
        labels = [label for section in sections if isinstance(form := section.layout(), QFormLayout)
                  for n in range(form.rowCount()) if (item := form.itemAt(n, QFormLayout.ItemRole.LabelRole)) is not None
                  and (label := item.widget()) is not None]
        for label in labels:  # the sections' fields start at one column, not one per section
            label.setMinimumWidth(max(other.sizeHint().width() for other in labels))
        return page

    def _declared_section(self, section: str, title: str, intro: str = "") -> QGroupBox:
        """A titled section of the settings declared on ``section``, in their declared order.

        A check box carries its own label; a field that waits for another (``enabled_by``)
        sits on that one's row, after it; a number has its help beside it (a bare "all" or
        "8" says little); a list editor spans the section, under a label unless it is the
        section's only field (the title and intro name it then); a field that does nothing
        here (no GPU, another system) is left out. A field that grows (the glossary table)
        makes the section take the tab's height. Long rows wrap below their label on a
        narrow dialog.
        """
        box = QGroupBox(self.tr(title).replace("&", "&&"), self)  # a title's lone & is a mnemonic
        form = QFormLayout(box)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        if intro:
            about = QLabel(self.tr(intro), box)
            about.setWordWrap(True)
            form.addRow(about)
        declared = [name for name, spec in SPECS.items() if spec.section == section]
        for name in declared:
            self.fields[name].setVisible(self._applies(SPECS[name]))
        shown = [name for name in declared if self._applies(SPECS[name])]
        waiting = {name: [other for other in shown if (SPECS[other].enabled_by or ("",))[0] == name] for name in shown}
        for name in shown:
            spec, widget = SPECS[name], self.fields[name]
            if any(name in others for others in waiting.values()):
                continue  # on the row of the field it waits for
            row = self._row(name, waiting[name], box)
            if isinstance(widget, QCheckBox):
                form.addRow("", row)
            elif spec.holds in LIST_HOLDS:
                if len(shown) > 1:
                    form.addRow(self._label(name, box))
                form.addRow(row)
            else:
                form.addRow(self._label(name, box), row)
            for below in self._after.get(name, ()):
                form.addRow("", below)
            if widget.sizePolicy().verticalPolicy().value & QSizePolicy.PolicyFlag.ExpandFlag.value:
                policy = box.sizePolicy()
                policy.setVerticalStretch(1)
                box.setSizePolicy(policy)
        numbers = [self.fields[name] for name in shown if SPECS[name].holds in (Holds.INT, Holds.FLOAT) and not waiting[name]
                   and not any(name in others for others in waiting.values())]
        for number in numbers:  # their help starts at one column
            number.setFixedWidth(max(other.sizeHint().width() for other in numbers))
        return box

    def _label(self, name: str, parent: QWidget) -> QLabel:
        """A field's label: its buddy (a click focuses the field), its tooltip the field's, disabled with it."""
        label = QLabel(translated(SPECS[name].label), parent)
        label.setBuddy(self.fields[name])
        label.setToolTip(self.fields[name].toolTip())
        self.labels[name] = label
        return label

    def _row(self, name: str, waiting: list[str], parent: QWidget) -> QWidget:
        """A field as its form row shows it: alone, or followed by the fields waiting for it, or by its help."""
        spec, widget = SPECS[name], self.fields[name]
        beside = spec.holds in (Holds.INT, Holds.FLOAT) and not waiting
        if not waiting and not beside:
            return widget
        row = QWidget(parent)
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(widget)
        for other in waiting:
            line.addSpacing(line.spacing() * 2)
            line.addWidget(self._label(other, row))
            line.addWidget(self.fields[other])
        if beside:
            help_text = QLabel(translated(spec.help), row)
            help_text.setWordWrap(True)
            help_text.setStyleSheet(f"color:{muted()};")
            line.addWidget(help_text, 1)
        else:
            line.addStretch(1)
        return row

    def _applies(self, spec: SettingSpec) -> bool:
        """Whether a setting does anything on this computer (a GPU budget without a GPU does not)."""
        return ((not spec.gpu_only or self.facade.settings.gpu_device is not None)
                and (not spec.platforms or sys.platform.startswith(spec.platforms)))

    def _models_section(self) -> QWidget:
        box = QGroupBox(self.tr("Models"), self)
        policy = box.sizePolicy()
        policy.setVerticalStretch(1)  # the list takes the tab's height
        box.setSizePolicy(policy)
        ml = QVBoxLayout(box)
        ml.addWidget(self.models, 1)
        ml.addWidget(self.model_about)
        actions = QHBoxLayout()
        for button in (self.install_button, self.use_button, self.remove_button, self.cancel_install_button,
                       self.install_file_button):
            actions.addWidget(button)
        actions.addWidget(self.install_progress, 1)
        ml.addLayout(actions)
        ml.addWidget(self.model_status)
        return box

    #: The tabs and the sections on each, in order. A section builder takes the dialog and
    #: returns a self-contained widget; a declared section (:func:`declared`) shows the
    #: settings whose declaration names it, so a new setting needs no entry here.
    TABS: tuple[tuple[str, list[Callable[[SettingsDialog], QWidget]]], ...] = (
        (QT_TRANSLATE_NOOP("SettingsDialog", "Output"), [
            declared("output", QT_TRANSLATE_NOOP("SettingsDialog", "Output (new jobs)")),
            declared("translation", QT_TRANSLATE_NOOP("SettingsDialog", "Translation"))]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Glossary"), [  # its own tab: the table takes the height, not a scrolled strip
            declared("glossary", QT_TRANSLATE_NOOP("SettingsDialog", "Glossary"), QT_TRANSLATE_NOOP(
                "SettingsDialog", "Names and terms of your library (characters, products, places): speech recognition "
                "listens for them as written, and translations must render them as given. New jobs use this list "
                "together with their own terms."))]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Processing"), [
            declared("engine", QT_TRANSLATE_NOOP("SettingsDialog", "Engine")),
            declared("library", QT_TRANSLATE_NOOP("SettingsDialog", "Library database"))]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Schedule & power"), [
            declared("schedule", QT_TRANSLATE_NOOP("SettingsDialog", "Schedule & power"), QT_TRANSLATE_NOOP(
                "SettingsDialog", "Outside these hours the running step stops at its next checkpoint (its progress is "
                "kept) and nothing new starts."))]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Folders"), [
            declared("scanning", QT_TRANSLATE_NOOP("SettingsDialog", "Scanning"), QT_TRANSLATE_NOOP(
                "SettingsDialog", "Left out of every added or watched folder (system and hidden files, as media servers "
                "skip them); the folder you add itself is always scanned:")),
            declared("watched", QT_TRANSLATE_NOOP("SettingsDialog", "Watched folders"))]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Models"), [_models_section]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Server"), [
            declared("server", QT_TRANSLATE_NOOP("SettingsDialog", "Bazarr and media servers"), QT_TRANSLATE_NOOP(
                "SettingsDialog", "Read by `sidecar serve` when it starts: Bazarr's Whisper provider, and Jellyfin, Emby "
                "or Plex told of new files and asked to refresh them (README: With Jellyfin, Plex, Emby and Bazarr)."))]),
        (QT_TRANSLATE_NOOP("SettingsDialog", "Window"), [declared("window", QT_TRANSLATE_NOOP("SettingsDialog", "Window"))]),
    )

