"""``file://`` URLs for the person's files, whatever bytes their names hold.

``QUrl.fromLocalFile`` takes a QString, and a Python string carrying an undecodable byte
of a name (a lone surrogate, see app.shown_names) loses that byte on its way into Qt, so
"Open file" would open nothing. Such a path is percent-encoded from its exact bytes.
"""

from __future__ import annotations

import os
from urllib.parse import quote_from_bytes

from PySide6.QtCore import QUrl

from app.shown_names import readable


def file_url(path: str) -> QUrl:
    """The URL of the local file ``path`` that a desktop opener resolves back to the same bytes."""
    if readable(path) == path:
        return QUrl.fromLocalFile(path)
    return QUrl.fromEncoded(b"file://" + quote_from_bytes(os.fsencode(path)).encode("ascii"))


__all__ = ["file_url"]
