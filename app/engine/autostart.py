"""Start at login on Linux: an XDG autostart entry that runs ``sidecar --tray`` (the window stays hidden in the tray).

The entry is the truth (the Settings checkbox mirrors it), written atomically and
removed when the box is cleared. Nothing installs it by itself: the .deb leaves login
alone until the person asks. Windows has the installer's own sign-in option.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Mapping, Sequence

from app.atomic_write import atomic_write

ENTRY_NAME = "sidecar.desktop"


def autostart_file(env: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_CONFIG_HOME/autostart/sidecar.desktop`` (``~/.config`` when unset or not absolute, as the spec says)."""
    config = env.get("XDG_CONFIG_HOME", "")
    base = Path(config) if config and os.path.isabs(config) else Path.home() / ".config"
    return base / "autostart" / ENTRY_NAME


def sidecar_command() -> list[str]:
    """How this Sidecar is started again: the frozen app, the ``sidecar`` on PATH, or this Python with ``-m app``."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    on_path = shutil.which("sidecar")
    return [on_path] if on_path else [sys.executable, "-m", "app"]


def _exec_quote(arg: str) -> str:
    """Desktop Entry quoting: plain words as they are, others in double quotes with \\ " ` $ escaped."""
    if arg and all(c.isalnum() or c in "/._-+=:," for c in arg):
        return arg
    return '"' + "".join("\\" + c if c in '\\"`$' else c for c in arg) + '"'


def autostart_entry(command: Sequence[str]) -> str:
    return ("[Desktop Entry]\nType=Application\nName=Sidecar\n"
            "Comment=Subtitles and image search, working in the background from the tray\n"
            f"Exec={' '.join(_exec_quote(a) for a in [*command, '--tray'])}\n"
            "Icon=sidecar\nTerminal=false\nX-GNOME-Autostart-enabled=true\n")


def autostart_enabled(env: Mapping[str, str] = os.environ) -> bool:
    return autostart_file(env).is_file()


def set_autostart(enabled: bool, command: Sequence[str] | None = None, env: Mapping[str, str] = os.environ) -> Path:
    """Write or remove the entry; returns its path."""
    path = autostart_file(env)
    if enabled:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, autostart_entry(command or sidecar_command()).encode("utf-8"), "autostart")
    else:
        path.unlink(missing_ok=True)
    return path

