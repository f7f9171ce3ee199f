"""The person's settings, one JSON file in the data dir, written atomically.

Settings that change outputs (languages, naming, policy, models) are frozen into each
job at creation, so a change applies to new jobs only.
"""

from __future__ import annotations

import dataclasses
import json
import locale
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from app.atomic_write import atomic_write
from app.translate_marks import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

T = TypeVar("T")

SETTINGS_FILE = "settings.json"
UI_LANGUAGE_CODES = ("en", "zh_CN", "de")
"""The windows' languages (English is the source text; the others have a catalogue in resources/i18n)."""

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


@dataclass(frozen=True)
class SettingSpec:
    """One setting, declared once: everything that shows, checks or freezes it reads this.

    ``choices`` are (stored value, label) pairs; ``minimum``/``maximum`` bound an int;
    ``tab`` names the Settings tab whose form the dialog generates the field on ("" keeps
    it off the generated forms: a setting with its own widget or none); ``output_affecting``
    settings are frozen into each job when it is created (``JobOptions.from_settings``);
    ``cli`` is the ``sidecar add`` flag that overrides it for one job.
    """

    name: str
    default: Any
    label: str
    help: str
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    suffix: str = ""
    tab: str = ""
    output_affecting: bool = False
    cli: str = ""

    @property
    def kind(self) -> type:
        return type(self.default)

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _ in self.choices)

    def check(self, value: Any) -> bool:
        """Whether ``value`` (as read from settings.json) is one this setting takes."""
        if self.kind is bool:
            return isinstance(value, bool)
        if self.kind is int:
            return (isinstance(value, int) and not isinstance(value, bool)
                    and (self.minimum is None or value >= self.minimum) and (self.maximum is None or value <= self.maximum))
        if self.kind is float:
            return isinstance(value, (int, float)) and not isinstance(value, bool)
        if self.kind is str:
            return isinstance(value, str) and (not self.choices or value in self.values)
        return True


def setting(default: T, label: str, help: str, **spec: Any) -> T:
    """A ``Settings`` field declared with its ``SettingSpec`` (name and type come from the field)."""
    return field(default=default, metadata={"spec": (default, label, help, spec)})


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


@dataclass
class Settings:
    target_lang: str = field(default_factory=default_target_language)
    source_lang: str = ""
    naming: str = "media-server"
    existing_policy: str = setting(
        "skip", QT_TRANSLATE_NOOP("Settings", "Existing files:"),
        QT_TRANSLATE_NOOP("Settings", "What a new job does where a subtitle or sidecar it would write already exists"),
        choices=(("skip", QT_TRANSLATE_NOOP("Settings", "Skip: leave the existing file alone")),
                 ("overwrite", QT_TRANSLATE_NOOP("Settings", "Overwrite it")),
                 ("keep_both", QT_TRANSLATE_NOOP("Settings", "Keep both (Movie.zh.1.srt)"))),
        tab="output", output_affecting=True, cli="--existing")
    image_sidecar_json: bool = setting(
        True, QT_TRANSLATE_NOOP("Settings", "Write photo.jpg.sidecar.json next to each image"),
        QT_TRANSLATE_NOOP("Settings", "An indexed image gets a JSON file beside it with what Sidecar found in it"),
        tab="output", output_affecting=True)
    embedded_subtitles: bool = setting(
        True, QT_TRANSLATE_NOOP("Settings", "Skip videos that already carry text subtitles in the target language"),
        QT_TRANSLATE_NOOP("Settings", "A text subtitle stream in the target language inside a video counts as subtitled"),
        tab="output", output_affecting=True)
    workers: int = max(1, os.cpu_count() or 1)
    gpu_budget_mb: int = 6144
    group_size: int = 8
    stall_seconds: int = setting(
        60, QT_TRANSLATE_NOOP("Settings", "Stop a stalled stage after:"),
        QT_TRANSLATE_NOOP("Settings", "A stage with no progress for this long is stopped (stalled)"),
        minimum=10, maximum=3600, suffix=QT_TRANSLATE_NOOP("Settings", "s"), tab="processing")
    image_batch_size: int = setting(
        8, QT_TRANSLATE_NOOP("Settings", "Images per model call:"),
        QT_TRANSLATE_NOOP("Settings", "How many images one model call reads (OCR), embeds and tags (CLIP); larger batches are faster"),
        minimum=1, maximum=64, tab="processing")
    close_to_tray: bool = True
    tray_notice_shown: bool = False  # the first close to the tray said that Sidecar keeps working there
    ui_language: str = ""  # the windows' language: "" follows the OS, else en / zh_CN / de (applies at the next start)

    watched_folders: list[str] = field(default_factory=list)  # mirror of the library's watches table (the truth)
    watch_quiet_seconds: float = 5.0  # a watched file is queued once its size and mtime held still this long
    translation_endpoint: str = ""
    translation_endpoint_model: str = ""
    welcome_dismissed: bool = False  # the first-run page was skipped or used; a library with jobs never shows it
    scan_ignore: list[str] = field(default_factory=lambda: list(LEFT_OUT_BY_DEFAULT))  # names scans and watches leave out
    database_url: str = ""  # a PostgreSQL library shared by several machines; "" is the SQLite file here
    glossary: list[str] = field(default_factory=list)  # the library's own words, "term" or "term = rendering" a line

    # When and how hard to work (app.engine.background): windows are "all", "off" or "22:00-07:00".
    work_weekdays: str = "all"
    work_weekends: str = "all"
    paused_until: float = 0.0  # epoch seconds: the tray's "Pause for 1 hour" / "until tomorrow morning"
    working_until: float = 0.0  # epoch seconds: the tray's "Resume now" outside the schedule
    on_battery: str = "pause"  # pause | keep_going | below (app.engine.background.BATTERY_CHOICES)
    battery_floor: int = 30  # percent, with on_battery "below"
    max_cores: int = 0  # 0: all; else workers and each model's threads are capped at this
    pause_while_in_use: bool = False
    in_use_minutes: int = 5
    notify_finished: bool = True
    notify_review: bool = True
    notify_failed: bool = True
    start_at_login: bool = False  # mirrored by the XDG autostart entry (Linux); the .deb never sets it


def _declared() -> dict[str, SettingSpec]:
    specs = {}
    for f in dataclasses.fields(Settings):
        if "spec" in f.metadata:
            default, label, help, extra = f.metadata["spec"]
            specs[f.name] = SettingSpec(f.name, default, label, help, **extra)
    return specs


SPECS: dict[str, SettingSpec] = _declared()
"""Every declared setting by name, in the order of ``Settings``."""

OUTPUT_AFFECTING = ("target_lang", "naming", "source_lang", "glossary") + tuple(n for n, s in SPECS.items() if s.output_affecting)
"""Settings frozen into each job at creation (the languages and naming have their own widgets and flags)."""


def settings_table() -> str:
    """The README's table of declared settings (tests/test_setting_specs.py checks README.md holds it)."""
    rows = ["| setting (`settings.json`) | default | values | what it does |", "|---|---|---|---|"]
    for spec in SPECS.values():
        if spec.choices:
            values = ", ".join(f"`{v}`" for v in spec.values)
        elif spec.kind is bool:
            values = "`true`, `false`"
        else:
            values = f"{spec.minimum if spec.minimum is not None else ''}–{spec.maximum if spec.maximum is not None else ''}"
            values = (values + f" {spec.suffix}").strip()
        default = json.dumps(spec.default)
        flag = f" (`sidecar add {spec.cli}`)" if spec.cli else ""
        rows.append(f"| `{spec.name}`{flag} | `{default}` | {values} | {spec.help} |")
    return "\n".join(rows)


def ui_language_code(text: str) -> str | None:
    """``zh_CN``, ``zh-CN``, ``zh-cn`` or ``zh`` as the code the windows use; None for a language they do not speak."""
    language, _, region = text.strip().replace("-", "_").partition("_")
    for code in UI_LANGUAGE_CODES:
        if language.lower() == code.partition("_")[0] and (not region or region.upper() == (code.partition("_")[2] or region.upper())):
            return code
    return None


def load_settings(data_dir: Path) -> Settings:
    path = data_dir / SETTINGS_FILE
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, ValueError) as exc:
        log.warning("settings file %s is unreadable (%s); using defaults", path, exc)
        return Settings()
    if not isinstance(raw, dict):
        log.warning("settings file %s holds no settings object; using defaults", path)
        return Settings()
    known = {f.name for f in dataclasses.fields(Settings)}
    values = {k: v for k, v in raw.items() if k in known}
    for name, spec in SPECS.items():
        if name in values and not spec.check(values[name]):
            log.warning("settings file %s: %s=%r is not a value it takes; using %r", path, name, values[name], spec.default)
            del values[name]
    return Settings(**values)


def save_settings(data_dir: Path, settings: Settings) -> None:
    data = json.dumps(dataclasses.asdict(settings), indent=2, ensure_ascii=False).encode("utf-8")
    atomic_write(data_dir / SETTINGS_FILE, data, "settings")
