"""The one scan a job gets at creation: which files are media, which need no work.

What counts as media, which files a kind skips (already subtitled) and which system or
hidden names are left out (``@eaDir``, ``#recycle``, ``._*``…) comes from the media-kind
registry (:mod:`app.engine.kinds`). A left-out folder is not entered; what was left out
is counted in the report, so nothing disappears silently.

Symlink loops, dangling links, unreadable folders and files that vanish mid-scan are
skipped and reported, never fatal: a library is messy and one bad folder must not cost
the rest. Only regular files (after following links) become items: a named pipe called
``pipe.mp4`` would block the first ``open`` forever and a link to ``/dev/zero`` would be
read forever, so pipes, sockets, devices and links to them are reported as
``not_a_regular_file`` without ever being opened.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from app.engine.kinds import MEDIA_KINDS, MediaKind, ScanRules
from app.errors import Code

log = logging.getLogger(__name__)

_LEFT_OUT_EXAMPLES = 5


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
    left_out: list[tuple[str, str]] = field(default_factory=list)  # (path below the root, pattern); folders end in "/"
    on_found: Callable[[int], None] | None = None

    def report(self) -> dict[str, Any]:
        by_pattern: dict[str, int] = {}
        for _, pattern in self.left_out:
            by_pattern[pattern] = by_pattern.get(pattern, 0) + 1
        by_code: dict[str, int] = {}
        for problem in self.problems:
            by_code[problem["code"]] = by_code.get(problem["code"], 0) + 1
        return {
            "media": len(self.entries),
            "skipped": sum(1 for e in self.entries if e.skip_reason),
            "problems": self.problems[:200],
            "problem_count": len(self.problems),
            "problem_codes": by_code,
            "left_out": {"count": len(self.left_out), "by_pattern": by_pattern,
                         "examples": [path for path, _ in self.left_out[:_LEFT_OUT_EXAMPLES]]},
        }


def scan(root: Path, recursive: bool = True, kinds: frozenset[str] | None = None,
         rules: ScanRules | None = None, options: Mapping[str, Any] | None = None,
         on_found: Callable[[int], None] | None = None) -> ScanResult:
    """Walk ``root`` once (or a single file), in a stable order; ``kinds`` defaults to every registered kind.

    ``rules`` (default: :data:`~app.engine.kinds.LEFT_OUT_BY_DEFAULT`) apply below
    ``root`` only: a hidden folder or a single file the person named is scanned.
    Left-out media files and left-out folders (not entered, so not counted inside)
    are listed in the result. ``options`` are the job's (its target language decides
    what counts as already subtitled). ``on_found`` hears the number of media files found
    so far after each one: on a slow share the walk itself takes a while.
    """
    result = ScanResult(on_found=on_found)
    kinds = frozenset(MEDIA_KINDS.names()) if kinds is None else kinds
    rules = rules or ScanRules()
    options = options or {}
    if root.is_file():
        names = rules.kept(p.name for p in _safe_listdir(root.parent, result))
        _add_file(result, root, names, kinds, options)
        return result
    visited: set[tuple[int, int]] = set()
    _walk(root, root, result, recursive, kinds, rules, options, visited)
    return result


def _safe_listdir(folder: Path, result: ScanResult) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as exc:
        result.problems.append({"path": str(folder), "code": Code.UNREADABLE_FOLDER, "message": exc.strerror or str(exc)})
        return []


def _walk(root: Path, folder: Path, result: ScanResult, recursive: bool, kinds: frozenset[str], rules: ScanRules,
          options: Mapping[str, Any], visited: set[tuple[int, int]]) -> None:
    try:
        st = folder.stat()
    except OSError as exc:
        result.problems.append({"path": str(folder), "code": Code.UNREADABLE_FOLDER, "message": exc.strerror or str(exc)})
        return
    key = (st.st_dev, st.st_ino)
    if key in visited:
        result.problems.append({"path": str(folder), "code": Code.SYMLINK_LOOP, "message": "folder already scanned (symlink loop)"})
        return
    visited.add(key)
    entries = _safe_listdir(folder, result)
    names = rules.kept(e.name for e in entries)
    subfolders = []
    for entry in entries:
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir(follow_symlinks=True)
        except OSError:
            is_dir = False
        if is_dir:
            if recursive:
                pattern = rules.left_out_by(entry.name, is_folder=True)
                if pattern is None:
                    subfolders.append(path)
                else:
                    result.left_out.append((f"{path.relative_to(root).as_posix()}/", pattern))
            continue
        pattern = rules.left_out_by(entry.name, is_folder=False)
        if pattern is None:
            _add_file(result, path, names, kinds, options)
        elif _wanted_kind(path, kinds) is not None:
            result.left_out.append((path.relative_to(root).as_posix(), pattern))
    for sub in subfolders:
        _walk(root, sub, result, recursive, kinds, rules, options, visited)


def _wanted_kind(path: Path, kinds: frozenset[str]) -> MediaKind | None:
    kind = MEDIA_KINDS.of(path)
    return kind if kind is not None and kind.name in kinds else None


def _add_file(result: ScanResult, path: Path, names: list[str], kinds: frozenset[str],
              options: Mapping[str, Any]) -> None:
    kind = _wanted_kind(path, kinds)
    if kind is None:
        return
    try:
        st = path.stat()
    except OSError as exc:
        result.problems.append(_stat_problem(path, exc))
        return
    if not stat.S_ISREG(st.st_mode):
        result.problems.append({"path": str(path), "code": Code.NOT_A_REGULAR_FILE,
                                "message": "a pipe, socket or device (or a link to one), not a media file"})
        return
    skip = kind.skip_reason(path, names, options)
    result.entries.append(ScanEntry(path=path, kind=kind.name, size=st.st_size, mtime_ns=st.st_mtime_ns,
                                    skip_reason=skip.message if skip else None, skip_code=skip.code if skip else None))
    if result.on_found is not None:
        result.on_found(len(result.entries))


def _stat_problem(path: Path, exc: OSError) -> dict[str, str]:
    """Why a media name could not be looked at: a link loop, a link to nothing, or a file gone mid-scan."""
    if exc.errno == errno.ELOOP:
        code = Code.SYMLINK_LOOP
    elif path.is_symlink():
        code = Code.DANGLING_LINK
    else:
        code = Code.FILE_VANISHED
    return {"path": str(path), "code": code, "message": exc.strerror or str(exc)}
