"""Items waiting for a translator go on by themselves once it is installed (SPEC §20).

An item whose language pair has no OPUS-MT package is transcribed, its transcript placed,
and it finishes as ``waiting_for_translator`` with the pair in its detail. Installing a
package (the GUI's model manager, ``sidecar models install`` in another process, or a
folder copied in by hand) only writes files under ``<data dir>/models``; this watch
notices a finished install there (a new or replaced manifest) and asks the library to
plan those items again. Their translate stage's fingerprint names the installed
packages, so planning again redoes the translation and what follows it, and nothing
before it: the transcript is reused.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable

from app.ml.model_state import MANIFEST, models_dir

log = logging.getLogger(__name__)

#: How often the models folder is looked at (a listing of a few dozen names: nothing to measure).
POLL_SECONDS = 5.0


def installs_signature(data_dir: Path | str) -> tuple[tuple[str, int], ...]:
    """Every finished install in the models folder with its manifest's mtime: changes when one is added or replaced."""
    root = models_dir(data_dir)
    found: list[tuple[str, int]] = []
    try:
        for folder in root.iterdir():
            if folder.name.startswith("."):
                continue  # an install under way
            try:
                found.append((folder.name, (folder / MANIFEST).stat().st_mtime_ns))
            except OSError:
                continue  # not a finished install (or not a folder)
    except OSError:
        return ()
    return tuple(sorted(found))


class TranslatorWatch:
    """Calls ``on_change`` in its own thread whenever :func:`installs_signature` changes, until stopped."""

    def __init__(self, data_dir: Path | str, on_change: Callable[[], object], interval: float = POLL_SECONDS) -> None:
        self.data_dir = data_dir
        self.on_change = on_change
        self.interval = interval
        self._stop = threading.Event()
        self._seen = installs_signature(data_dir)
        self._thread = threading.Thread(target=self._run, name="translator-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=self.interval + 5)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            now = installs_signature(self.data_dir)
            if now == self._seen:
                continue
            self._seen = now
            try:
                self.on_change()
            except Exception:  # a store hiccup must not end the watch; the next change tries again
                log.exception("items waiting for a translator could not be resumed")
