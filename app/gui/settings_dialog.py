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
from typing import Any, Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Slot
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QGroupBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget,
                               QPlainTextEdit, QProgressBar, QPushButton, QScrollArea, QSpinBox, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from app.engine.kinds import LEFT_OUT_BY_DEFAULT
from app.gui.facade import EngineFacade
from app.gui.glossary_box import GlossaryBox
from app.gui.language_choice import LanguageCombo
from app.gui.theme import ink
from app.ml.catalogue import ROLE_PURPOSE
from app.gui.translations import UI_LANGUAGES
from app.media.naming import PRESETS, example_names
from app.settings import OUTPUT_AFFECTING, Settings

log = logging.getLogger(__name__)

POLICIES = (("skip", QT_TRANSLATE_NOOP("SettingsDialog", "Skip: leave the existing file alone")),
            ("overwrite", QT_TRANSLATE_NOOP("SettingsDialog", "Overwrite it")),
            ("keep_both", QT_TRANSLATE_NOOP("SettingsDialog", "Keep both (Movie.zh.1.srt)")))
NEW_JOBS_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "New jobs will use the changed output settings; jobs already "
                                                      "added keep the settings they were created with.")
LEFT_OUT_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "New jobs leave out the changed list; watched folders follow it "
                                                      "the next time Sidecar starts.")
RESTART_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "Workers and the GPU budget apply the next time Sidecar starts.")
LANGUAGE_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "Sidecar shows the chosen language the next time it starts.")
DATABASE_NOTICE = QT_TRANSLATE_NOOP("SettingsDialog", "Sidecar opens the other library database the next time it starts.")


INSTALLED_COLUMN = 3


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
        self.policy = QComboBox(self)
        for value, text in POLICIES:
            self.policy.addItem(self.tr(text), value)
        self.sidecar_json = QCheckBox(self.tr("Write photo.jpg.sidecar.json next to each image"), self)
        self.embedded_subtitles = QCheckBox(self.tr("Skip videos that already carry text subtitles in the target language"), self)
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
        self.close_to_tray = QCheckBox(self.tr("Closing the window keeps processing in the tray"), self)
        self.database_url = QLineEdit(self)  # a library shared with other machines (README: When one machine is not enough)
        self.database_url.setPlaceholderText(self.tr("empty: the library on this computer"))
        self.database_url.setToolTip(self.tr("A library shared by several machines: postgresql+psycopg://user@server/sidecar"))
        self.ui_language = QComboBox(self)
        for code, name in UI_LANGUAGES:
            self.ui_language.addItem(self.tr(name) if not code else name, code)
        self.left_out = QPlainTextEdit(self)
        self.left_out.setMaximumHeight(110)
        self.left_out.setToolTip(self.tr("One name a line; * and ? match any text; a name ending in / matches folders only"))
        restore_left_out = QPushButton(self.tr("Restore defaults"), self)
        restore_left_out.clicked.connect(lambda: self.left_out.setPlainText("\n".join(LEFT_OUT_BY_DEFAULT)))
        self.watched = QListWidget(self)
        self.watched.setMaximumHeight(90)
        add_watch, remove_watch = QPushButton(self.tr("Add…"), self), QPushButton(self.tr("Remove"), self)
        add_watch.clicked.connect(self._add_watched)
        remove_watch.clicked.connect(self._remove_watched)
        self.models = QTableWidget(0, 5, self)
        self.models.setHorizontalHeaderLabels([self.tr("Model"), self.tr("For"), self.tr("Size"), self.tr("Installed"),
                                               self.tr("In use")])  # INSTALLED_COLUMN: 3
        self.model_about = QLabel(self)
        self.model_about.setWordWrap(True)
        self.models.verticalHeader().hide()
        self.models.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.models.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.models.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            self.models.horizontalHeader().setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
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
        self._model_rows: list[dict[str, Any]] = []
        self._downloads: dict[str, tuple[int, int]] = {}
        self.glossary = GlossaryBox(self)
        self.notice = QLabel(self)
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet(f"color:{ink('info')};")

        output = QGroupBox(self.tr("Output (new jobs)"), self)
        of = QFormLayout(output)
        of.addRow(self.tr("Spoken language:"), self.source_lang)
        of.addRow(self.tr("Translate to:"), self.target_lang)
        of.addRow(self.tr("Subtitle names:"), self.naming)
        of.addRow("", self.naming_example)
        of.addRow("", self.naming_warning)
        of.addRow(self.tr("Existing files:"), self.policy)
        of.addRow("", self.sidecar_json)
        of.addRow("", self.embedded_subtitles)
        of.addRow(self.tr("Translation server:"), self.endpoint)
        of.addRow("", self.endpoint_note)
        engine = QGroupBox(self.tr("Engine"), self)
        ef = QFormLayout(engine)
        ef.addRow(self.tr("Workers:"), self.workers)
        ef.addRow(self.tr("GPU memory budget:"), self.gpu_budget)
        ef.addRow("", self.close_to_tray)
        ef.addRow(self.tr("Library database:"), self.database_url)
        ef.addRow(self.tr("Language:"), self.ui_language)
        ef.addRow("", QLabel(self.tr("The language of Sidecar's windows changes the next time Sidecar starts."), self))
        scanning = QGroupBox(self.tr("Scanning"), self)
        sl = QVBoxLayout(scanning)
        sl.addWidget(QLabel(self.tr("Left out of every added or watched folder (system and hidden files, as media servers skip "
                                    "them); the folder you add itself is always scanned:"), self))
        sl.addWidget(self.left_out)
        sl.addWidget(restore_left_out, 0, Qt.AlignmentFlag.AlignLeft)
        watched = QGroupBox(self.tr("Watched folders"), self)
        wl = QHBoxLayout(watched)
        wl.addWidget(self.watched, 1)
        wb = QVBoxLayout()
        wb.addWidget(add_watch)
        wb.addWidget(remove_watch)
        wb.addStretch(1)
        wl.addLayout(wb)
        models = QGroupBox(self.tr("Models"), self)
        ml = QVBoxLayout(models)
        ml.addWidget(self.models)
        ml.addWidget(self.model_about)
        actions = QHBoxLayout()
        for button in (self.install_button, self.use_button, self.remove_button, self.cancel_install_button):
            actions.addWidget(button)
        actions.addWidget(self.install_progress, 1)
        ml.addLayout(actions)
        ml.addWidget(self.model_status)

        body = QWidget(self)
        bl = QVBoxLayout(body)
        for box in (output, self.glossary, engine, scanning, watched, models):
            bl.addWidget(box)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)
        self.resize(620, 720)

        self._load(settings)
        for signal in (self.source_lang.currentTextChanged, self.target_lang.currentTextChanged,
                       self.naming.currentIndexChanged, self.policy.currentIndexChanged, self.endpoint.textChanged,
                       self.sidecar_json.toggled, self.embedded_subtitles.toggled, self.workers.valueChanged,
                       self.gpu_budget.valueChanged, self.left_out.textChanged, self.database_url.textChanged,
                       self.ui_language.currentIndexChanged, self.glossary.changed):
            signal.connect(self._changed)
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
        self.policy.setCurrentIndex(max(0, self.policy.findData(s.existing_policy)))
        self.sidecar_json.setChecked(s.image_sidecar_json)
        self.embedded_subtitles.setChecked(s.embedded_subtitles)
        self.endpoint.setText(s.translation_endpoint)
        self.workers.setValue(s.workers)
        self.gpu_budget.setValue(s.gpu_budget_mb)
        self.close_to_tray.setChecked(s.close_to_tray)
        self.database_url.setText(s.database_url)
        self.ui_language.setCurrentIndex(max(0, self.ui_language.findData(s.ui_language)))
        self.left_out.setPlainText("\n".join(s.scan_ignore))
        self.watched.clear()
        self.watched.addItems(s.watched_folders)
        self.glossary.set_lines(s.glossary)

    def edited(self) -> Settings:
        """The settings as the dialog shows them now."""
        return dataclasses.replace(
            self.original,
            source_lang=self.source_lang.code(), target_lang=self.target_lang.code() or self.original.target_lang,
            naming=str(self.naming.currentData()), existing_policy=str(self.policy.currentData()),
            image_sidecar_json=self.sidecar_json.isChecked(), embedded_subtitles=self.embedded_subtitles.isChecked(),
            translation_endpoint=self.endpoint.text().strip(),
            workers=self.workers.value(), gpu_budget_mb=self.gpu_budget.value(),
            close_to_tray=self.close_to_tray.isChecked(), ui_language=str(self.ui_language.currentData()),
            database_url=self.database_url.text().strip(),
            scan_ignore=[line.strip() for line in self.left_out.toPlainText().splitlines() if line.strip()],
            watched_folders=[self.watched.item(n).text() for n in range(self.watched.count())],
            glossary=self.glossary.lines(),
        )

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
        if (s.workers, s.gpu_budget_mb) != (self.original.workers, self.original.gpu_budget_mb):
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
    def show_models(self, rows: Sequence[dict[str, Any]]) -> None:
        selected = self.selected_model()
        self._model_rows = list(rows)
        self.models.setRowCount(len(rows))
        for n, row in enumerate(rows):
            for col, value in enumerate((row.get("name", ""), ROLE_PURPOSE.get(row.get("role", ""), row.get("role", "")),
                                         format_size(row.get("size")), self._installed_text(row),
                                         "✓" if row.get("active") else "")):
                cell = QTableWidgetItem(str(value))
                if row.get("description"):
                    cell.setToolTip(str(row["description"]))
                self.models.setItem(n, col, cell)
            if selected is not None and row.get("name") == selected.get("name"):
                self.models.selectRow(n)
        self._update_model_actions()

    def _installed_text(self, row: dict[str, Any]) -> str:
        name = str(row.get("name", ""))
        if name in self._downloads:
            done, total = self._downloads[name]
            return self.tr("downloading {percent}%").format(percent=done * 100 // total) if total else self.tr("downloading")
        return self.tr("yes") if row.get("installed") else (self.tr("partly downloaded") if row.get("partial_download") else self.tr("no"))

    def selected_model(self) -> dict[str, Any] | None:
        rows = self.models.selectionModel().selectedRows()
        return self._model_rows[rows[0].row()] if rows and rows[0].row() < len(self._model_rows) else None

    def select_model(self, name: str) -> None:
        for n, row in enumerate(self._model_rows):
            if row.get("name") == name:
                self.models.selectRow(n)

    def _on_selected(self, action: Any) -> None:
        row = self.selected_model()
        if row is not None:
            action(str(row["name"]))
        self._update_model_actions()

    def install_model(self, name: str) -> None:
        self._downloads[name] = (0, 0)
        self.model_status.setText(self.tr("Downloading {name}…").format(name=name))
        self.facade.install_model(name)
        self._refresh_model_row(name)

    @Slot()
    def _update_model_actions(self) -> None:
        row = self.selected_model() or {}
        name = str(row.get("name", ""))
        about = [str(row.get("description") or "")]
        if row.get("licence"):
            about.append(f"Licence: {row['licence']}.")
        self.model_about.setText(" ".join(a for a in about if a))
        downloading = bool(name) and (name in self._downloads or self.facade.installing(name))
        installed = bool(row.get("installed"))
        self.install_button.setEnabled(row.get("source") == "download" and not installed and not downloading)
        self.use_button.setEnabled(installed and not row.get("active") and not downloading)
        self.remove_button.setEnabled(row.get("source") in ("download", "local") and installed and not downloading)
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
            if row.get("name") == name and self.models.item(n, INSTALLED_COLUMN) is not None:
                self.models.item(n, INSTALLED_COLUMN).setText(self._installed_text(row))

    @Slot(str, str)
    def _install_ended(self, name: str, code: str) -> None:
        self._downloads.pop(name, None)
        if not code:
            self.model_status.setText(self.tr("{name} is installed. Choose “Use” to have new jobs use it.").format(name=name))
        elif code == "download_cancelled":
            self.model_status.setText(self.tr("Stopped downloading {name}. What arrived is kept: Install resumes "
                                              "from there.").format(name=name))
        else:
            self.model_status.setText(self.tr("Installing {name} failed ({code}).").format(name=name, code=code))

        self._refresh_model_row(name)
        self._update_model_actions()

    @Slot()
    def save(self) -> None:
        self.facade.save_settings(self.edited())
        self.accept()
