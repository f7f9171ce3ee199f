"""Take the README's screenshots from the real app on a real, processed library.

Run under a virtual X server::

    xvfb-run -a -s "-screen 0 1280x900x24" .venv/bin/python packaging/screenshots.py

What is real and what is not (the README caption says the same):

* the window, facade, store, scheduler and step protocol are the real ones;
* **images** go through the real image pipeline (RapidOCR text + multilingual-e5
  embeddings, on the CPU), so the Search tab shows a real query's real results;
* **videos** are placeholder files run through the fake stages of
  ``tests/engine_stages.py`` (checkpointed work that writes ``<stem>.test.srt``
  through the real placement protocol): real subtitles need speech models that a
  screenshot machine does not have;
* the Review items come about the real way: an engine process killed right after
  placing a file, the file then edited by hand, and recovery finding the mismatch.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from PySide6.QtCore import QEventLoop, QRect, Qt  # noqa: E402
from PySide6.QtGui import QColor, QFont, QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.engine.config import EngineConfig  # noqa: E402
from app.engine.library import JobOptions, Library  # noqa: E402
from app.gui.app import Gui, build_gui  # noqa: E402
from app.pipelines.image import image_pipeline  # noqa: E402
from app.settings import Settings  # noqa: E402
from tests.engine_stages import fake_pipeline, make_media  # noqa: E402

log = logging.getLogger(__name__)

OUT = REPO / "docs" / "screenshots"
PHOTOS = (("invoice_4471.png", "#fdfdf8", ["INVOICE", "Invoice number 4471", "Total due: 120 EUR"]),
          ("meeting_notes.png", "#eef4ff", ["Meeting notes", "quarterly budget review"]),
          ("parking_permit.png", "#fff3d6", ["PARKING PERMIT", "Zone B — valid 2025"]),
          ("recipe.png", "#eaf7ea", ["Lemon cake", "3 eggs, 200 g flour"]),
          ("boarding_pass.png", "#f3e9ff", ["BOARDING PASS", "Gate 12  Seat 14C"]),
          ("wifi_password.png", "#ffe9ec", ["Guest Wi-Fi", "password: sunflower42"]))


def render_photo(path: Path, background: str, lines: list[str]) -> None:
    """A picture with printed text (what OCR reads), drawn with Qt so no extra packages are needed."""
    image = QImage(640, 420, QImage.Format.Format_RGB32)
    image.fill(QColor(background))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QColor("#c8c8c8"))
    painter.drawRect(QRect(16, 16, 608, 388))
    painter.setPen(QColor("#111111"))
    for n, line in enumerate(lines):
        font = QFont("DejaVu Sans", 34 if n == 0 else 26)
        font.setBold(n == 0)
        painter.setFont(font)
        painter.drawText(QRect(40, 60 + n * 80, 560, 70), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, line)
    painter.end()
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(str(path))


def wait_until(app: QApplication, condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.02)


def settle(app: QApplication, seconds: float = 0.6) -> None:
    """Let queued signals and repaints land before a screenshot."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.02)


def make_reviews(data_dir: Path, folder: Path) -> None:
    """Two contested placements, produced the way they happen (see tests/e2e/test_manual_review.py)."""
    make_media(folder, 3, prefix="Episode ")
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, EngineConfig(workers=1))
    lib.add(folder, JobOptions())
    lib.close()
    edited: set[str] = set()
    child = [sys.executable, "-m", "tests.engine_child", str(data_dir), "--workers", "1"]
    for _ in range(2):
        subprocess.run(child + ["--crash-after", "replaced"], cwd=REPO, stdout=subprocess.DEVNULL, check=False)
        for srt in folder.glob("*.test.srt"):
            if srt.name not in edited:
                edited.add(srt.name)
                srt.write_text("1\n00:00:00,000 --> 00:00:02,000\nfixed by hand\n", encoding="utf-8")
    subprocess.run(child, cwd=REPO, stdout=subprocess.DEVNULL, check=True)


def factory(data_dir: Path, settings: Settings) -> Library:
    return Library(data_dir, {"video": fake_pipeline(max_sleep=0.6)[0], "image": image_pipeline(data_dir)},
                   EngineConfig(workers=2, poll_interval=0.1, progress_interval=0.2))


def shoot(gui: Gui, name: str) -> None:
    gui.app.processEvents()
    path = OUT / f"{name}.png"
    gui.window.grab().save(str(path))
    print(f"wrote {path.relative_to(REPO)}")


def main() -> int:
    logging.basicConfig(level=logging.WARNING)
    QApplication.instance() or QApplication(sys.argv[:1])  # fonts for render_photo; build_gui reuses it
    OUT.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.gettempdir()) / "sidecar-demo"  # a stable, readable path in the pictures
    shutil.rmtree(root, ignore_errors=True)
    data_dir, library = root / "data", root / "Library"
    data_dir.mkdir(parents=True)
    make_reviews(data_dir, library / "Series" / "Season 1")
    for name, background, lines in PHOTOS:
        render_photo(library / "Photos" / name, background, lines)
    make_media(library / "Movies", 40, prefix="Movie ")

    gui = build_gui([], data_dir, factory, poll_ms=300)
    assert gui is not None, "another Sidecar is running on this data dir"
    gui.window.resize(1180, 760)
    gui.window.show()
    app = gui.app
    wait_until(app, lambda: gui.facade._library is not None, 60, "the engine")
    gui.window.add_paths([library / "Photos"])
    wait_until(app, lambda: any(j.folder.endswith("Photos") and j.status == "completed" for j in gui.window.jobs_model.jobs),
               600, "the photos to be indexed")
    gui.window.add_paths([library / "Movies"])
    wait_until(app, lambda: any(j.folder.endswith("Movies") and j.done >= 12 for j in gui.window.jobs_model.jobs),
               600, "the movies to make progress")
    movies = next(j for j in gui.window.jobs_model.jobs if j.folder.endswith("Movies"))
    gui.window.select_job(movies.id)
    settle(app, 1.5)
    shoot(gui, "main-window")

    gui.facade.pause(movies.id)
    wait_until(app, lambda: gui.window.jobs_model.jobs[gui.window.jobs_model.row_of(movies.id)].status == "paused",
               60, "the pause")
    gui.window.tabs.setCurrentWidget(gui.window.queue)
    settle(app, 1.0)
    shoot(gui, "queue")

    gui.window.tabs.setCurrentWidget(gui.window.review)
    wait_until(app, lambda: gui.window.review.list.count() >= 1, 60, "the reviews")
    gui.window.review.list.setCurrentRow(0)
    gui.window.review.reason.setText("I corrected the timing myself")
    settle(app)
    shoot(gui, "review")

    search = gui.window.search
    gui.window.tabs.setCurrentWidget(search)
    search.query.setText("invoice 4471")
    search.run_search()
    wait_until(app, lambda: search.images.rowCount() > 0, 300, "search results")
    settle(app, 1.5)
    shoot(gui, "search")

    closed: list[bool] = []
    gui.facade.closed.connect(lambda: closed.append(True))
    gui.quit()
    wait_until(app, lambda: bool(closed), 120, "the engine to stop")
    assert not gui.facade.guard.violations, "the store or a model was called on the GUI thread"
    return 0


if __name__ == "__main__":
    if not os.environ.get("DISPLAY") and not os.environ.get("QT_QPA_PLATFORM"):
        sys.exit("run under Xvfb: xvfb-run -a -s '-screen 0 1280x900x24' .venv/bin/python packaging/screenshots.py")
    sys.exit(main())
