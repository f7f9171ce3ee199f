"""The media kinds Sidecar handles, registered once (Picard's ``register_format``).

Each pipeline module declares its :class:`MediaKind` (the item kind, which is also
the ``--kind`` choice; its file extensions; what its search rows are shown as; an
optional rule for files that need no work; how to build its pipeline), and
``app/pipelines/__init__.py`` registers the default set. Scanning, watched folders,
the CLI's choices and the GUI's file filters all read :data:`MEDIA_KINDS`, so a new
kind is a pipeline module plus one registration line.

The scan rules live here too: :data:`LEFT_OUT_BY_DEFAULT` (the default of the
``Settings.scan_ignore`` setting, declared with it in :mod:`app.settings`) names the system
and hidden files and folders that media servers skip (NAS thumbnails, recycle bins,
AppleDouble files). Scans and watched folders leave them out; the person can edit the list.

The registry lives in the engine because the engine scans and plans with it, while
the pipelines (which sit above the engine) fill it: the engine never imports them.
"""

from __future__ import annotations

import fnmatch
import re
import sys
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, NamedTuple, Sequence

from app.engine.stage import Pipeline
from app.errors import Code, SidecarError
from app.settings import LEFT_OUT_BY_DEFAULT, Settings

if TYPE_CHECKING:  # job_options imports ALL from here
    from app.engine.job_options import JobOptions

ALL = "all"
"""The ``--kind`` choice that selects every registered kind."""



class Skip(NamedTuple):
    """Why a file needs no work: a stable ``code`` shown with the item, and a message for a person."""

    code: Code
    message: str


SkipRule = Callable[[Path, Sequence[str], "JobOptions"], "Skip | None"]
"""``(file, names in its folder, the job's options) -> Skip``: why a file needs no work for this job, else None.

The options are what the job froze (:class:`app.engine.job_options.JobOptions`): a video
subtitled in German is done for a German job, not for a French one.
"""
PipelineFactory = Callable[[Path, Settings], Pipeline]


@dataclass(frozen=True)
class MediaKind:
    """One kind of media file: what it is called, which files it claims and what happens to them."""

    name: str
    extensions: frozenset[str]
    label: str
    search_kind: str
    pipeline: PipelineFactory
    skip: SkipRule | None = None

    def skip_reason(self, path: Path, sibling_names: Sequence[str], options: JobOptions) -> Skip | None:
        return self.skip(path, sibling_names, options) if self.skip is not None else None


class MediaKinds:
    """The registered kinds, in registration order; each extension belongs to one kind."""

    def __init__(self) -> None:
        self._kinds: dict[str, MediaKind] = {}
        self._by_extension: dict[str, MediaKind] = {}

    def register(self, kind: MediaKind) -> None:
        """Add ``kind``; registering the same declaration again is harmless, a conflicting one is a bug."""
        if self._kinds.get(kind.name) == kind:
            return
        if kind.name == ALL:
            raise ValueError(f"{ALL!r} is the choice of every kind, not a kind")
        if kind.name in self._kinds:
            raise ValueError(f"media kind {kind.name!r} is already registered")
        for ext in kind.extensions:
            if ext != ext.lower() or not ext.startswith("."):
                raise ValueError(f"{kind.name}: extension {ext!r} must be lower-case and start with a dot")
            if ext in self._by_extension:
                raise ValueError(f"{kind.name}: {ext} already belongs to {self._by_extension[ext].name}")
        self._kinds[kind.name] = kind
        self._by_extension.update({ext: kind for ext in kind.extensions})

    def __iter__(self) -> Iterator[MediaKind]:
        return iter(self._required().values())

    def names(self) -> tuple[str, ...]:
        return tuple(self._required())

    def get(self, name: str) -> MediaKind:
        kind = self._required().get(name)
        if kind is None:
            raise SidecarError(f"unknown media kind {name!r}; use {', '.join(self.choices())}", code=Code.INVALID_ARGUMENT)
        return kind

    def of(self, path: Path) -> MediaKind | None:
        """The kind a file belongs to by its extension (case-insensitive), or None for anything else."""
        return self._by_extension.get(path.suffix.lower())

    def choices(self) -> tuple[str, ...]:
        """The ``--kind`` choices of ``add`` and ``watch add``."""
        return (ALL, *self.names())

    def selection(self, choice: str) -> frozenset[str]:
        """The kind names a ``--kind`` choice stands for."""
        return frozenset(self.names()) if choice == ALL else frozenset({self.get(choice).name})

    def search_choices(self) -> tuple[str, ...]:
        """The ``search --kind`` choices: what results are shown as (two kinds may share one, like dialogue)."""
        return (ALL, *dict.fromkeys(k.search_kind for k in self))

    def search_selection(self, choice: str) -> tuple[str, ...]:
        kinds = self.search_choices()[1:]
        if choice == ALL:
            return kinds
        if choice not in kinds:
            raise SidecarError(f"unknown search kind {choice!r}; use {', '.join(self.search_choices())}",
                               code=Code.INVALID_ARGUMENT)
        return (choice,)

    def pipelines(self, data_dir: Path, settings: Settings) -> dict[str, Pipeline]:
        """Every registered kind's pipeline, configured from the person's settings."""
        return {kind.name: kind.pipeline(data_dir, settings) for kind in self}

    def _required(self) -> dict[str, MediaKind]:
        if not self._kinds:
            raise SidecarError("no media kinds are registered (import app.pipelines first)", code=Code.NO_MEDIA_KINDS)
        return self._kinds


FOLDS_CASE = sys.platform in ("win32", "darwin")
"""Whether this platform's file systems (NTFS, APFS) treat ``@EADIR`` and ``@eaDir`` as one name."""


@dataclass(frozen=True)
class ScanRules:
    """Which names below a scanned folder are system or hidden litter, never media.

    Only names *below* the folder the person chose are matched: a hidden folder added
    on purpose is scanned. Matching ignores case where the platform's file systems do
    (:data:`FOLDS_CASE`).
    """

    patterns: tuple[str, ...] = LEFT_OUT_BY_DEFAULT
    fold_case: bool = FOLDS_CASE

    @cached_property
    def _any(self) -> tuple[re.Pattern[str], re.Pattern[str]]:
        """One regex of every pattern for files and one for folders: a scan asks about each name it lists."""
        def joined(for_folders: bool) -> re.Pattern[str]:
            bare = [p.rstrip("/") for p in self.patterns if for_folders or not p.endswith("/")]
            bare = [p.casefold() if self.fold_case else p for p in bare]
            return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in bare) or "(?!)")
        return joined(False), joined(True)

    def left_out_by(self, name: str, is_folder: bool) -> str | None:
        """The pattern that leaves ``name`` out, or None when it is kept."""
        key = name.casefold() if self.fold_case else name
        if not self._any[is_folder].match(key):
            return None  # the common case, in one regex; which pattern matched is looked up below
        for pattern in self.patterns:
            if pattern.endswith("/") and not is_folder:
                continue
            bare = pattern.rstrip("/")
            if fnmatch.fnmatchcase(key, bare.casefold() if self.fold_case else bare):
                return pattern
        return None

    def left_out_below(self, path: Path, folder: Path) -> str | None:
        """The pattern that leaves out the file ``path`` (or a folder between it and ``folder``), or None."""
        try:
            parts = path.relative_to(folder).parts
        except ValueError:
            return None
        for n, name in enumerate(parts):
            pattern = self.left_out_by(name, is_folder=n < len(parts) - 1)
            if pattern is not None:
                return pattern
        return None

    def kept(self, file_names: Iterable[str]) -> list[str]:
        """The names a skip rule may look at: ``._Pilot.en.srt`` is not a subtitle of ``Pilot.mp4``."""
        return [name for name in file_names if self.left_out_by(name, is_folder=False) is None]


MEDIA_KINDS = MediaKinds()
"""The kinds this process handles; ``app.pipelines`` registers the default set on import."""


def register_kind(kind: MediaKind) -> None:
    MEDIA_KINDS.register(kind)


__all__ = ["ALL", "FOLDS_CASE", "LEFT_OUT_BY_DEFAULT", "MEDIA_KINDS", "MediaKind", "MediaKinds", "PipelineFactory", "ScanRules",
           "Skip", "SkipRule", "register_kind"]
