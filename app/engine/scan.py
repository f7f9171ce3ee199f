"""The one scan a job gets at creation: which files are media, which need no work.

What counts as media, and which files a kind skips (already subtitled), comes from
the registered media kinds (:mod:`app.engine.kinds`).

Symlink loops, unreadable folders and files that vanish mid-scan are skipped and
reported, never fatal: a library is messy and one bad folder must not cost the rest.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from app.engine.kinds import MEDIA_KINDS

log = logging.getLogger(__name__)


@dataclass
class ScanEntry:
    path: Path
    kind: str
    size: int
    mtime_ns: int
    skip_reason: str | None = None
    skip_code: str | None = None


@dataclass
class ScanResult:
    entries: list[ScanEntry] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)

    def report(self) -> dict[str, object]:
        return {
            "media": len(self.entries),
            "skipped": sum(1 for e in self.entries if e.skip_reason),
            "problems": self.problems[:200],
            "problem_count": len(self.problems),
        }


def scan(root: Path, recursive: bool = True, kinds: frozenset[str] | None = None,
         options: Mapping[str, Any] | None = None) -> ScanResult:
    """Walk ``root`` once (or a single file), in a stable order; ``kinds`` defaults to every registered kind.

    ``options`` are the job's (its target language decides what counts as already subtitled).
    """
    result = ScanResult()
    kinds = frozenset(MEDIA_KINDS.names()) if kinds is None else kinds
    options = options or {}
    if root.is_file():
        _add_file(result, root, root.parent, [p.name for p in _safe_listdir(root.parent, result)], kinds, options)
        return result
    visited: set[tuple[int, int]] = set()
    _walk(root, result, recursive, kinds, options, visited)
    return result


def _safe_listdir(folder: Path, result: ScanResult) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as exc:
        result.problems.append({"path": str(folder), "code": "unreadable_folder", "message": exc.strerror or str(exc)})
        return []


def _walk(folder: Path, result: ScanResult, recursive: bool, kinds: frozenset[str], options: Mapping[str, Any],
          visited: set[tuple[int, int]]) -> None:
    try:
        st = folder.stat()
    except OSError as exc:
        result.problems.append({"path": str(folder), "code": "unreadable_folder", "message": exc.strerror or str(exc)})
        return
    key = (st.st_dev, st.st_ino)
    if key in visited:
        result.problems.append({"path": str(folder), "code": "symlink_loop", "message": "folder already scanned (symlink loop)"})
        return
    visited.add(key)
    entries = _safe_listdir(folder, result)
    names = [e.name for e in entries]
    subfolders = []
    for entry in entries:
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir(follow_symlinks=True)
        except OSError:
            is_dir = False
        if is_dir:
            if recursive:
                subfolders.append(path)
            continue
        _add_file(result, path, folder, names, kinds, options)
    for sub in subfolders:
        _walk(sub, result, recursive, kinds, options, visited)


def _add_file(result: ScanResult, path: Path, folder: Path, names: list[str], kinds: frozenset[str],
              options: Mapping[str, Any]) -> None:
    kind = MEDIA_KINDS.of(path)
    if kind is None or kind.name not in kinds:
        return
    try:
        st = path.stat()
    except OSError as exc:
        result.problems.append({"path": str(path), "code": "file_vanished", "message": exc.strerror or str(exc)})
        return
    skip = kind.skip_reason(path, names, options)
    result.entries.append(ScanEntry(path=path, kind=kind.name, size=st.st_size, mtime_ns=st.st_mtime_ns,
                                    skip_reason=skip.message if skip else None, skip_code=skip.code if skip else None))
