"""Which files a webhook may queue: only inside a folder of the library (added or watched), after the path maps.

The server names a file by its own path (``/media/tv/…`` inside a container); the
``serve_path_map`` lines (``SERVER_PREFIX=LOCAL_PREFIX``, as ``--path-map``) give its path
here. A path with ``..``, one outside every added or watched folder, or a link that
leads out of them is refused (403, and a log line).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Iterable, Sequence

from app.codes import Code
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.path_map import PathMap
from app.errors import SidecarError

log = logging.getLogger(__name__)


class OutsideLibrary(SidecarError):
    code = Code.OUTSIDE_LIBRARY


def library_folders(library: Library) -> list[str]:
    """The folders the person added (jobs other than requests) or watches."""
    folders = {job.folder for job in library.status() if not JobOptions.from_stored(job.options).request}
    folders |= {watch.folder for watch in library.store.watches.list()}
    return sorted(folders)


def local_file(server_path: str, maps: Sequence[str], folders: Iterable[str]) -> Path:
    """``server_path`` as a file here, inside one of ``folders``; :class:`OutsideLibrary` otherwise."""
    if ".." in server_path.replace("\\", "/").split("/"):
        raise OutsideLibrary(f"{server_path!r} holds '..'")
    mapped = PathMap.parse(list(maps)).to_local(server_path) if maps else None
    path = Path(mapped or server_path)
    if not path.is_absolute():
        raise OutsideLibrary(f"{server_path!r} is not an absolute path")
    real = Path(os.path.realpath(path))
    for folder in folders:
        if real.is_relative_to(os.path.realpath(folder)):
            return real
    raise OutsideLibrary(f"{path} is not inside a folder added to the library or watched")


__all__ = ["OutsideLibrary", "library_folders", "local_file"]
