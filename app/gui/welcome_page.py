"""The first-run page: what Sidecar will write where, in which languages, and how it will translate.

Shown instead of the empty job list until the person adds something or skips it; a
library that has a job never shows it again (``Settings.welcome_dismissed``). The
translation choice names the exact download the chosen subtitle language needs (the
OPUS-MT package to it from English, e.g. "translate-en-de"), one click away; without it
each video gets its transcript and waits, named, for its translator
(``waiting_for_translator``). Everything the page changes is an ordinary setting, saved
through the facade and editable later in Settings.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (QButtonGroup, QFormLayout, QFrame, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
                               QProgressBar, QPushButton, QRadioButton, QVBoxLayout, QWidget)

from app.errors import Code
from app.gui.facade import EngineFacade
from app.gui.language_choice import LANGUAGES
from app.gui.setting_fields import field_for
from app.gui.settings_dialog import format_size
from app.gui.translations import ui_locale
from app.gui.wheel_guard import guard_wheel
from app.gui.facade.calculations import example_names
from app.gui.facade.records import SIDECAR_SUFFIX
from app.settings import SPECS, Settings

if TYPE_CHECKING:  # the model list is read off the GUI thread, where model_choice is imported
    from app.gui.facade.records import ModelRow

log = logging.getLogger(__name__)

LATER, DOWNLOAD, ENDPOINT = "later", "download", "endpoint"


class WelcomePage(QWidget):
    """Emits ``addFolderRequested`` for its drop-zone button and ``finished`` once the person is done with it."""

    addFolderRequested = Signal()
    finished = Signal()

    def __init__(self, facade: EngineFacade, parent: QWidget | None = None):
        super().__init__(parent)
        self.facade = facade
        self.settings: Settings | None = None
        self.recommended: ModelRow | None = None  # the translation package the chosen subtitle language needs
        self.rows: Sequence[ModelRow] = ()

        title = QLabel(self.tr("Welcome to Sidecar"), self)
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        title.setFont(font)
        intro = QLabel(self.tr("Drop folders of videos, audio recordings and photos. Sidecar works through them in the "
                               "background: it subtitles every video, transcribes every recording and makes every photo "
                               "searchable. Your files are never changed or moved; results are written next to them."), self)
        intro.setWordWrap(True)

        self.source_lang = field_for(SPECS["source_lang"], self)  # the Settings dialog's fields, from the declarations
        self.target_lang = field_for(SPECS["target_lang"], self)
        self.examples = QLabel(self)
        self.examples.setWordWrap(True)
        self.examples.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        languages = QGroupBox(self.tr("Languages and files"), self)
        form = QFormLayout(languages)
        form.addRow(self.tr("Spoken language:"), self.source_lang)
        form.addRow(self.tr("Subtitles in:"), self.target_lang)
        form.addRow(self.tr("Written next to your files:"), self.examples)
        self.glossary = QLineEdit(self)  # kept with the settings: Settings → Glossary lists them afterwards
        self.glossary.setPlaceholderText(self.tr("optional, e.g. ComfyUI; Jon Snow = Jon Schnee"))
        self.glossary.setToolTip(self.tr("Names and terms said in your recordings, separated by semicolons: speech "
                                         "recognition listens for them as written"))
        form.addRow(self.tr("Names and terms:"), self.glossary)

        self.choice = QButtonGroup(self)
        self.later = QRadioButton(self.tr("Later: transcripts now; each video waits for its translator, named in "
                                          "the list, and is translated by itself once it is installed."), self)
        self.download = QRadioButton(self)
        self.endpoint = QRadioButton(self.tr("An OpenAI-compatible server (LM Studio, Ollama, llama.cpp server…)"), self)
        for button, key in ((self.download, DOWNLOAD), (self.later, LATER), (self.endpoint, ENDPOINT)):
            button.setProperty("choice", key)
            self.choice.addButton(button)
        self.install = QPushButton(self.tr("Download"), self)
        self.cancel_install = QPushButton(self.tr("Cancel"), self)
        self.progress = QProgressBar(self)
        self.download_state = QLabel(self)
        self.endpoint_url = QLineEdit(self)
        self.endpoint_url.setPlaceholderText("http://127.0.0.1:1234/v1")
        self.endpoint_model = QLineEdit(self)
        self.endpoint_model.setPlaceholderText(self.tr("model name (optional)"))
        self.endpoint_note = QLabel(self.tr("The text of each subtitle is sent to this address to be translated; "
                                            "audio, pictures and file names stay on this computer."), self)
        self.endpoint_note.setWordWrap(True)
        translation = QGroupBox(self.tr("Translation"), self)
        tl = QVBoxLayout(translation)
        tl.addWidget(self.download)
        row = QHBoxLayout()
        row.setContentsMargins(24, 0, 0, 0)
        for widget in (self.install, self.cancel_install, self.progress, self.download_state):
            row.addWidget(widget)
        row.addStretch(1)
        tl.addLayout(row)
        tl.addWidget(self.later)
        tl.addWidget(self.endpoint)
        endpoint_form = QFormLayout()
        endpoint_form.setContentsMargins(24, 0, 0, 0)
        endpoint_form.addRow(self.tr("Address:"), self.endpoint_url)
        endpoint_form.addRow(self.tr("Model:"), self.endpoint_model)
        endpoint_form.addRow(self.endpoint_note)
        tl.addLayout(endpoint_form)

        self.drop_zone = QFrame(self)
        self.drop_zone.setObjectName("dropZone")
        self.drop_zone.setStyleSheet("#dropZone { border: 2px dashed palette(mid); border-radius: 10px; }")
        self.drop_zone.setMinimumHeight(140)
        dz = QVBoxLayout(self.drop_zone)
        drop_label = QLabel(self.tr("Drop folders or files here"), self.drop_zone)
        drop_font = drop_label.font()
        drop_font.setPointSizeF(drop_font.pointSizeF() * 1.3)
        drop_label.setFont(drop_font)
        drop_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.add_folder = QPushButton(self.tr("Add folder…"), self.drop_zone)
        dz.addStretch(1)
        dz.addWidget(drop_label)
        dz.addWidget(self.add_folder, 0, Qt.AlignmentFlag.AlignHCenter)
        dz.addStretch(1)

        self.skip = QPushButton(self.tr("Skip"), self)
        self.skip.setToolTip(self.tr("Keep the current settings; they can be changed any time in Settings."))
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(self.skip)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addWidget(languages)
        layout.addWidget(translation)
        layout.addWidget(self.drop_zone, 1)
        layout.addLayout(bottom)

        self.source_lang.currentTextChanged.connect(lambda _: self._show_examples())
        self.target_lang.currentTextChanged.connect(lambda _: self._show_examples())
        self.target_lang.currentTextChanged.connect(lambda _: self._show_offer())
        self.source_lang.currentTextChanged.connect(lambda _: self._show_offer())
        self.choice.buttonToggled.connect(lambda *_: self._show_choice())
        self.install.clicked.connect(self._install)
        self.cancel_install.clicked.connect(self._cancel)
        self.add_folder.clicked.connect(self.addFolderRequested)
        self.skip.clicked.connect(self.dismiss)
        facade.settings.settingsLoaded.connect(self.show_settings)
        facade.models.modelsListed.connect(self.show_models)
        facade.models.modelProgress.connect(self._progress)
        facade.models.modelInstallEnded.connect(self._install_ended)
        self.download.setChecked(True)
        self._show_choice()
        guard_wheel(self)  # the page scrolls: the wheel must not change the languages on its way

    # -- state ----------------------------------------------------------------------------

    @staticmethod
    def _first_target(settings: Settings) -> str:
        """The subtitles' language to offer first: the windows' language while the setting is still its default
        (a person whose Sidecar speaks Chinese most likely wants Chinese subtitles, not English)."""
        if settings.target_lang != SPECS["target_lang"].default:
            return settings.target_lang
        spoken = ui_locale(settings.ui_language).name().split("_")[0]
        return spoken if spoken in {code for code, _ in LANGUAGES} else settings.target_lang

    @Slot(object)
    def show_settings(self, settings: Settings) -> None:
        self.settings = settings
        self.source_lang.set_value(settings.source_lang)
        self.target_lang.set_value(self._first_target(settings))
        if settings.translation_endpoint:
            self.endpoint_url.setText(settings.translation_endpoint)
            self.endpoint_model.setText(settings.translation_endpoint_model)
            self.endpoint.setChecked(True)
        self._show_examples()
        self.facade.models.list_models()

    @Slot(list)
    def show_models(self, rows: Sequence[ModelRow]) -> None:
        self.rows = rows
        self._show_offer()

    def _show_offer(self) -> None:
        """The package the subtitle language needs: to it from English (other speech pivots through English), or,
        for English subtitles, from the spoken language when it is set."""
        target = self.target_lang.value() if self.settings is not None else ""
        source = self.source_lang.value() if self.settings is not None else ""
        pair = f"en→{target}" if target and target != "en" else (f"{source}→en" if source and source != "en" else "")
        self.recommended = next((r for r in self.rows if r.pair == pair), None) if pair else None
        self.download.setVisible(self.recommended is not None)
        r = self.recommended
        if r is not None:
            size = format_size(r.size) if r.size else self.tr("size shown while downloading")
            self.download.setText(self.tr("Download the {pair} translator ({name}, {size}, licence {licence}): "
                                          "translations made on this computer, no internet needed afterwards.")
                                  .format(pair=pair, name=r.name, size=size, licence=r.licence or "?"))
        elif self.rows and self.chosen() == DOWNLOAD:  # the models are listed: none for this language
            self.later.setChecked(True)
        self._show_choice()

    def _show_examples(self) -> None:
        if self.settings is None:
            return
        target = self.target_lang.value()
        source = self.source_lang.value()
        videos = ", ".join(example_names(self.settings.naming, "Holiday", source or "en", target))
        if source:
            text = self.tr("for Holiday.mp4: {videos}").format(videos=videos)
        else:  # detected per video: the example has to assume one
            text = self.tr("for Holiday.mp4 spoken in English: {videos}").format(videos=videos)
        if self.settings.image_sidecar_json:
            text += "\n" + self.tr("for cat.jpg: {json} (what the photo shows and the text in it)").format(
                json=f"cat.jpg{SIDECAR_SUFFIX}")
        self.examples.setText(text)

    def chosen(self) -> str:
        button = self.choice.checkedButton()
        return str(button.property("choice")) if button is not None else LATER

    def _show_choice(self) -> None:
        downloading = self.recommended is not None and self.facade.models.installing(self.recommended.name)
        installed = bool(self.recommended and self.recommended.installed)
        wants_download = self.chosen() == DOWNLOAD
        self.install.setVisible(wants_download and not installed and not downloading)
        self.cancel_install.setVisible(downloading)
        self.progress.setVisible(downloading)
        self.download_state.setVisible(wants_download and (installed or bool(self.download_state.text())))
        if installed:
            self.download_state.setText(self.tr("Installed."))
        for widget in (self.endpoint_url, self.endpoint_model, self.endpoint_note):
            widget.setEnabled(self.chosen() == ENDPOINT)

    # -- downloads ------------------------------------------------------------------------

    def _install(self) -> None:
        if self.recommended is None:
            return
        self.download_state.setText("")
        self.facade.models.install_model(self.recommended.name)
        self.progress.setRange(0, 0)
        self._show_choice()

    def _cancel(self) -> None:
        if self.recommended is not None:
            self.facade.models.cancel_install(self.recommended.name)

    @Slot(str, int, int)
    def _progress(self, name: str, done: int, total: int) -> None:
        if self.recommended is None or name != self.recommended.name:
            return
        if total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * done / total))
            self.progress.setFormat(f"{format_size(done)} / {format_size(total)}")
        self._show_choice()

    @Slot(str, str)
    def _install_ended(self, name: str, code: str, why: str = "") -> None:
        if self.recommended is None or name != self.recommended.name:
            return
        if code == Code.DOWNLOAD_CANCELLED:
            self.download_state.setText(self.tr("Stopped. Download again to resume where it stopped."))
        elif code:
            self.download_state.setText(self.tr("The download failed ({code}); the status bar says why.").format(code=code))
        else:
            self.download_state.setText(self.tr("Installed."))
        self._show_choice()

    # -- leaving --------------------------------------------------------------------------

    def apply(self) -> Settings | None:
        """Save the page's choices (languages, glossary terms, translation) and never show it again; returns what was saved."""
        if self.settings is None:
            return None
        endpoint = self.chosen() == ENDPOINT and bool(self.endpoint_url.text().strip())
        updated = dataclasses.replace(
            self.settings,
            source_lang=self.source_lang.value(),
            target_lang=self.target_lang.value(),
            translation_endpoint=self.endpoint_url.text().strip() if endpoint else "",
            translation_endpoint_model=self.endpoint_model.text().strip() if endpoint else "",
            welcome_dismissed=True,
            glossary=[*self.settings.glossary, *(t.strip() for t in self.glossary.text().split(";") if t.strip())],
        )
        self.facade.settings.save(updated)
        self.finished.emit()
        return updated

    def dismiss(self) -> None:
        """Skip: keep every setting as it was, only remember that the page was seen."""
        if self.settings is not None:
            self.facade.settings.save(dataclasses.replace(self.settings, welcome_dismissed=True))
        self.finished.emit()
