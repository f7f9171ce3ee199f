"""Atomic, fenced writes next to a person's files, and the file primitives every layer shares.

It sits at the bottom of the package (beside ``errors``): the engine's placement, the
settings file, model downloads and audio extraction all write through it.

A hidden temp file in the target's own folder (so ``os.replace`` never crosses a
filesystem), flushed and fsynced, then renamed over the target and the folder fsynced
where the OS allows. A crash leaves either the old file or the new one, plus at most
a temp file whose name recovery can find again (it is derived from the operation id).
"""

from __future__ import annotations

import errno
import hashlib
import logging
import os
import stat
import sys
import time
from pathlib import Path
from typing import BinaryIO, Callable

from app.errors import Code, NotRegularFile, SidecarError

log = logging.getLogger(__name__)

TEMP_MARK = ".sidecar-tmp-"
_SHARING_RETRIES = 10


def temp_path_for(target: Path, op_id: str) -> Path:
    """The temp file one operation uses for ``target``: hidden, same folder, recognisable."""
    return target.with_name(f".{target.name[:80]}{TEMP_MARK}{op_id[:16]}")


def open_regular(path: Path | str) -> BinaryIO:
    """Open ``path`` for reading only if it is (a link to) a regular file; else :class:`NotRegularFile`.

    A named pipe would block ``open`` until a writer appears, and ``/dev/zero`` or
    ``/dev/urandom`` would be read forever, so the file is opened with ``O_NONBLOCK``
    (a pipe opens at once; a regular file ignores the flag) and checked with ``fstat``
    on the descriptor itself, so a swap between a ``stat`` and the ``open`` cannot slip
    a device through. Reads that follow then block as on any regular file.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
                 | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(f"{os.fsdecode(path)!r} is not a regular file (a pipe, socket or device)")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def sha256_file(path: Path, *, between_blocks: Callable[[], None] | None = None) -> str | None:
    """Content hash of a regular file, or None when it does not exist; a pipe or device raises :class:`NotRegularFile`.

    ``between_blocks`` runs before each 1 MiB block: a caller that can be cancelled
    (a model install checking a multi-GB file) raises from it to stop the read.
    """
    h = hashlib.sha256()
    try:
        with open_regular(path) as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                if between_blocks is not None:
                    between_blocks()
                h.update(chunk)
    except FileNotFoundError:
        return None
    return h.hexdigest()


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable where the OS allows opening a directory (not on Windows)."""
    if sys.platform == "win32":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _replace(src: Path, dst: Path) -> None:
    """os.replace with a bounded retry for Windows sharing violations (a player or indexer has the file open)."""
    for attempt in range(_SHARING_RETRIES):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if sys.platform != "win32" or attempt == _SHARING_RETRIES - 1:
                raise
            time.sleep(0.05 * (2**attempt))


def atomic_write(target: Path, data: bytes, op_id: str, before_replace: Callable[[], None] | None = None,
                 mode: int = 0o666) -> None:
    """Write ``data`` to ``target`` atomically; ``before_replace`` runs last (the fence check) and may raise.

    ``mode`` (less the umask) is the file's from its first byte: a secret is never readable by others, even briefly.
    """
    tmp = temp_path_for(target, op_id)
    try:
        with open(tmp, "wb", opener=lambda path, flags: os.open(path, flags, mode)) as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if before_replace is not None:
            before_replace()
        _replace(tmp, target)
    except OSError as exc:
        _discard(tmp)
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise SidecarError(f"the disk holding {target.parent} is full", code=Code.DISK_FULL, transient=True) from exc
        if isinstance(exc, PermissionError):
            raise SidecarError(f"no permission to write {target}", code=Code.PERMISSION_DENIED) from exc
        raise SidecarError(f"could not write {target}: {exc}", code=Code.WRITE_FAILED, transient=True) from exc
    except BaseException:
        _discard(tmp)
        raise
    fsync_dir(target.parent)


def _discard(tmp: Path) -> None:
    try:
        tmp.unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        log.warning("could not remove temp file %s: %s", tmp, exc)


def remove_stray_temp(target: Path, op_id: str) -> bool:
    """Remove the temp file a crashed operation may have left; True if one was there."""
    tmp = temp_path_for(target, op_id)
    if tmp.exists():
        _discard(tmp)
        return True
    return False
