"""Follows the jobs webhooks queued and asks their server to refresh the item once its subtitle is placed.

A thread looks at the followed jobs every few seconds. A completed item (its subtitle
placed) gets its refresh on a thread of its own, retried with backoff
(:func:`app.server.media_servers.refresh`), so neither placement nor the next refresh
waits on a slow server; a refresh that never got through is the item's note
``media_server_refresh_failed``. An item that failed or needed no work asks nothing.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from app.codes import Code
from app.engine.library import Library
from app.server.media_servers import ServerAccess, refresh
from app.server.webhooks import MediaEvent
from app.store.states import ItemState

log = logging.getLogger(__name__)


class RefreshFollower:
    def __init__(self, library: Library, interval_s: float = 2.0,
                 refresher: Callable[[ServerAccess, MediaEvent], bool] = refresh):
        self.library = library
        self.interval_s = interval_s
        self._refresh = refresher
        self._followed: dict[int, tuple[ServerAccess, MediaEvent]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._sending: list[threading.Thread] = []

    def follow(self, job_id: int, access: ServerAccess, event: MediaEvent) -> None:
        with self._lock:
            self._followed[job_id] = (access, event)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="sidecar-refresh", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10.0)
        for thread in self._sending:
            thread.join(30.0)

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self.check()

    def check(self) -> None:
        """Start the refresh of every followed job whose item finished; forget jobs that ended otherwise."""
        with self._lock:
            followed = dict(self._followed)
        for job_id, (access, event) in followed.items():
            try:
                items = self.library.items(job_id)
            except Exception:
                log.debug("could not read job %s", job_id, exc_info=True)
                continue
            if any(item.status in (ItemState.PENDING, ItemState.RUNNING) for item in items):
                continue
            with self._lock:
                self._followed.pop(job_id, None)
            done = [item.id for item in items if item.status == ItemState.COMPLETED]
            if done:
                thread = threading.Thread(target=self._send, args=(access, event, done), name="sidecar-refresh-send",
                                          daemon=True)
                self._sending = [t for t in self._sending if t.is_alive()] + [thread]
                thread.start()

    def _send(self, access: ServerAccess, event: MediaEvent, item_ids: list[int]) -> None:
        if self._refresh(access, event):
            return
        for item_id in item_ids:
            self.library.store.jobs.add_note(item_id, Code.REFRESH_FAILED)
