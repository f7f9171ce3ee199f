"""What ``sidecar add`` tells a person while a big folder is walked (a NAS share can take minutes).

On a terminal one stderr line is rewritten in place; elsewhere (a log, a pipe) a plain
line is written now and then, so a captured log stays readable and short adds say
nothing at all.
"""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

_TERMINAL_EVERY = 0.2  # seconds between rewrites of the line in place
_LOG_EVERY = 10.0  # seconds between plain lines


class AddProgressLine:
    """A ``Library.add`` progress callback: ``(found, None)`` while walking, then ``(recorded, total)``."""

    def __init__(self, folder: str, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic):
        self.folder = folder
        self.stream = stream if stream is not None else sys.stderr
        self.in_place = bool(getattr(self.stream, "isatty", lambda: False)())
        self._clock = clock
        self._last = clock()
        self._shown = False

    def __call__(self, done: int, total: int | None) -> None:
        now = self._clock()
        if now - self._last < (_TERMINAL_EVERY if self.in_place else _LOG_EVERY):
            return
        self._last = now
        text = (f"{self.folder}: {done} media file(s) found so far" if total is None
                else f"{self.folder}: {done} of {total} file(s) recorded")
        if self.in_place:
            self.stream.write(f"\r\033[K{text}")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self._shown = True

    def __enter__(self) -> AddProgressLine:
        return self

    def __exit__(self, *exc: object) -> None:
        """Clear the line rewritten in place, so what follows (the result or an error) starts clean."""
        if self.in_place and self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


__all__ = ["AddProgressLine"]
