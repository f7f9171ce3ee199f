"""``sidecar worker``: the headless engine of another machine, on the library's shared database.

It runs the same scheduler as ``sidecar run`` with three differences: it reads and
writes the library's files through its ``--path-map`` (step rows and search rows keep the
library's paths), it claims only what a mapping reaches (and its ``--kinds``, and GPU
stages with ``--gpu-only``), and it refuses to start when a mapping is plainly wrong,
so a mistyped mount never turns a library's worth of items into ``file_missing``.

Workspaces stay on each machine (``--workspace``). What a stage of one machine hands to a
stage of another goes through the database (transcripts, translations, vectors are stage
outputs there); the one exception, the extracted audio, is decoded again by the machine
that needs it (see ``TranscribeStage._audio``).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from app.engine.path_map import PathMap
from app.errors import WorkerRefused
from app.store import Store
from app.store.claim_scope import ClaimScope, ScopePrefix, listed_under
from app.store.location import ENV as DATABASE_URL_ENV, database_location

log = logging.getLogger(__name__)

#: How many of the files the library lists under a prefix are looked for at start.
SAMPLE_SIZE = 16


def worker_database(url: str | None) -> Path | str:
    """The library database a worker opens: a PostgreSQL URL, a SQLite URL, or a SQLite file path.

    Read by the store's one resolver (``database_location``); a worker never creates a
    library, so a SQLite file that is not there refuses the start instead of making an
    empty database that would hand out no work.
    """
    url = url or os.environ.get(DATABASE_URL_ENV)
    if not url:
        raise WorkerRefused(f"a worker needs the library's database: --database-url or {DATABASE_URL_ENV}")
    if "://" not in url:
        url = f"sqlite:///{Path(url).expanduser().absolute()}"
    location = database_location(Path.cwd(), url)
    if isinstance(location, Path) and not location.is_file():
        raise WorkerRefused(f"no library database at {location}")
    return location


@dataclass(frozen=True)
class MappingCheck:
    """What the start-up check found for one mapping."""

    given: str
    listed: int  # files of the sample the library lists under the prefix
    visible: int  # of those, how many this machine sees


def check_mappings(store: Store, paths: PathMap) -> list[MappingCheck]:
    """Refuse (``worker_refused``) unless every mapping's folder exists and shows the library's files.

    A sample of the newest files the library lists under each prefix is looked up
    through the mapping; fewer than half visible means the mapping points at the wrong
    folder (or an empty mount point), not that a few files were deleted since.
    """
    if not paths:
        raise WorkerRefused("give at least one --path-map LIBRARY_PREFIX=LOCAL_PREFIX: "
                            "a worker reaches the library's files only through its mappings")
    checks = []
    for m in paths.mappings:
        if not os.path.isdir(m.local.text):
            raise WorkerRefused(f"--path-map {m.given}: the folder {m.local.text} does not exist on this machine "
                                "(is the share mounted?)")
        listed = listed_under(store.db, ScopePrefix(m.library.text, m.library.sep, m.library.windows), SAMPLE_SIZE)
        missing = [p for p in listed if not os.path.exists(paths.to_local(p) or "")]
        if listed and len(missing) * 2 > len(listed):
            examples = ", ".join(f"{p} → {paths.to_local(p)}" for p in missing[:3])
            raise WorkerRefused(f"--path-map {m.given}: {len(missing)} of {len(listed)} files the library lists under "
                                f"{m.library.text} are not visible here (e.g. {examples}); "
                                "check that the local side is the same folder")
        if not listed:
            log.warning("--path-map %s: the library lists no files under %s yet", m.given, m.library.text)
        checks.append(MappingCheck(m.given, len(listed), len(listed) - len(missing)))
    return checks


def worker_scope(kinds: Sequence[str] | None, gpu_only: bool) -> ClaimScope:
    """The claim scope of the command line's ``--kinds`` and ``--gpu-only`` (prefixes come from the map)."""
    return ClaimScope(prefixes=(), kinds=frozenset(kinds) if kinds else None, gpu_only=gpu_only)
