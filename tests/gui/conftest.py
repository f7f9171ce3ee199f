"""GUI test fixtures: offscreen Qt, a facade over a real store, and proof the thread guard was on.

The pipelines here are the fake ones from ``tests/engine_stages.py`` (real store,
real scheduler, real step protocol, fake work): these tests are about the GUI
reflecting and driving the engine; the real stages are tested elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.engine.config import EngineConfig  # noqa: E402
from app.engine.library import Library  # noqa: E402
from app.engine.stage import Pipeline  # noqa: E402
from app.gui.app import Gui, build_gui  # noqa: E402
from app.gui.facade import EngineFacade  # noqa: E402
from app.ml.host import ModelHost  # noqa: E402
from app.pipelines.image import image_pipeline  # noqa: E402
from app.settings import SETTINGS_FILE, Settings, save_settings  # noqa: E402
from app.store.database import Database  # noqa: E402
from tests.engine_stages import fake_pipeline  # noqa: E402
from tests.threads import in_thread  # noqa: E402

T = TypeVar("T")

GUI_TEST_CONFIG = EngineConfig(workers=1, lease_seconds=5.0, backoff_base=0.05, backoff_cap=0.2, poll_interval=0.05,
                               progress_interval=0.0)


def off_gui(fn: Callable[[], T]) -> T:
    """Run ``fn`` on a plain thread and return its result: how a test reads the store while the guard is on."""
    return in_thread(fn, 60, "test-reader")


def library_factory(max_sleep: float = 0.02, real_images: bool = False) -> Callable[[Path, Settings], Library]:
    """A Library over the fake video pipeline, plus the real image pipeline (OCR + e5) when asked."""
    def make(data_dir: Path, settings: Settings) -> Library:
        pipelines: dict[str, Pipeline] = {"video": fake_pipeline(max_sleep)[0]}
        if real_images:
            pipelines["image"] = image_pipeline(data_dir)
        return Library(data_dir, pipelines, GUI_TEST_CONFIG)
    return make


@pytest.fixture
def start_gui(qtbot: Any, data_dir: Path) -> Iterator[Callable[..., Gui]]:
    """Build the real window + facade (offscreen), start the engine, and shut it down after the test.

    Teardown asserts that the store was entered while the test ran, only off the GUI
    thread: the guard was installed and never tripped.
    """
    guis: list[Gui] = []

    def start(factory: Callable[[Path, Settings], Library] | None = None, root: Path = data_dir) -> Gui:
        if not (root / SETTINGS_FILE).exists():  # the first-run page has its own tests; others start on the jobs
            save_settings(root, Settings(welcome_dismissed=True))
        gui = build_gui([], root, factory or library_factory(), poll_ms=100)
        assert gui is not None
        guis.append(gui)
        assert Database.thread_guard is gui.facade.guard and ModelHost.thread_guard is gui.facade.guard
        gui.window.show()
        with qtbot.waitSignal(gui.facade.started, timeout=20000):
            pass
        return gui

    yield start
    for gui in guis:
        facade: EngineFacade = gui.facade
        if not facade.closing:
            with qtbot.waitSignal(facade.closed, timeout=60000):
                gui.quit()
        gui.window.close()
        assert facade.guard.violations == [], "the store or a model was called on the GUI thread"
        assert facade.guard.passed > 0, "the store was never entered through the guard"
    assert Database.thread_guard is None and ModelHost.thread_guard is None
