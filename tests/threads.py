"""Running a call on a plain thread with a time limit: a test fails instead of hanging, or runs off a guarded thread."""

from __future__ import annotations

import threading
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def in_thread(fn: Callable[[], T], timeout: float = 60.0, name: str = "test-call") -> T:
    """``fn()`` on its own thread; its exception is re-raised here, and a call still running after ``timeout`` fails."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised on the test's thread
            box["error"] = exc

    t = threading.Thread(target=target, name=name, daemon=True)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), f"{name} did not return within {timeout} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


__all__ = ["in_thread"]
