"""Desktop notifications on Linux (the freedesktop Notifications service on the session bus), clickable.

Each notification offers the ``default`` action (a click on its body): the service
answers with ``ActionInvoked``, and :class:`DesktopNotifier` hands the job it was about
to ``on_open`` on its listener thread. A later notification of the same job replaces the
earlier one (``replaces_id``), so a job has at most one on screen. Calls block for at
most a second: callers run them off the GUI thread. Without a session bus or the
service, :meth:`start` answers False and the caller falls back (the GUI: the tray balloon).
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from queue import Empty, Queue
from typing import Any, Callable, Iterator, Sequence

from app.engine.desktop_bus import CALL_TIMEOUT_S
from app.engine.job_notices import NoticeWatch
from app.store.records import JobSummary

log = logging.getLogger(__name__)

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
DEFAULT_ACTION = "default"


class DesktopNotifier:
    def __init__(self, on_open: Callable[[int], None], app_name: str = "Sidecar", icon: str = "sidecar"):
        self._on_open = on_open
        self._app_name = app_name
        self._icon = icon
        self._conn: Any = None
        self._router: Any = None
        self._lock = threading.Lock()
        self._job_of: dict[int, int] = {}  # notification id -> job id
        self._shown: dict[int, int] = {}  # job id -> its notification id
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        """Connect and listen for clicks; False when there is no session bus or no notification service."""
        from jeepney import MessageType
        from jeepney.bus_messages import MatchRule, message_bus
        from jeepney.io.threading import DBusRouter, open_dbus_connection

        try:
            self._conn = open_dbus_connection(bus="SESSION")
        except (OSError, KeyError, ValueError) as exc:
            log.info("no desktop notifications: %s", exc)
            return False
        self._router = DBusRouter(self._conn)
        try:
            owner = self._router.send_and_get_reply(message_bus.NameHasOwner(SERVICE), timeout=CALL_TIMEOUT_S)
            if owner.header.message_type == MessageType.error or not owner.body[0]:
                log.info("no desktop notification service on the session bus")
                self.close()
                return False
            rule = MatchRule(type="signal", interface=SERVICE, path=PATH)
            self._router.send_and_get_reply(message_bus.AddMatch(rule), timeout=CALL_TIMEOUT_S)
        except (OSError, TimeoutError) as exc:
            log.info("no desktop notifications: %s", exc)
            self.close()
            return False
        signals: Queue[Any] = Queue()
        self._router.filter(rule, queue=signals)
        self._thread = threading.Thread(target=self._listen, args=(signals,), name="sidecar-notifications", daemon=True)
        self._thread.start()
        return True

    def notify(self, job_id: int, title: str, body: str) -> int | None:
        """Show (or replace) the job's notification; its id, or None when the service did not take it."""
        from jeepney import DBusAddress, MessageType, new_method_call
        from jeepney.io.common import RouterClosed

        if self._router is None:
            return None
        with self._lock:
            replaces = self._shown.get(job_id, 0)
        message = new_method_call(DBusAddress(PATH, bus_name=SERVICE, interface=SERVICE), "Notify", "susssasa{sv}i",
                                  (self._app_name, replaces, self._icon, title, body, [DEFAULT_ACTION, "Open"],
                                   {"desktop-entry": ("s", "sidecar")}, -1))
        try:
            reply = self._router.send_and_get_reply(message, timeout=CALL_TIMEOUT_S)
        except (OSError, TimeoutError, RouterClosed) as exc:  # RouterClosed: the bus went away
            log.warning("the desktop notification was not shown: %s", exc)
            return None
        if reply.header.message_type == MessageType.error:
            log.warning("the desktop notification was refused: %s", reply.body)
            return None
        notification = int(reply.body[0])
        with self._lock:
            self._job_of[notification] = job_id
            self._shown[job_id] = notification
        return notification

    def _listen(self, signals: Queue[Any]) -> None:
        from jeepney import HeaderFields

        while not self._stop.is_set():
            try:
                message = signals.get(timeout=0.5)
            except Empty:
                continue
            member = message.header.fields.get(HeaderFields.member)
            notification = int(message.body[0])
            with self._lock:
                job_id = self._job_of.get(notification)
                if member == "NotificationClosed" and job_id is not None:
                    del self._job_of[notification]
                    if self._shown.get(job_id) == notification:
                        del self._shown[job_id]
            if member == "ActionInvoked" and message.body[1] == DEFAULT_ACTION and job_id is not None:
                try:
                    self._on_open(job_id)
                except Exception:
                    log.exception("opening job %s from its notification failed", job_id)

    def close(self) -> None:
        self._stop.set()
        if self._router is not None:
            self._router.close()
            self._router = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None


@contextmanager
def headless_notices(read: Callable[[], Sequence[JobSummary]], wanted: frozenset[str]) -> Iterator[None]:
    """``sidecar run``: notify the desktop (when there is one) each time a job settles, while the block runs.

    A click has no window to open here; it is logged, and the person opens Sidecar.
    """
    notifier = DesktopNotifier(on_open=lambda job_id: log.info("notification of job %s clicked", job_id))
    if not wanted or not notifier.start():
        yield
        return
    watch = NoticeWatch(read, lambda notice: notifier.notify(notice.job_id, *notice.english()), wanted)
    watch.start()
    try:
        yield
    finally:
        watch.stop()
        notifier.close()
