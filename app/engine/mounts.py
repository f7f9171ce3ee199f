"""Where filesystem change events can be trusted, and so whether a watched folder must be polled.

Native change notifications (inotify, ReadDirectoryChangesW, FSEvents) only see
changes made through this machine's kernel; on a network share another machine's
writes go unnoticed. Such folders are polled instead. Detection is per platform:
the mount table on Linux, UNC paths and remote drives on Windows.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

# Filesystems whose change notifications do not cover changes made by other machines.
NETWORK_FILESYSTEMS = frozenset({
    "nfs", "nfs4", "cifs", "smbfs", "smb3", "9p", "afs", "ncpfs", "davfs", "glusterfs", "ceph",
    "fuse.sshfs", "fuse.rclone", "fuse.davfs2", "fuse.glusterfs", "fuse.cephfs", "fuse.s3fs",
})
_DRIVE_REMOTE = 4  # GetDriveTypeW
_OCTAL_ESCAPE = re.compile(r"\\([0-7]{3})")


def network_fs_type(path: str, mounts_text: str) -> str | None:
    """The network filesystem ``path`` lives on according to a ``/proc/mounts`` text, else None.

    The longest mount point containing the path wins (a local disk mounted inside a
    share is local). Mount points escape spaces and tabs as octal (``\\040``).
    """
    best, best_type = "", ""
    for line in mounts_text.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        mount_point = _OCTAL_ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), fields[1])
        if _is_within(path, mount_point) and len(mount_point) >= len(best):
            best, best_type = mount_point, fields[2]
    return best_type if best_type in NETWORK_FILESYSTEMS else None


def _is_within(path: str, folder: str) -> bool:
    folder = folder.rstrip("/") or "/"
    return folder == "/" or path == folder or path.startswith(folder + "/")


def is_network_folder(folder: Path, platform: str = sys.platform, mounts_text: str | None = None) -> bool:
    """Whether ``folder`` is on a network share (then only polling sees every change).

    Linux: the filesystem type from ``/proc/mounts``. Windows: UNC paths, or a mapped
    drive the OS reports as remote. Elsewhere nothing is detected; the person can ask
    for polling per watch.
    """
    if platform == "win32":
        text = str(folder)
        if text.startswith(("\\\\", "//")):
            return True
        if sys.platform == "win32" and len(text) >= 2 and text[1] == ":":
            import ctypes

            return int(ctypes.windll.kernel32.GetDriveTypeW(text[:2] + "\\")) == _DRIVE_REMOTE
        return False
    if platform.startswith("linux"):
        if mounts_text is None:
            try:
                mounts_text = Path("/proc/mounts").read_text(encoding="utf-8", errors="replace")
            except OSError:
                return False
        return network_fs_type(os.path.realpath(folder), mounts_text) is not None
    return False



def polling_reason(folder: Path, force_polling: bool, chosen_polling: bool) -> str | None:
    """Why ``folder`` is watched by polling (for the log), or None when the native observer may try."""
    if force_polling:
        return "forced"
    if chosen_polling:
        return "chosen for this folder"
    return "network share" if is_network_folder(folder) else None


__all__ = ["NETWORK_FILESYSTEMS", "is_network_folder", "network_fs_type", "polling_reason"]
