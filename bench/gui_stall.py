"""The longest GUI event-loop stall while a 1,000-item job runs and the person scrolls and searches.

Run by hand (a real X server or Xvfb; offscreen works too)::

    xvfb-run -a -s "-screen 0 1280x900x24" .venv/bin/python bench/gui_stall.py [--items 1000]

The window, facade and engine are the app's own over the real store; the stages are
the scheduler tests' fake ones (``tests/engine_stages.py``: real store, real step
protocol, real files placed next to the media, sleeps instead of models), so the
engine keeps the store and the disk busy the whole time. A 5 ms timer measures how
late each tick fires (the event loop's stall); meanwhile the script scrolls the queue
table end to end and types a search query letter by letter, as a person would.
Prints the maximum and the 99th percentile stall; the goal is ≤ 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.engine.config import EngineConfig  # noqa: E402
from app.engine.library import Library  # noqa: E402
from app.gui.app import build_gui  # noqa: E402
from app.settings import Settings, save_settings  # noqa: E402
from tests.engine_stages import fake_pipeline, make_media  # noqa: E402

TICK_MS = 5
QUERY = "train to Berlin"


def factory(data_dir: Path, settings: Settings) -> Library:
    config = EngineConfig(workers=2, lease_seconds=20.0, poll_interval=0.05, progress_interval=0.1)
    return Library(data_dir, {"video": fake_pipeline(max_sleep=0.05)[0]}, config)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to scroll and search")
    args = parser.parse_args()
    QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory(prefix="sidecar-stall-") as tmp:
        data_dir, media = Path(tmp) / "data", Path(tmp) / "Library"
        data_dir.mkdir()
        save_settings(data_dir, Settings(welcome_dismissed=True))
        make_media(media, args.items)
        gui = build_gui([], data_dir, factory, poll_ms=300)
        assert gui is not None
        app, window = gui.app, gui.window
        window.resize(1180, 760)
        window.show()
        deadline = time.monotonic() + 60
        while gui.facade._library is None and time.monotonic() < deadline:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        window.add_paths([media])
        while not window.jobs_model.jobs and time.monotonic() < deadline:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)

        stalls: list[float] = []
        clock = QElapsedTimer()
        ticker = QTimer()
        ticker.setInterval(TICK_MS)

        def tick() -> None:
            elapsed = clock.restart()
            stalls.append(max(0.0, elapsed - TICK_MS))

        ticker.timeout.connect(tick)
        clock.start()
        ticker.start()
        scrollbar = window.queue.table.verticalScrollBar()
        search = window.search
        end = time.monotonic() + args.seconds
        step, typed = 0, 0
        while time.monotonic() < end:
            step += 1
            if step % 4 == 0:  # scroll: a page at a time, end to end and back
                window.tabs.setCurrentWidget(window.queue)
                span = max(1, scrollbar.maximum())
                scrollbar.setValue((step * scrollbar.pageStep()) % (2 * span) if span else 0)
            if step % 25 == 0:  # type the next letter of the query
                window.tabs.setCurrentWidget(search)
                typed = typed % len(QUERY) + 1
                search.query.setText(QUERY[:typed])
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
        ticker.stop()
        job = window.jobs_model.jobs[0]
        done = f"{job.done}/{job.total}"
        closed: list[bool] = []
        gui.facade.closed.connect(lambda: closed.append(True))
        gui.quit()
        while not closed:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
    ordered = sorted(stalls)
    p99 = ordered[int(0.99 * (len(ordered) - 1))] if ordered else 0.0
    print(f"{'items':>6} {'ticks':>7} {'done':>11} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    print(f"{args.items:>6} {len(stalls):>7} {done:>11} {statistics.median(stalls):>10.1f} {p99:>8.1f} "
          f"{max(stalls):>8.1f}")
    print("goal: max ≤ 50 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
