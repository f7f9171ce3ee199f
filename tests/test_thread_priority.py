"""Background threads give way to the window: lowered below the main thread, without compounding."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from app.thread_priority import lower_current_thread

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")


def thread_nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def in_thread(fn: object) -> list[int]:
    seen: list[int] = []
    thread = threading.Thread(target=lambda: seen.extend(fn()))  # type: ignore[operator]
    thread.start()
    thread.join(10)
    return seen


def test_a_lowered_thread_runs_below_the_main_thread_and_leaves_it_alone() -> None:
    main = thread_nice()

    def lower() -> list[int]:
        assert lower_current_thread(3)
        return [thread_nice()]

    assert in_thread(lower) == [main + 3]
    assert thread_nice() == main, "the process (its main thread) was lowered, not just the background thread"


def test_a_thread_started_by_a_lowered_thread_is_not_lowered_twice() -> None:
    main = thread_nice()

    def lower_then_start_another() -> list[int]:
        lower_current_thread(3)
        return in_thread(lambda: [thread_nice(), lower_current_thread(3) and thread_nice()])

    assert in_thread(lower_then_start_another) == [main + 3, main + 3]


def test_no_steps_change_nothing() -> None:
    main = thread_nice()
    assert in_thread(lambda: [lower_current_thread(0), thread_nice()]) == [False, main]
