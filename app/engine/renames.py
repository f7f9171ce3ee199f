"""Placed files follow their media file when it is renamed or moved (SPEC §8).

``Movie.ja.srt`` follows ``Movie.mp4`` to ``Film.ja.srt``, ``photo.jpg.sidecar.json``
follows ``photo.jpg``. Only files still byte for byte what Sidecar wrote move, and
never over something already there: the person's own files are never replaced.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from app.atomic_write import sha256_file
from app.store import Store

log = logging.getLogger(__name__)


def renamed_output_name(output_name: str, old_name: str, new_name: str) -> str | None:
    """The name a placed file takes when its media file is renamed, or None when it is not named after it.

    ``photo.jpg.sidecar.json`` follows the whole name, ``Movie.ja.srt`` follows the stem.
    """
    if output_name.startswith(old_name + "."):
        return new_name + output_name[len(old_name):]
    old_stem, new_stem = Path(old_name).stem, Path(new_name).stem
    if output_name.startswith(old_stem + "."):
        return new_stem + output_name[len(old_stem):]
    return None


def _move_no_clobber(src: Path, dst: Path) -> bool:
    """Move ``src`` to ``dst`` unless something is already there (a hard link refuses atomically)."""
    try:
        os.link(src, dst)
    except FileExistsError:
        return False
    except OSError:  # no hard links on this filesystem (FAT, some shares)
        if dst.exists():
            return False
        os.replace(src, dst)
        return True
    os.unlink(src)
    return True


def move_placed_files(store: Store, src: str, dest: str) -> list[tuple[str, str, str]]:
    """Move placed files named after ``src`` next to ``dest`` — only those still exactly as Sidecar wrote them.

    Returns ``(old, new, sha256)`` for every placed file now at its new name, for the
    store to record with the item's rename.
    """
    moved = []
    for placed in store.current.placed_files(src):
        old = Path(placed.target)
        name = renamed_output_name(old.name, Path(src).name, Path(dest).name)
        if name is None:
            continue
        new = Path(dest).parent / name
        found = sha256_file(old)
        if found is None:
            # Already moved along (a whole folder moved), or deleted by the person.
            there = sha256_file(new)
            if there is not None and store.steps.is_our_output(str(old), there):
                moved.append((str(old), str(new), there))
            continue
        if not store.steps.is_our_output(str(old), found):
            log.info("left %s where it is: it changed since Sidecar wrote it", old)
            continue
        try:
            done = _move_no_clobber(old, new)
        except OSError as exc:
            log.warning("could not move %s to %s: %s", old, new, exc)
            continue
        if not done:
            log.info("left %s where it is: %s already exists", old, new)
            continue
        moved.append((str(old), str(new), found))
    return moved


__all__ = ["move_placed_files", "renamed_output_name"]
