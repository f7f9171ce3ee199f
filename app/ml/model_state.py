"""What is installed and chosen in ``<data dir>/models/``: the state file, manifests and locks.

``state.json`` holds which model each role uses, the models the person registered and
the sha256 pinned on first download of files the catalogue has no checksum for. It is
replaced atomically under a file lock, so two processes (the CLI and the GUI) never
lose each other's changes. A downloaded model is installed once its
``.installed.json`` manifest exists: it is written last, after every file was verified.

Records leaving this module are frozen; a change is a function from the old
:class:`ModelState` to the new one, applied under the lock by :func:`update_state`.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping

from filelock import FileLock

from app.errors import Code, ModelError
from app.ml import bundled as bundled_models
from app.ml.catalogue import CatalogueEntry, is_valid_name
from app.atomic_write import fsync_dir
from app.ml.downloads import part_path

MANIFEST = ".installed.json"
STATE_VERSION = 1


@dataclass(frozen=True)
class Registration:
    """A model file or folder the person already had; Sidecar only points at it."""

    role: str
    format: str
    path: Path
    size: int | None
    memory_mb: int
    registered_at: str

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "format": self.format, "path": str(self.path), "size": self.size,
                "memory_mb": self.memory_mb, "registered_at": self.registered_at}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Registration:
        return cls(role=str(data["role"]), format=str(data["format"]), path=Path(data["path"]), size=data.get("size"),
                   memory_mb=int(data.get("memory_mb") or 0), registered_at=str(data.get("registered_at") or ""))


@dataclass(frozen=True)
class ModelState:
    """``state.json`` as read: role → chosen name, name → registration, name → {file: pinned sha256}."""

    active: Mapping[str, str] = field(default_factory=dict)
    registered: Mapping[str, Registration] = field(default_factory=dict)
    pinned: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def choosing(self, role: str, name: str) -> ModelState:
        return replace(self, active={**self.active, role: name})

    def forgetting_choice_of(self, name: str) -> ModelState:
        """Roles that used ``name`` go back to their bundled default."""
        return replace(self, active={role: chosen for role, chosen in self.active.items() if chosen != name})

    def registering(self, name: str, registration: Registration) -> ModelState:
        return replace(self, registered={**self.registered, name: registration})

    def unregistering(self, name: str) -> ModelState:
        registered = {n: r for n, r in self.registered.items() if n != name}
        return replace(self, registered=registered).forgetting_choice_of(name)

    def pinning(self, name: str, file: str, sha256: str) -> ModelState:
        return replace(self, pinned={**self.pinned, name: {**self.pinned.get(name, {}), file: sha256}})

    def to_json(self) -> dict[str, Any]:
        return {"version": STATE_VERSION, "active": dict(self.active),
                "registered": {name: reg.to_json() for name, reg in self.registered.items()},
                "pinned": {name: dict(files) for name, files in self.pinned.items()}}


@dataclass(frozen=True)
class InstalledFile:
    sha256: str
    size: int


@dataclass(frozen=True)
class Manifest:
    """What a finished download verified, file by file."""

    name: str
    files: Mapping[str, InstalledFile]
    installed_at: str

    @property
    def identity(self) -> str:
        """Changes whenever any file's content does (stage fingerprints use it)."""
        return "sha256:" + short_hash("".join(f.sha256 for _, f in sorted(self.files.items())))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "installed_at": self.installed_at,
                "files": {path: {"sha256": f.sha256, "size": f.size} for path, f in self.files.items()}}


def short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def models_dir(data_dir: Path | str) -> Path:
    return Path(data_dir) / "models"


def state_path(data_dir: Path | str) -> Path:
    return models_dir(data_dir) / "state.json"


def state_signature(data_dir: Path | str) -> tuple[int, int, int] | None:
    """Changes whenever ``state.json`` is replaced (every change is an atomic replace): a cheap change check."""
    try:
        st = state_path(data_dir).stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def read_state(data_dir: Path | str) -> ModelState:
    path = state_path(data_dir)
    try:
        raw = json.loads(path.read_text("utf-8"))
        return ModelState(
            active={str(role): str(name) for role, name in (raw.get("active") or {}).items()},
            registered={str(name): Registration.from_json(reg) for name, reg in (raw.get("registered") or {}).items()},
            pinned={str(name): dict(files) for name, files in (raw.get("pinned") or {}).items()},
        )
    except FileNotFoundError:
        return ModelState()
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ModelError(
            f"{path} cannot be read ({exc}); move it aside to reset model choices", code=Code.MODEL_STATE_CORRUPT
        ) from exc


def write_json_atomic(path: Path, data: Any) -> None:
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


def lock(data_dir: Path | str, name: str, timeout: float = 30) -> FileLock:
    folder = models_dir(data_dir) / ".locks"
    folder.mkdir(parents=True, exist_ok=True)
    return FileLock(str(folder / f"{name}.lock"), timeout=timeout)


def install_lock(data_dir: Path | str, name: str) -> FileLock:
    """Held while a model downloads or is deleted; never waited for (a second request fails at once)."""
    return lock(data_dir, f"install-{name}", timeout=0)


def update_state(data_dir: Path | str, change: Callable[[ModelState], ModelState]) -> ModelState:
    """Apply ``change`` to the current state under the state lock and write the result atomically."""
    with lock(data_dir, "state"):
        state = change(read_state(data_dir))
        write_json_atomic(state_path(data_dir), state.to_json())
        return state


def install_dir(data_dir: Path | str, name: str) -> Path:
    if not is_valid_name(name):
        raise ModelError(f"{name!r} is not a valid model name", code=Code.INVALID_MODEL_NAME)
    return models_dir(data_dir) / name


def read_manifest(data_dir: Path | str, name: str) -> Manifest | None:
    try:
        raw = json.loads((install_dir(data_dir, name) / MANIFEST).read_text("utf-8"))
        files = {str(path): InstalledFile(str(f["sha256"]), int(f["size"])) for path, f in raw.get("files", {}).items()}
        return Manifest(name=str(raw.get("name") or name), files=files, installed_at=str(raw.get("installed_at") or ""))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write_manifest(data_dir: Path | str, manifest: Manifest) -> None:
    write_json_atomic(install_dir(data_dir, manifest.name) / MANIFEST, manifest.to_json())


def is_installed(data_dir: Path | str, entry: CatalogueEntry) -> bool:
    if entry.is_bundled:
        return bundled_models.is_installed(entry.bundled)
    return read_manifest(data_dir, entry.name) is not None


def has_partial_download(data_dir: Path | str, entry: CatalogueEntry) -> bool:
    folder = install_dir(data_dir, entry.name)
    return any(part_path(folder / f.path).exists() for f in entry.files)


def download_path(data_dir: Path | str, entry: CatalogueEntry) -> Path:
    """What a runtime opens: the .gguf file for GGUF models, else the folder."""
    folder = install_dir(data_dir, entry.name)
    if entry.format == "gguf" and entry.files:
        return folder / entry.files[0].path
    return folder
