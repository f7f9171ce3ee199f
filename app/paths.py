"""Where Sidecar keeps its own files: the library database, workspaces, models, settings."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "Sidecar"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The data dir: ``--data-dir`` wins, then ``SIDECAR_HOME``, then the OS's per-user data folder.

    The database must live on a local disk (WAL does not work on network shares), which
    the per-user data folder is on every platform we support.
    """
    if explicit:
        path = Path(explicit)
    elif os.environ.get("SIDECAR_HOME"):
        path = Path(os.environ["SIDECAR_HOME"])
    else:
        path = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path = path.expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_path(root: Path) -> Path:
    return root / "library.sqlite3"


def workspace_root(root: Path) -> Path:
    return root / "work"


def item_workspace(root: Path, job_id: int, item_id: int) -> Path:
    """Private checkpoint folder of one item: never inside the person's folders."""
    return workspace_root(root) / str(job_id) / str(item_id)
