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
from typing import Any, Callable, Generator, Iterator, Sequence

from app.engine.job_options import JobOptions
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
    skip_code: Code | None = None


@dataclass
class ScanResult:
    """What a walk found besides its entries: counts, problems and what the rules left out.

    Filled while :func:`walk` yields, so a caller that streams the entries (``add`` of a
    million files) keeps only these counts; :func:`scan` also keeps the entries.
    Left-out names are counted by pattern with a few examples kept, not listed whole: a
    NAS holds one ``@eaDir`` per folder.
    """

    entries: list[ScanEntry] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)
    left_out_by_pattern: dict[str, int] = field(default_factory=dict)
    left_out_examples: list[str] = field(default_factory=list)  # paths below the root; folders end in "/"
    found: int = 0
    skipped: int = 0
    on_found: Callable[[int], None] | None = None

    def leave_out(self, below_root: str, pattern: str) -> None:
        self.left_out_by_pattern[pattern] = self.left_out_by_pattern.get(pattern, 0) + 1
        if len(self.left_out_examples) < _LEFT_OUT_EXAMPLES:
            self.left_out_examples.append(below_root)

    def report(self) -> dict[str, Any]:
        by_code: dict[str, int] = {}
        for problem in self.problems:
            by_code[problem["code"]] = by_code.get(problem["code"], 0) + 1
        return {
            "media": self.found,
            "skipped": self.skipped,
            "problems": self.problems[:200],
            "problem_count": len(self.problems),
            "problem_codes": by_code,
            "left_out": {"count": sum(self.left_out_by_pattern.values()), "by_pattern": dict(self.left_out_by_pattern),
                         "examples": list(self.left_out_examples)},
        }


def scan(root: Path, recursive: bool = True, kinds: frozenset[str] | None = None,
         rules: ScanRules | None = None, options: JobOptions | None = None,
         on_found: Callable[[int], None] | None = None) -> ScanResult:
    """:func:`walk` with every entry kept in the result (a watched folder compares them with the store)."""
    result = ScanResult(on_found=on_found)
    result.entries.extend(walk(root, result, recursive, kinds, rules, options))
    return result


def walk(root: Path, result: ScanResult, recursive: bool = True, kinds: frozenset[str] | None = None,
         rules: ScanRules | None = None, options: JobOptions | None = None) -> Iterator[ScanEntry]:
    """Walk ``root`` once (or a single file), in a stable order, yielding each media file as it is found.

    ``kinds`` defaults to every registered kind. ``rules`` (default:
    :data:`~app.engine.kinds.LEFT_OUT_BY_DEFAULT`) apply below ``root`` only: a hidden
    folder or a single file the person named is scanned. Left-out media files and
    left-out folders (not entered, so not counted inside) are counted in ``result``, as
    are problems. ``options`` are the job's (its target language decides what counts as
    already subtitled). ``result.on_found`` hears the number of media files found so far
    after each one: on a slow share the walk itself takes a while.

    A generator, one folder's listing in memory at a time (folders wait on a stack as
    paths), so adding a million files holds no list of a million entries.
    """
    kinds = frozenset(MEDIA_KINDS.names()) if kinds is None else kinds
    rules = rules or ScanRules()
    options = options if options is not None else JobOptions()
    if root.is_file():
        names = tuple(rules.kept(p.name for p in _safe_listdir(root.parent, result)))
        entry = _entry(result, root, names, kinds, options)
        if entry is not None:
            yield entry
        return
    visited: set[tuple[int, int]] = set()
    stack = [root]
    while stack:
        folder = stack.pop()
        subfolders = yield from _walk_folder(root, folder, result, recursive, kinds, rules, options, visited)
        stack.extend(reversed(subfolders))  # the first subfolder is walked next: the order of a recursive walk


def _safe_listdir(folder: Path, result: ScanResult) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as exc:
        result.problems.append({"path": str(folder), "code": Code.UNREADABLE_FOLDER, "message": exc.strerror or str(exc)})
        return []


def _walk_folder(root: Path, folder: Path, result: ScanResult, recursive: bool, kinds: frozenset[str],
                 rules: ScanRules, options: JobOptions,
                 visited: set[tuple[int, int]]) -> Generator[ScanEntry, None, list[Path]]:
    """Yield the folder's media files; return its subfolders to walk (none for a loop or an unreadable folder)."""
    try:
        st = folder.stat()
    except OSError as exc:
        result.problems.append({"path": str(folder), "code": Code.UNREADABLE_FOLDER, "message": exc.strerror or str(exc)})
        return []
    key = (st.st_dev, st.st_ino)
    if key in visited:
        result.problems.append({"path": str(folder), "code": Code.SYMLINK_LOOP, "message": "folder already scanned (symlink loop)"})
        return []
    visited.add(key)
    entries = _safe_listdir(folder, result)
    names = tuple(rules.kept(e.name for e in entries))  # a tuple: the skip rule caches its parse per folder
    subfolders = []
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=True)
        except OSError:
            is_dir = False
        if is_dir:
            if recursive:
                pattern = rules.left_out_by(entry.name, is_folder=True)
                path = Path(entry.path)
                if pattern is None:
                    subfolders.append(path)
                else:
                    result.leave_out(f"{path.relative_to(root).as_posix()}/", pattern)
            continue
        path = Path(entry.path)
        if _wanted_kind(path, kinds) is None:
            continue  # not media: neither looked at nor counted
        pattern = rules.left_out_by(entry.name, is_folder=False)
        if pattern is not None:
            result.leave_out(path.relative_to(root).as_posix(), pattern)
            continue
        found = _entry(result, path, names, kinds, options, entry)
        if found is not None:
            yield found
    return subfolders


def _wanted_kind(path: Path, kinds: frozenset[str]) -> MediaKind | None:
    kind = MEDIA_KINDS.of(path)
    return kind if kind is not None and kind.name in kinds else None


def _entry(result: ScanResult, path: Path, names: Sequence[str], kinds: frozenset[str],
           options: JobOptions, dir_entry: os.DirEntry[str] | None = None) -> ScanEntry | None:
    """The media file at ``path`` as an entry, or None (not a wanted kind, or a problem recorded in ``result``).

    ``dir_entry`` (from the folder's listing) answers the stat: following a link still
    costs a call, but a plain file's is one ``stat`` either way.
    """
    kind = _wanted_kind(path, kinds)
    if kind is None:
        return None
    try:
        st = dir_entry.stat(follow_symlinks=True) if dir_entry is not None else path.stat()
    except OSError as exc:
        result.problems.append(_stat_problem(path, exc))
        return None
    if not stat.S_ISREG(st.st_mode):
        result.problems.append({"path": str(path), "code": Code.NOT_A_REGULAR_FILE,
                                "message": "a pipe, socket or device (or a link to one), not a media file"})
        return None
    skip = kind.skip_reason(path, names, options)
    result.found += 1
    if skip:
        result.skipped += 1
    if result.on_found is not None:
        result.on_found(result.found)
    return ScanEntry(path=path, kind=kind.name, size=st.st_size, mtime_ns=st.st_mtime_ns,
                     skip_reason=skip.message if skip else None, skip_code=skip.code if skip else None)


def _stat_problem(path: Path, exc: OSError) -> dict[str, str]:
    """Why a media name could not be looked at: a link loop, a link to nothing, or a file gone mid-scan."""
    if exc.errno == errno.ELOOP:
        code = Code.SYMLINK_LOOP
    elif path.is_symlink():
        code = Code.DANGLING_LINK
    else:
        code = Code.FILE_VANISHED
    return {"path": str(path), "code": code, "message": exc.strerror or str(exc)}
