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
from typing import Any

from app.atomic_write import atomic_write
from app.engine.config import EngineConfig
from app.engine.kinds import LEFT_OUT_BY_DEFAULT

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
OUTPUT_AFFECTING = ("target_lang", "naming", "existing_policy", "image_sidecar_json", "source_lang", "embedded_subtitles",
                    "glossary")


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
    close_to_tray: bool = True
    ui_language: str = ""  # the windows' language: "" follows the OS, else en / zh_CN / de (applies at the next start)

    watched_folders: list[str] = field(default_factory=list)  # mirror of the library's watches table (the truth)
    watch_quiet_seconds: float = 5.0  # a watched file is queued once its size and mtime held still this long
    translation_endpoint: str = ""
    translation_endpoint_model: str = ""
    welcome_dismissed: bool = False  # the first-run page was skipped or used; a library with jobs never shows it
    scan_ignore: list[str] = field(default_factory=lambda: list(LEFT_OUT_BY_DEFAULT))  # names scans and watches leave out
    database_url: str = ""  # a PostgreSQL library shared by several machines; "" is the SQLite file here
    glossary: list[str] = field(default_factory=list)  # the library's own words, "term" or "term = rendering" a line

    def engine_config(self, **overrides: Any) -> EngineConfig:
        values = {"workers": self.workers, "gpu_budget_mb": self.gpu_budget_mb, "group_size": self.group_size,
                  "existing_policy": self.existing_policy, "database_url": self.database_url}
        values.update(overrides)
        return EngineConfig(**values)


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
