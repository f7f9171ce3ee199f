"""The person's settings, one JSON file in the data dir, written atomically.

Each setting is declared once, as a ``setting(...)`` field of :class:`Settings`: its
type and default, the values it takes, its label and help (marked for translation), the
dialog section that shows it, whether a job freezes it and its ``sidecar add`` flag.
settings.json validation (:func:`read_settings`), the Settings dialog's generated fields
(``app.gui.setting_fields``), the CLI's flags, job snapshots (``JobOptions.from_settings``)
and the README table (:func:`settings_table`) all read :data:`SPECS`, so adding a setting
is its declaration plus the translations of its words.

Settings that change outputs (languages, naming, policy, glossary) are frozen into each
job at creation, so a change applies to new jobs only.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import locale
import logging
import os
import re
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Callable, NamedTuple

from app.atomic_write import atomic_write
from app.codes import Code
from app.media.glossary import parse_entry
from app.media.naming import PRESETS
from app.translate_marks import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
UI_LANGUAGE_NAMES = (("en", "English"), ("zh_CN", "简体中文"), ("de", "Deutsch"))
"""The windows' languages, each named in itself (English is the source text; the others have a catalogue in
resources/i18n)."""
UI_LANGUAGE_CODES = tuple(code for code, _ in UI_LANGUAGE_NAMES)

LEFT_OUT_BY_DEFAULT: tuple[str, ...] = (
    "._*",  # macOS AppleDouble: resource forks named like the media they sit beside
    "@eaDir",  # Synology thumbnails and metadata
    "#recycle", "#snapshot",  # Synology recycle bin and snapshots
    ".@__thumb",  # QNAP thumbnails
    ".Trash-*", "$RECYCLE.BIN", "System Volume Information", "lost+found",
    ".*/",  # any other hidden folder
)
"""What media servers skip: shell patterns matched against one file or folder name; a pattern ending in
``/`` matches folders only."""


SETTINGS_CONTEXT = "Settings"
"""The catalogue context of the settings' labels and help: declared here, below the GUI, so the CLI's help,
the README table and the dialog read the same words; the dialog translates them under this context."""


class Holds(StrEnum):
    """What a setting's value is: it decides the check of settings.json, the dialog's widget, the flag and the README words."""

    CHOICE = "choice"  # one of ``choices``
    BOOL = "bool"
    INT = "int"  # within ``minimum``–``maximum``
    FLOAT = "float"
    TEXT = "text"  # one line of free text
    SECRET = "secret"  # one line of text that is a password or token: shown as dots, never logged
    LANGUAGE = "language"  # an ISO 639 code; "" (when ``special`` names it) lets Sidecar detect it
    LINES = "lines"  # a list of text, one item a line
    PAIRS = "pairs"  # a list of "key" or "key = value" lines, edited as two columns
    FOLDERS = "folders"  # a list of folder paths
    WORK_HOURS = "work_hours"  # "all", "off" or "22:00-07:00" (parsed by app.engine.work_hours)


LIST_HOLDS = frozenset({Holds.LINES, Holds.PAIRS, Holds.FOLDERS})
"""Settings that hold a list: edited a row each, and a repeatable flag."""
_LANGUAGE = re.compile(r"[a-z]{2,3}([-_][A-Za-z]{2,4})?")
_README_VALUES = {Holds.BOOL: "`true`, `false`", Holds.TEXT: "text", Holds.SECRET: "text (a secret)", Holds.LANGUAGE: "ISO 639-1 code",
                  Holds.LINES: "list of text", Holds.PAIRS: "list of `term` or `term = rendering`",
                  Holds.FOLDERS: "list of folders", Holds.WORK_HOURS: "`all`, `off` or `HH:MM-HH:MM`"}


@dataclass(frozen=True)
class SettingSpec:
    """One setting, declared once: everything that shows, checks or freezes it reads this.

    ``choices`` are (stored value, label) pairs; ``minimum``/``maximum`` bound a number,
    ``step`` and ``suffix`` shape its field; ``special`` is the label of the empty or lowest
    value when that means something else ("all" cores, "detect automatically");
    ``placeholder`` is what an empty text field shows; ``columns`` head a pairs editor.
    ``section`` names the Settings dialog section whose form shows the field
    (``SettingsDialog.TABS``; "" keeps it in settings.json only); ``enabled_by`` is a
    (setting, value) the field waits for; ``gpu_only`` and ``platforms`` hide it where it
    does nothing. ``output_affecting`` settings are frozen into each job when it is created
    (``JobOptions.from_settings``) and ``cli`` is the ``sidecar add`` flag that overrides
    one for that job; ``restart`` ones size the engine, which reads them when it starts.
    """

    name: str
    default: Any
    label: str
    help: str
    holds: Holds
    choices: tuple[tuple[str, str], ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    step: int = 1
    suffix: str = ""
    special: str = ""
    placeholder: str = ""
    columns: tuple[str, str] = ("", "")
    section: str = ""
    enabled_by: tuple[str, Any] | None = None
    gpu_only: bool = False
    platforms: tuple[str, ...] = ()
    output_affecting: bool = False
    restart: bool = False
    cli: str = ""
    metavar: str = ""
    shown_default: str = ""  # the README's words for a default computed on the person's machine

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _ in self.choices)

    def check(self, value: Any) -> bool:
        """Whether ``value`` (as read from settings.json) is one this setting takes."""
        if self.holds is Holds.BOOL:
            return isinstance(value, bool)
        if self.holds in (Holds.INT, Holds.FLOAT):
            if isinstance(value, bool) or not (isinstance(value, int) or (self.holds is Holds.FLOAT and isinstance(value, float))):
                return False
            return (self.minimum is None or float(value) >= self.minimum) and (self.maximum is None or float(value) <= self.maximum)
        if self.holds is Holds.CHOICE:
            return value in self.values
        if self.holds is Holds.LANGUAGE:
            return isinstance(value, str) and (bool(_LANGUAGE.fullmatch(value)) or (value == "" and bool(self.special)))
        if self.holds in LIST_HOLDS:
            return isinstance(value, list) and all(isinstance(line, str) for line in value)
        return isinstance(value, str)

    def parse_flag(self, text: str) -> Any:
        """A ``sidecar add`` flag's text as this setting's value (ValueError names what it takes)."""
        value: Any = text
        if self.holds is Holds.INT:
            value = int(text)
        elif self.holds is Holds.FLOAT:
            value = float(text)
        elif self.holds is Holds.LANGUAGE:
            value = text.strip().lower()
        if not self.check(value):
            raise ValueError(f"{text!r} is not a value {self.cli} takes ({self.values_words()})")
        return value

    def values_words(self) -> str:
        """The values it takes, as the README and the CLI's errors say them."""
        if self.choices:
            return ", ".join(f"`{v}`" if v else '`""`' for v in self.values)
        if self.holds in (Holds.INT, Holds.FLOAT):
            bounds = f"{_number(self.minimum)}–{_number(self.maximum)}"
            return (bounds + (f" {self.suffix}" if self.suffix else "")).strip()
        return _README_VALUES[self.holds]


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def setting(default: Any, label: str, help: str, **spec: Any) -> Any:
    """A ``Settings`` field declared with its ``SettingSpec`` (its name comes from the field).

    ``default`` may be a function, computed for each new ``Settings`` (the OS language);
    a list default is copied for each. What it holds follows from the default unless
    ``holds`` says more (a language, folders, pairs).
    """
    made: Callable[[], Any] | None = None
    if callable(default):
        made = default
    elif isinstance(default, list):
        made = functools.partial(list, default)  # each Settings gets its own copy
    example = made() if made is not None else default
    spec.setdefault("holds", Holds.CHOICE if "choices" in spec else {bool: Holds.BOOL, int: Holds.INT, float: Holds.FLOAT,
                                                                        list: Holds.LINES}.get(type(example), Holds.TEXT))
    metadata = {"spec": (example, label, help, spec)}
    if made is not None:
        return field(default_factory=made, metadata=metadata)
    return field(default=default, metadata=metadata)


def pair_rows(lines: list[str]) -> list[tuple[str, str]]:
    """A pairs setting's lines (``term`` or ``term = rendering``, read as a glossary file is) as (term, rendering) rows."""
    return [(entry.term, entry.rendering or "") for entry in map(parse_entry, lines) if entry is not None]


def pair_lines(rows: list[tuple[str, str]]) -> list[str]:
    """(term, rendering) rows as the lines settings.json keeps; a row without a term is none."""
    return [f"{term} = {rendering}" if rendering else term for term, rendering in rows if term]


def default_target_language() -> str:
    """The OS UI language's ISO 639-1 code, else English (SPEC §7)."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        code = value.split(".")[0].split("_")[0].lower()
        if len(code) == 2 and code.isalpha():
            return code
    try:
        code = (locale.getlocale()[0] or "").split("_")[0].lower()
    except ValueError:
        code = ""
    return code if len(code) == 2 else "en"


PAUSE, KEEP_GOING, PAUSE_BELOW = "pause", "keep_going", "below"
"""What work does on battery power (``on_battery``; app.engine.background applies it)."""



@dataclass
class Settings:
    """Every setting, each declared once with ``setting(...)``; the plain fields below the line are Sidecar's own
    memory (a notice shown, a timed pause), which nobody edits, so they have no label, widget or flag."""

    # -- Output (new jobs freeze these); the dialog shows each section's settings in this order --
    source_lang: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Spoken language:"),
        QT_TRANSLATE_NOOP("Settings", "The language spoken in the videos; empty: detected in each file"),
        holds=Holds.LANGUAGE, special=QT_TRANSLATE_NOOP("Settings", "Detect automatically"), section="output", output_affecting=True,
        cli="--source-lang", metavar="LANG")
    target_lang: str = setting(
        default_target_language, QT_TRANSLATE_NOOP("Settings", "Translate to:"),
        QT_TRANSLATE_NOOP("Settings", "The language subtitles are translated into; empty: transcripts only"),
        holds=Holds.LANGUAGE, special=QT_TRANSLATE_NOOP("Settings", "Don't translate"), section="output", output_affecting=True,
        cli="--target-lang", metavar="LANG",
        shown_default="the system's language")
    naming: str = setting(
        "media-server", QT_TRANSLATE_NOOP("Settings", "Subtitle names:"),
        QT_TRANSLATE_NOOP("Settings", "How subtitle files are named: Movie.zh.srt for media servers, or Movie.CN.srt"),
        choices=tuple((preset, preset) for preset in PRESETS), section="output", output_affecting=True, cli="--naming")
    existing_policy: str = setting(
        "skip", QT_TRANSLATE_NOOP("Settings", "Existing files:"),
        QT_TRANSLATE_NOOP("Settings", "What a new job does where a subtitle or sidecar it would write already exists"),
        choices=(("skip", QT_TRANSLATE_NOOP("Settings", "Skip: leave the existing file alone")),
                 ("overwrite", QT_TRANSLATE_NOOP("Settings", "Overwrite it")),
                 ("keep_both", QT_TRANSLATE_NOOP("Settings", "Keep both (Movie.zh.1.srt)"))),
        section="output", output_affecting=True, cli="--existing")
    image_sidecar_json: bool = setting(
        True, QT_TRANSLATE_NOOP("Settings", "Write photo.jpg.sidecar.json next to each image"),
        QT_TRANSLATE_NOOP("Settings", "An indexed image gets a JSON file beside it with what Sidecar found in it"),
        section="output", output_affecting=True, cli="--image-sidecar-json")
    embedded_subtitles: bool = setting(
        True, QT_TRANSLATE_NOOP("Settings", "Skip videos that already carry text subtitles in the target language"),
        QT_TRANSLATE_NOOP("Settings", "A text subtitle stream in the target language inside a video counts as subtitled"),
        section="output", output_affecting=True, cli="--embedded-subtitles")
    subtitle_profile: str = setting(
        "netflix", QT_TRANSLATE_NOOP("Settings", "Subtitle rules:"),
        QT_TRANSLATE_NOOP("Settings", "How cues are cut: Netflix's style guide per language (42 characters a line, Chinese 16, "
                                      "Japanese 13; 2 lines; 5/6–7 s; 20 characters/s in English, 17 in most languages), "
                                      "relaxed (longer lines, faster reading) or custom"),
        choices=(("netflix", QT_TRANSLATE_NOOP("Settings", "Netflix style guide")),
                 ("relaxed", QT_TRANSLATE_NOOP("Settings", "Relaxed")),
                 ("custom", QT_TRANSLATE_NOOP("Settings", "Custom"))),
        section="output", output_affecting=True, cli="--subtitle-rules")
    custom_line_chars: int = setting(
        42, QT_TRANSLATE_NOOP("Settings", "Line length (custom):"),
        QT_TRANSLATE_NOOP("Settings", "The custom rules' line length for Latin text; Chinese, Japanese and Korean keep their share"),
        minimum=20, maximum=80, section="output", enabled_by=("subtitle_profile", "custom"), output_affecting=True,
        cli="--line-chars")
    custom_cps: int = setting(
        17, QT_TRANSLATE_NOOP("Settings", "Reading speed (custom):"),
        QT_TRANSLATE_NOOP("Settings", "The custom rules' characters per second; translations faster than this are flagged"),
        minimum=5, maximum=40, suffix=QT_TRANSLATE_NOOP("Settings", "characters/s"), section="output",
        output_affecting=True, cli="--reading-speed")
    webvtt: bool = setting(
        False, QT_TRANSLATE_NOOP("Settings", "Also write WebVTT (.vtt) beside each .srt"),
        QT_TRANSLATE_NOOP("Settings", "For browsers and players that read WebVTT: Movie.ja.vtt beside Movie.ja.srt"),
        section="output", output_affecting=True, cli="--webvtt")
    keep_sound_tags: bool = setting(
        True, QT_TRANSLATE_NOOP("Settings", "Keep sound tags such as [music], ♪ and (applause)"),
        QT_TRANSLATE_NOOP("Settings", "Off: sound tags are removed from the subtitles, and a cue holding nothing else is left out"),
        section="output", output_affecting=True, cli="--sound-tags")
    speakers: str = setting(
        "off", QT_TRANSLATE_NOOP("Settings", "Speaker labels:"),
        QT_TRANSLATE_NOOP("Settings", "Tell voices apart: a style per speaker in the bilingual subtitles, dialogue dashes "
                                      "when two share a cue, `[Speaker 1]` in transcripts. Needs the speaker model "
                                      "(`sidecar models install speakers-ge2e`)"),
        choices=(("off", QT_TRANSLATE_NOOP("Settings", "Off")),
                 ("auto", QT_TRANSLATE_NOOP("Settings", "Count the speakers")),
                 *((str(n), str(n)) for n in range(2, 7))),
        section="output", output_affecting=True, cli="--speakers")
    translation_endpoint: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Translation server:"),
        QT_TRANSLATE_NOOP("Settings", "An OpenAI-compatible server that translates the subtitle text; empty: translate on this computer"),
        placeholder=QT_TRANSLATE_NOOP("Settings", "empty: translate on this computer"), section="translation",
        output_affecting=True)
    translation_endpoint_model: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Model on the server:"),
        QT_TRANSLATE_NOOP("Settings", "The model the translation server is asked for; empty: the server's own choice"),
        placeholder=QT_TRANSLATE_NOOP("Settings", "empty: the server's default"), section="translation",
        output_affecting=True)
    glossary: list[str] = setting(
        [], QT_TRANSLATE_NOOP("Settings", "Names and terms:"),
        QT_TRANSLATE_NOOP("Settings", "The library's own words: speech recognition hears each term as written and a translation "
                      "must render it as given; the terms a job is given join these"),
        holds=Holds.PAIRS, columns=(QT_TRANSLATE_NOOP("Settings", "Term"), QT_TRANSLATE_NOOP("Settings", "Rendering in translations (optional)")),
        section="glossary", output_affecting=True, cli="--glossary", metavar="TERM[=TRANSLATION]")

    # -- Processing --
    workers: int = setting(
        max(1, os.cpu_count() or 1), QT_TRANSLATE_NOOP("Settings", "Workers:"),
        QT_TRANSLATE_NOOP("Settings", "How many steps run at once"),
        minimum=1, maximum=64, section="engine", restart=True, shown_default="the number of cores")
    gpu_budget_mb: int = setting(
        6144, QT_TRANSLATE_NOOP("Settings", "GPU memory budget:"),
        QT_TRANSLATE_NOOP("Settings", "How much of the GPU's memory the models may take together"),
        minimum=256, maximum=262144, step=512, suffix=QT_TRANSLATE_NOOP("Settings", "MB"), section="engine", gpu_only=True, restart=True)
    stall_seconds: int = setting(
        60, QT_TRANSLATE_NOOP("Settings", "Stop a stalled stage after:"),
        QT_TRANSLATE_NOOP("Settings", "A stage with no progress for this long is stopped (stalled)"),
        minimum=10, maximum=3600, suffix=QT_TRANSLATE_NOOP("Settings", "s"), section="engine", restart=True)
    image_batch_size: int = setting(
        8, QT_TRANSLATE_NOOP("Settings", "Images per batch:"),
        QT_TRANSLATE_NOOP("Settings", "How many images an image stage (captions, text, search vectors) hands its model at once; "
                                      "more is faster on a GPU and takes more memory"),
        minimum=1, maximum=64, section="engine", restart=True)
    group_size: int = setting(
        8, QT_TRANSLATE_NOOP("Settings", "Files per model group:"),
        QT_TRANSLATE_NOOP("Settings", "How many files are transcribed before they are translated, so each model loads once a group"),
        minimum=1, maximum=256, restart=True)
    database_url: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Library database:"),
        QT_TRANSLATE_NOOP("Settings", "A library shared by several machines: postgresql+psycopg://user@server/sidecar; "
                      "empty: the library on this computer"),
        placeholder=QT_TRANSLATE_NOOP("Settings", "empty: the library on this computer"), section="library")

    # -- Schedule & power (app.engine.background) --
    work_weekdays: str = setting(
        "all", QT_TRANSLATE_NOOP("Settings", "Work on weekdays:"), QT_TRANSLATE_NOOP("Settings", "When Sidecar works from Monday to Friday"),
        holds=Holds.WORK_HOURS, section="schedule")
    work_weekends: str = setting(
        "all", QT_TRANSLATE_NOOP("Settings", "Work on weekends:"), QT_TRANSLATE_NOOP("Settings", "When Sidecar works on Saturday and Sunday"),
        holds=Holds.WORK_HOURS, section="schedule")
    on_battery: str = setting(
        PAUSE, QT_TRANSLATE_NOOP("Settings", "On battery:"),
        QT_TRANSLATE_NOOP("Settings", "What Sidecar does while the computer runs on its battery"),
        choices=((PAUSE, QT_TRANSLATE_NOOP("Settings", "Pause")), (KEEP_GOING, QT_TRANSLATE_NOOP("Settings", "Keep going")),
                 (PAUSE_BELOW, QT_TRANSLATE_NOOP("Settings", "Pause below a charge"))), section="schedule")
    battery_floor: int = setting(
        30, QT_TRANSLATE_NOOP("Settings", "Pause below:"), QT_TRANSLATE_NOOP("Settings", "On battery, work pauses once the charge is below this"),
        minimum=5, maximum=95, suffix="%", section="schedule", enabled_by=("on_battery", PAUSE_BELOW))
    max_cores: int = setting(
        0, QT_TRANSLATE_NOOP("Settings", "Use at most:"), QT_TRANSLATE_NOOP("Settings", "Cores for the workers and each model's threads"),
        minimum=0, maximum=1024, suffix=QT_TRANSLATE_NOOP("Settings", "cores"), special=QT_TRANSLATE_NOOP("Settings", "all"), section="schedule",
        restart=True)
    pause_while_in_use: bool = setting(
        False, QT_TRANSLATE_NOOP("Settings", "Pause while I use the computer"),
        QT_TRANSLATE_NOOP("Settings", "Work waits while there was keyboard or mouse input lately"), section="schedule")
    in_use_minutes: int = setting(
        5, QT_TRANSLATE_NOOP("Settings", "Input in the last:"),
        QT_TRANSLATE_NOOP("Settings", "How recent input must be to count as using the computer"),
        minimum=1, maximum=60, suffix=QT_TRANSLATE_NOOP("Settings", "min"), section="schedule", enabled_by=("pause_while_in_use", True))
    notify_finished: bool = setting(
        True, QT_TRANSLATE_NOOP("Settings", "Tell me when a job finishes"),
        QT_TRANSLATE_NOOP("Settings", "A desktop notification when a job is done"),
        section="schedule")
    notify_review: bool = setting(
        True, QT_TRANSLATE_NOOP("Settings", "Tell me when something needs my decision"),
        QT_TRANSLATE_NOOP("Settings", "A desktop notification when a file waits in Review"), section="schedule")
    notify_failed: bool = setting(
        True, QT_TRANSLATE_NOOP("Settings", "Tell me when items fail"), QT_TRANSLATE_NOOP("Settings", "A desktop notification when files fail"),
        section="schedule")
    start_at_login: bool = setting(
        False, QT_TRANSLATE_NOOP("Settings", "Start Sidecar in the tray when I log in"),
        QT_TRANSLATE_NOOP("Settings", "Sidecar starts in the tray when you log in"),
        section="schedule", platforms=("linux",))

    # -- Folders --
    scan_ignore: list[str] = setting(
        list(LEFT_OUT_BY_DEFAULT), QT_TRANSLATE_NOOP("Settings", "Leave out:"),
        QT_TRANSLATE_NOOP("Settings", "One name a line; * and ? match any text; a name ending in / matches folders only"),
        section="scanning")
    watched_folders: list[str] = setting(
        [], QT_TRANSLATE_NOOP("Settings", "Watched folders:"),
        QT_TRANSLATE_NOOP("Settings", "New, changed, moved and deleted media in these folders is followed by itself"),
        holds=Holds.FOLDERS, section="watched")  # a mirror of the library's watches table (the truth)
    watch_quiet_seconds: float = setting(
        5.0, QT_TRANSLATE_NOOP("Settings", "Wait for a file to settle:"),
        QT_TRANSLATE_NOOP("Settings", "A watched file is queued once its size and time held still this long"),
        minimum=0.5, maximum=3600, suffix=QT_TRANSLATE_NOOP("Settings", "s"))

    # -- sidecar serve (app.server), read when it starts; the file is written 0600 since it holds tokens --
    serve_host: str = setting(
        "127.0.0.1", QT_TRANSLATE_NOOP("Settings", "Server address:"),
        QT_TRANSLATE_NOOP("Settings", "Where `sidecar serve` listens; any address but loopback needs serve_token"),
        section="server")
    serve_port: int = setting(
        9000, QT_TRANSLATE_NOOP("Settings", "Server port:"), QT_TRANSLATE_NOOP("Settings", "The port `sidecar serve` listens on"),
        minimum=1, maximum=65535, section="server")
    serve_token: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Server token:"),
        QT_TRANSLATE_NOOP("Settings", "The token clients send (Authorization: Bearer, the URL's password, or ?token=); "
                                      "required off loopback"), holds=Holds.SECRET, section="server")
    serve_upload_limit_mb: int = setting(
        4096, QT_TRANSLATE_NOOP("Settings", "Largest upload:"),
        QT_TRANSLATE_NOOP("Settings", "Uploads to /asr and /detect-language larger than this are refused (413)"),
        minimum=1, maximum=1048576, suffix=QT_TRANSLATE_NOOP("Settings", "MB"), section="server")
    serve_path_map: list[str] = setting(
        [], QT_TRANSLATE_NOOP("Settings", "Media server paths:"),
        QT_TRANSLATE_NOOP("Settings", "SERVER_PREFIX=LOCAL_PREFIX lines: a media server's path of a file as a path here"),
        section="server")
    jellyfin_url: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Jellyfin address:"), QT_TRANSLATE_NOOP("Settings", "Jellyfin's URL, asked to refresh an item"),
        section="server")
    jellyfin_token: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Jellyfin API key:"), QT_TRANSLATE_NOOP("Settings", "An API key from Jellyfin's dashboard"),
        holds=Holds.SECRET, section="server")
    emby_url: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Emby address:"), QT_TRANSLATE_NOOP("Settings", "Emby's URL, asked to refresh an item"),
        section="server")
    emby_token: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Emby API key:"), QT_TRANSLATE_NOOP("Settings", "An API key from Emby's settings"),
        holds=Holds.SECRET, section="server")
    plex_url: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Plex address:"),
        QT_TRANSLATE_NOOP("Settings", "Plex's URL, asked for a new item's file and to refresh it"), section="server")
    plex_token: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Plex token:"), QT_TRANSLATE_NOOP("Settings", "Your X-Plex-Token"),
        holds=Holds.SECRET, section="server")

    # -- Window --
    ui_language: str = setting(
        "", QT_TRANSLATE_NOOP("Settings", "Language:"),
        QT_TRANSLATE_NOOP("Settings", "The language of Sidecar's windows; System follows the computer's"),
        choices=(("", QT_TRANSLATE_NOOP("Settings", "System")), *((code, name) for code, name in UI_LANGUAGE_NAMES)), section="window")
    close_to_tray: bool = setting(
        True, QT_TRANSLATE_NOOP("Settings", "Closing the window keeps processing in the tray"),
        QT_TRANSLATE_NOOP("Settings", "Sidecar keeps working in the tray after its window is closed"), section="window")

    # ---- Sidecar's own memory, not settings a person edits ----
    tray_notice_shown: bool = False  # the first close to the tray said that Sidecar keeps working there
    welcome_dismissed: bool = False  # the first-run page was skipped or used; a library with jobs never shows it
    paused_until: float = 0.0  # epoch seconds: the tray's "Pause for 1 hour" / "until tomorrow morning"
    working_until: float = 0.0  # epoch seconds: the tray's "Resume now" outside the schedule


def _declared() -> dict[str, SettingSpec]:
    specs = {}
    for f in dataclasses.fields(Settings):
        if "spec" in f.metadata:
            default, label, help, extra = f.metadata["spec"]
            specs[f.name] = SettingSpec(f.name, default, label, help, **extra)
    return specs


SPECS: dict[str, SettingSpec] = _declared()
"""Every declared setting by name, in the order of ``Settings``."""

OUTPUT_AFFECTING = tuple(name for name, spec in SPECS.items() if spec.output_affecting)
"""Settings frozen into each job at creation (``JobOptions.from_settings``)."""


def settings_table() -> str:
    """The README's table of declared settings (tests/test_setting_specs.py checks README.md holds it)."""
    rows = ["| setting (`settings.json`) | default | values | what it does |", "|---|---|---|---|"]
    for spec in SPECS.values():
        default = spec.shown_default or f"`{json.dumps(spec.default, ensure_ascii=False)}`"
        if isinstance(spec.default, list) and len(spec.default) > 3:
            default = f"{len(spec.default)} patterns"
        flag = f" (`sidecar add {spec.cli}`)" if spec.cli else ""
        rows.append(f"| `{spec.name}`{flag} | {default} | {spec.values_words()} | {spec.help} |")
    return "\n".join(rows)


class BadSetting(NamedTuple):
    """A value in settings.json that its setting does not take: it was left out, and the default used."""

    name: str
    value: Any
    code: Code = Code.INVALID_SETTING


def ui_language_code(text: str) -> str | None:
    """``zh_CN``, ``zh-CN``, ``zh-cn`` or ``zh`` as the code the windows use; None for a language they do not speak."""
    language, _, region = text.strip().replace("-", "_").partition("_")
    for code in UI_LANGUAGE_CODES:
        if language.lower() == code.partition("_")[0] and (not region or region.upper() == (code.partition("_")[2] or region.upper())):
            return code
    return None


def read_settings(data_dir: Path) -> tuple[Settings, tuple[BadSetting, ...]]:
    """The settings in ``data_dir``, and the values in the file that were not ones their setting takes.

    A missing or unreadable file gives the defaults; an unknown name is ignored (a newer
    Sidecar's setting); a bad value falls back to its default, reported with its code.
    """
    path = data_dir / SETTINGS_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings(), ()
    except (OSError, ValueError) as exc:
        log.warning("settings file %s is unreadable (%s); using defaults", path, exc)
        return Settings(), ()
    if not isinstance(raw, dict):
        log.warning("settings file %s holds no settings object; using defaults", path)
        return Settings(), ()
    values: dict[str, Any] = {}
    bad: list[BadSetting] = []
    for f in dataclasses.fields(Settings):
        if f.name in raw:
            spec = SPECS.get(f.name)
            good = spec.check(raw[f.name]) if spec is not None else _same_type(raw[f.name], getattr(Settings(), f.name))
            if good:
                values[f.name] = raw[f.name]
            else:
                bad.append(BadSetting(f.name, raw[f.name]))
    return Settings(**values), tuple(bad)


def _same_type(value: Any, default: Any) -> bool:
    """Sidecar's own memory is checked by its default's type (a float also takes an int)."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    return isinstance(value, (int, float)) if isinstance(default, float) else isinstance(value, type(default))


def load_settings(data_dir: Path) -> Settings:
    """The settings in ``data_dir``; each bad value is logged with its code and its default used."""
    settings, bad = read_settings(data_dir)
    for problem in bad:
        log.warning("settings file %s: %s=%r is not a value it takes; using %r (%s)", data_dir / SETTINGS_FILE,
                    problem.name, problem.value, getattr(settings, problem.name), problem.code)
    return settings


def save_settings(data_dir: Path, settings: Settings) -> None:
    data = json.dumps(dataclasses.asdict(settings), indent=2, ensure_ascii=False).encode("utf-8")
    atomic_write(data_dir / SETTINGS_FILE, data, "settings", mode=0o600)  # it may hold the media servers' tokens
