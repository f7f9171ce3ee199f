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

from app.atomic_write import atomic_write

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
UI_LANGUAGE_CODES = ("en", "zh_CN", "de")
"""The windows' languages (English is the source text; the others have a catalogue in resources/i18n)."""
OUTPUT_AFFECTING = ("target_lang", "naming", "existing_policy", "image_sidecar_json", "source_lang", "embedded_subtitles",
                    "glossary")

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
    existing_policy: str = "skip"
    image_sidecar_json: bool = True
    embedded_subtitles: bool = True  # a text subtitle stream in the target language inside a video counts as subtitled
    workers: int = max(1, os.cpu_count() or 1)
    gpu_budget_mb: int = 6144
    group_size: int = 8
    stall_seconds: float = 60.0  # the stall watchdog's limit for reading stages (model stages: scaled, see EngineConfig)
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
    known = {f.name for f in dataclasses.fields(Settings)}
    return Settings(**{k: v for k, v in raw.items() if k in known})


def save_settings(data_dir: Path, settings: Settings) -> None:
    data = json.dumps(dataclasses.asdict(settings), indent=2, ensure_ascii=False).encode("utf-8")
    atomic_write(data_dir / SETTINGS_FILE, data, "settings")
