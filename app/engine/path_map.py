"""``--path-map LIBRARY_PREFIX=LOCAL_PREFIX``: where a worker machine sees the library's files.

The library records each file by the path the machine that added it saw
(``/mnt/nas/media/Film.mkv``); a GPU box sees the same file as ``D:\\Media\\Film.mkv``.
A mapping turns one prefix into the other, in both directions, so a worker reads and
writes through its own mount while every path it records stays the library's own.

Each side keeps its own flavour: a prefix with a drive letter (``D:\\``) or a UNC share
(``\\\\nas\\media``) is Windows (``\\`` or ``/`` accepted, letters compared without case),
anything starting with ``/`` is POSIX. A prefix matches whole path components only
(``/mnt/nas/media`` covers ``/mnt/nas/media/a.mkv``, never ``/mnt/nas/media2/a.mkv``);
trailing separators do not matter; the longest matching prefix wins. Tdarr's path-mapping
bugs (#362, #986, #1206) are mostly these rules done halfway, hence the many tests.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from app.errors import InvalidPathMap
from app.store.claim_scope import ScopePrefix

_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
_UNC = re.compile(r"^\\\\[^\\/]+[\\/][^\\/]+")


@dataclass(frozen=True)
class Prefix:
    """One normalised absolute prefix: no trailing separator (except a bare root), components kept as given."""

    text: str
    windows: bool

    @property
    def sep(self) -> str:
        return "\\" if self.windows else "/"

    @property
    def depth(self) -> int:
        return len(self.parts)

    @property
    def parts(self) -> list[str]:
        return [p for p in self.text.split(self.sep) if p]

    def _key(self, text: str) -> str:
        return text.casefold() if self.windows else text

    def relative(self, path: str) -> list[str] | None:
        """The components of ``path`` below this prefix, or None when the prefix does not cover it."""
        normal = _normalise(path, self.windows)
        if normal is None:
            return None
        head = self.text if self.text.endswith(self.sep) else self.text + self.sep
        if self._key(normal) == self._key(self.text):
            return []
        if not self._key(normal).startswith(self._key(head)):
            return None
        return [p for p in normal[len(head):].split(self.sep) if p]

    def join(self, parts: Sequence[str]) -> str:
        if not parts:
            return self.text
        head = self.text if self.text.endswith(self.sep) else self.text + self.sep
        return head + self.sep.join(parts)


@dataclass(frozen=True)
class PathMapping:
    """One ``LIBRARY=LOCAL`` pair, as given on the command line and normalised."""

    library: Prefix
    local: Prefix
    given: str


def is_windows_path(path: str) -> bool:
    return bool(_DRIVE.match(path) or _UNC.match(path))


def _normalise(path: str, windows: bool) -> str | None:
    """``path`` in its flavour's canonical spelling, or None when it is not absolute in that flavour."""
    if windows:
        if not is_windows_path(path):
            return None
        unc = bool(_UNC.match(path))
        body = re.sub(r"[\\/]+", r"\\", path)
        if unc:
            body = "\\" + body  # the collapse above ate one of the two leading separators
        if len(body) > 3 or unc:
            body = body.rstrip("\\")
        if re.fullmatch(r"[A-Za-z]:", body):
            body += "\\"
        return body[0].upper() + body[1:] if not unc else body
    if not path.startswith("/"):
        return None
    body = re.sub(r"/+", "/", path)
    return body.rstrip("/") or "/"


def parse_prefix(text: str, side: str, given: str) -> Prefix:
    windows = is_windows_path(text)
    normal = _normalise(text, windows)
    if normal is None:
        raise InvalidPathMap(f"--path-map {given!r}: the {side} prefix {text!r} is not an absolute path "
                             "(use /mnt/… , D:\\… or \\\\server\\share\\…)")
    prefix = Prefix(normal, windows)
    if any(p in (".", "..") for p in prefix.parts):
        raise InvalidPathMap(f"--path-map {given!r}: the {side} prefix may not contain '.' or '..'")
    return prefix


def parse_mapping(text: str) -> PathMapping:
    """One ``LIBRARY_PREFIX=LOCAL_PREFIX``; the ``=`` is the one after which an absolute path starts.

    Paths may hold ``=`` themselves, so every ``=`` is tried: exactly one split must
    leave an absolute path on both sides.
    """
    splits = [i for i, ch in enumerate(text) if ch == "="]
    candidates = []
    for i in splits:
        left, right = text[:i], text[i + 1:]
        if left and right and (left.startswith("/") or is_windows_path(left)) and (right.startswith("/") or is_windows_path(right)):
            candidates.append((left, right))
    if not candidates:
        raise InvalidPathMap(f"--path-map {text!r} is not LIBRARY_PREFIX=LOCAL_PREFIX with two absolute paths")
    if len(candidates) > 1:
        raise InvalidPathMap(f"--path-map {text!r} is ambiguous: more than one '=' separates two absolute paths")
    left, right = candidates[0]
    return PathMapping(parse_prefix(left, "library", text), parse_prefix(right, "local", text), text)


class PathMap:
    """Every mapping of one worker; paths no mapping covers are other machines' work."""

    def __init__(self, mappings: Iterable[PathMapping]):
        self.mappings = tuple(mappings)
        seen: dict[str, str] = {}
        for m in self.mappings:
            key = m.library._key(m.library.text)
            if key in seen:
                raise InvalidPathMap(f"--path-map {m.given!r} and {seen[key]!r} map the same library prefix")
            seen[key] = m.given

    @classmethod
    def parse(cls, specs: Sequence[str]) -> PathMap:
        return cls(parse_mapping(s) for s in specs)

    def __bool__(self) -> bool:
        return bool(self.mappings)

    def mapping_for(self, library_path: str) -> PathMapping | None:
        """The mapping with the longest library prefix covering ``library_path``."""
        best: PathMapping | None = None
        for m in self.mappings:
            if m.library.relative(library_path) is not None and (best is None or m.library.depth > best.library.depth):
                best = m
        return best

    def to_local(self, library_path: str) -> str | None:
        """Where this machine sees ``library_path``; None when no mapping covers it."""
        m = self.mapping_for(library_path)
        if m is None:
            return None
        return m.local.join(m.library.relative(library_path) or [])

    def to_library(self, local_path: str) -> str | None:
        """The library's name for a path this machine sees (an output written next to a mapped file)."""
        best: PathMapping | None = None
        for m in self.mappings:
            if m.local.relative(local_path) is not None and (best is None or m.local.depth > best.local.depth):
                best = m
        if best is None:
            return None
        return best.library.join(best.local.relative(local_path) or [])

    def local_root(self, library_path: str) -> str | None:
        """The local folder of the mapping covering ``library_path``: when it is gone, so is the mount."""
        m = self.mapping_for(library_path)
        return None if m is None else m.local.text

    def reachable_prefixes(self) -> tuple[ScopePrefix, ...]:
        """The library prefixes whose local folder is there now: what this worker may claim."""
        return tuple(ScopePrefix(m.library.text, m.library.sep, m.library.windows)
                     for m in self.mappings if os.path.isdir(m.local.text))


class SamePaths:
    """The library's own machine: every path is local as recorded, and every item is in reach."""

    def to_local(self, library_path: str) -> str | None:
        return library_path

    def to_library(self, local_path: str) -> str | None:
        return local_path

    def local_root(self, library_path: str) -> str | None:
        return None

    def reachable_prefixes(self) -> tuple[ScopePrefix, ...] | None:
        return None


#: What the engine asks of either: a worker's :class:`PathMap`, or :data:`SAME_PATHS`.
LocalPaths = PathMap | SamePaths
SAME_PATHS = SamePaths()
