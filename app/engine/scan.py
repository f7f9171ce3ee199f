"""The one scan a job gets at creation: which files are media, which are already subtitled.

Symlink loops, unreadable folders and files that vanish mid-scan are skipped and
reported, never fatal: a library is messy and one bad folder must not cost the rest.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger(__name__)

VIDEO_EXTENSIONS = frozenset(".mp4 .mkv .avi .mov .webm .flv .ts .m4v .wmv .mpg .mpeg .3gp".split())
IMAGE_EXTENSIONS = frozenset(".jpg .jpeg .png .webp .gif .bmp .tif .tiff".split())
SUBTITLE_EXTENSIONS = frozenset(".srt .ass .ssa .vtt".split())


def media_kind(path: Path) -> str | None:
    ext = path.suffix.lower()
    if ext in VIDEO_EXTENSIONS:
        return "video"
    if ext in IMAGE_EXTENSIONS:
        return "image"
    return None


def subtitle_matches(video_stem: str, subtitle_name: str) -> bool:
    """Whether a subtitle file counts as this video's: its name contains the stem (case-insensitive).

    A one-character stem would match almost anything, so then only names starting with
    ``stem.`` count (``a.mp4`` is not subtitled by ``apple.srt``).
    """
    stem = video_stem.lower()
    name = subtitle_name.lower()
    if len(stem) == 1:
        return name.startswith(stem + ".")
    return stem in name


def is_already_subtitled(video: Path, sibling_names: list[str]) -> str | None:
    """The name of the subtitle that makes this video done, if any."""
    for name in sibling_names:
        if Path(name).suffix.lower() in SUBTITLE_EXTENSIONS and subtitle_matches(video.stem, name):
            return name
    return None


@dataclass
class ScanEntry:
    path: Path
    kind: str
    size: int
    mtime_ns: int
    skip_reason: str | None = None


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


def scan(root: Path, recursive: bool = True, kinds: frozenset[str] = frozenset({"video", "image"})) -> ScanResult:
    """Walk ``root`` once (or a single file), in a stable order."""
    result = ScanResult()
    if root.is_file():
        _add_file(result, root, root.parent, [p.name for p in _safe_listdir(root.parent, result)], kinds)
        return result
    visited: set[tuple[int, int]] = set()
    _walk(root, result, recursive, kinds, visited)
    return result


def _safe_listdir(folder: Path, result: ScanResult) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError as exc:
        result.problems.append({"path": str(folder), "code": "unreadable_folder", "message": exc.strerror or str(exc)})
        return []


def _walk(folder: Path, result: ScanResult, recursive: bool, kinds: frozenset[str], visited: set[tuple[int, int]]) -> None:
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
        _add_file(result, path, folder, names, kinds)
    for sub in subfolders:
        _walk(sub, result, recursive, kinds, visited)


def _add_file(result: ScanResult, path: Path, folder: Path, names: list[str], kinds: frozenset[str]) -> None:
    kind = media_kind(path)
    if kind is None or kind not in kinds:
        return
    try:
        st = path.stat()
    except OSError as exc:
        result.problems.append({"path": str(path), "code": "file_vanished", "message": exc.strerror or str(exc)})
        return
    skip = None
    if kind == "video":
        match = is_already_subtitled(path, names)
        if match:
            skip = f"already subtitled ({match})"
    result.entries.append(ScanEntry(path=path, kind=kind, size=st.st_size, mtime_ns=st.st_mtime_ns, skip_reason=skip))
