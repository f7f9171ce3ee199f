"""What ``sidecar models install`` tells a person while a model downloads: bytes, rate and time left.

On a terminal one stderr line is rewritten in place; elsewhere (a log, a pipe) a line is
written now and then. The rate is measured since the download (or its resume) started.
"""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

_TERMINAL_EVERY = 0.2
_LOG_EVERY = 10.0
MB = 1 << 20


def download_words(name: str, done: int, total: int | None, seconds: float, resumed_from: int = 0) -> str:
    """"translate-en-de: 42.0 of 84.0 MB, 6.1 MB/s, 7 s left" (no total: bytes and rate only)."""
    rate = (done - resumed_from) / seconds if seconds > 0 else 0.0
    text = f"{name}: {done / MB:.1f}"
    if total:
        text += f" of {total / MB:.1f} MB"
    else:
        text += " MB"
    if rate > 0:
        text += f", {rate / MB:.1f} MB/s"
        if total and total > done:
            text += f", {int((total - done) / rate) + 1} s left"
    return text


class DownloadLine:
    """A download progress callback ``(done_bytes, total_bytes)`` that shows :func:`download_words`."""

    def __init__(self, name: str, stream: TextIO | None = None, quiet: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.in_place = bool(getattr(self.stream, "isatty", lambda: False)())
        self._clock = clock
        self._start = clock()
        self._last = float("-inf")
        self._first: int | None = None
        self._shown = False

    def update(self, done: int, total: int | None) -> None:
        if self._first is None:
            self._first = done  # a resumed download starts past zero: its rate counts from here
        now = self._clock()
        if self.quiet or (now - self._last < (_TERMINAL_EVERY if self.in_place else _LOG_EVERY) and done != total):
            return
        self._last = now
        text = download_words(self.name, done, total, now - self._start, self._first)
        self.stream.write(f"\r\033[K{text}" if self.in_place else text + "\n")
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        if self.in_place and self._shown:
            self.stream.write("\n")
            self.stream.flush()
