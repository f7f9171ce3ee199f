"""Sidecar's own read-only files, found one way from a checkout, an installed wheel and a frozen app.

``resources/`` stays at the top of the repository (the product's layout names it). A
wheel installs it as data files under ``<prefix>/share/sidecar/resources``; a frozen
build puts it in the bundle folder (``sys._MEIPASS``) beside files joined at build
time, such as the bundled Gemma GGUF. ``SIDECAR_RESOURCES`` overrides the folder for
packagers. Everything that ships with the app is found through :func:`resource_path`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from app.errors import Code, SidecarError


def resource_dirs() -> list[Path]:
    """The folders that may hold resources, most specific first."""
    dirs: list[Path] = []
    override = os.environ.get("SIDECAR_RESOURCES")
    if override:
        dirs.append(Path(override))
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        dirs.append(Path(bundle) / "resources")
    dirs.append(Path(__file__).resolve().parent.parent / "resources")  # a checkout or an editable install
    dirs.append(Path(sys.prefix) / "share" / "sidecar" / "resources")  # a wheel's data files
    return dirs


def find_resource(name: str) -> Path | None:
    """The first existing ``name`` under the resource folders, or None (for optional build-time files)."""
    for folder in resource_dirs():
        candidate = folder / name
        if candidate.exists():
            return candidate
    return None


def resource_path(name: str) -> Path:
    """A resource that must ship with every installation; a clear error names where it was looked for."""
    found = find_resource(name)
    if found is None:
        looked = ", ".join(str(d / name) for d in resource_dirs())
        raise SidecarError(f"{name} is missing from this installation; looked in {looked}", code=Code.RESOURCE_MISSING)
    return found
