"""Take the README's screenshots from the real app on a real, processed library.

Run under a virtual X server (under a minute on two cores)::

    xvfb-run -a -s "-screen 0 1280x900x24" .venv/bin/python packaging/screenshots.py

Everything shown was processed by the product's own pipelines (``default_pipelines``),
with the models that ship with it, on the CPU:

* **videos**: short clips spoken by ``espeak-ng`` (English and German) and muxed by
  FFmpeg (``tests/media.py``), subtitled by the real video pipeline (faster-whisper
  base → bundled Gemma 3 270M translation into German → SRT/ASS placed next to the
  video → dialogue indexed for search);
* **images**: pictures of printed text drawn here, indexed by the real image pipeline
  (RapidOCR + multilingual-e5; no CLIP model is installed, so its visual stage records
  "no visual model installed"), with their ``.sidecar.json`` placed next to them;
* the **first-run page** is what the app opens on with an empty library (a second data
  dir, shot first);
* the **Review** items come about the real way: an engine process (this script, run
  with ``--engine-child``) killed right after it placed a subtitle file, the file then
  edited the way a person would (a speaker name added), and recovery finding the change;
* the **subtitle editor** is opened on the travel update once it is subtitled, a few
  seconds in (the picture is FFmpeg's navy test colour: the clips have no images);
* the **Videos** job is shot while it runs, once its first video is done; the script
  then pauses it (the second video stops at its next checkpoint or between stages),
  shoots the Queue, and resumes it.

``--language zh_CN`` (or ``de``) shows the windows in that language and takes only the
main window, as ``main-zh_CN.png``.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from PySide6.QtCore import QEventLoop, QRect, Qt  # noqa: E402
from PySide6.QtGui import QColor, QFont, QImage, QPainter  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.engine.config import EngineConfig  # noqa: E402
from app.engine.library import JobOptions, Library  # noqa: E402
from app.gui.app import Gui, build_gui  # noqa: E402
from app.pipelines import default_pipelines  # noqa: E402
from app.settings import Settings, load_settings, save_settings  # noqa: E402
from app.store.records import ItemView, JobSummary  # noqa: E402

log = logging.getLogger(__name__)

OUT = REPO / "docs" / "screenshots"
TARGET_LANG = "de"
PHOTOS = (("invoice_4471.png", "#fdfdf8", ["INVOICE", "Invoice number 4471", "Total due: 120 EUR"]),
          ("meeting_notes.png", "#eef4ff", ["Meeting notes", "quarterly budget review"]),
          ("parking_permit.png", "#fff3d6", ["PARKING PERMIT", "Zone B — valid 2025"]),
          ("recipe.png", "#eaf7ea", ["Lemon cake", "3 eggs, 200 g flour"]),
          ("train_ticket.png", "#f3e9ff", ["TRAIN TICKET", "Hamburg → Berlin Hbf", "Platform 12  Seat 41"]),
          ("wifi_password.png", "#ffe9ec", ["Guest Wi-Fi", "password: sunflower42"]))
#: (folder, file name, espeak-ng voice, words): None is tests/media.py's GERMAN_TEXT. The texts were
#: chosen so that Whisper base detects the right language from espeak-ng's robotic voices; what it
#: mishears ("Harbor Light", "Dach wurde") stays as it heard it.
CLIPS = (("Videos", "Travel update.mp4", "en-us",
          "Good evening, this is your travel update. The train to Berlin leaves from platform twelve "
          "at eight thirty. Please keep your tickets ready."),
         ("Videos", "Guten Morgen.mkv", "de", None),
         ("Series/Season 1", "Episode 1.mp4", "en-us",
          "Previously on Harbour Lights. Anna found an old map in the attic. "
          "Tonight she finally opens the wooden box."),
         ("Series/Season 1", "Episode 2.mkv", "de",
          "Was bisher geschah. Anna hat auf dem Dachboden eine alte Karte gefunden. "
          "Heute Abend öffnet sie endlich die Kiste aus Holz."))
#: What the person adds by hand to the first line of each subtitle the killed engine had placed.
SPEAKERS = {"Episode 1": "NARRATOR: ", "Episode 2": "ERZÄHLER: "}
SEARCH_QUERY = "train to Berlin"
EDITOR_AT_S = 4.0  # inside the travel update's second line


def engine_config(settings: Settings) -> EngineConfig:
    """The person's engine settings with quicker polls (two busy cores: a lease long enough for them)."""
    return settings.engine_config(workers=2, lease_seconds=20.0, poll_interval=0.1, progress_interval=0.2)


def make_clips(root: Path, library: Path) -> None:
    """Real spoken videos: espeak-ng speech muxed by FFmpeg, through tests/media.py's helpers."""
    from tests.media import GERMAN_TEXT, mux, speak

    work = root / "speech"
    work.mkdir(parents=True, exist_ok=True)
    for n, (folder, name, voice, words) in enumerate(CLIPS):
        wav = speak(words or GERMAN_TEXT, voice, work / f"clip{n}.wav", speed=140 if voice == "de" and words else 150)
        dest = library / folder / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        mux(wav, dest)


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


def engine_child(data_dir: Path, crash_after: str | None) -> int:
    """``--engine-child``: run the real pipelines over the data dir's jobs until idle.

    With ``--crash-after replaced`` the process dies (``os._exit``, no cleanup) right
    after the first file it places has been renamed into place, before the engine could
    record that step as done: what a power cut or a kill at that moment leaves behind.
    """

    def observe(event: str, step: Any) -> None:
        if event == crash_after:
            os._exit(9)

    settings = load_settings(data_dir)
    lib = Library(data_dir, default_pipelines(data_dir, settings), engine_config(settings), observe_step=observe)
    try:
        lib.start()
        lib.run_until_idle()
    finally:
        lib.close()
    return 0


def add_speaker(path: Path, speaker: str) -> None:
    """The person's edit: a speaker name in front of the first subtitle line."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".srt":  # the first line after the first timing line
        edited = re.sub(r"(-->[^\n]*\n)", lambda m: m.group(1) + speaker, text, count=1)
    else:  # ASS: the text field of the first Dialogue line (after its ninth comma)
        edited = re.sub(r"^(Dialogue:(?:[^,]*,){9})", lambda m: m.group(1) + speaker, text, count=1, flags=re.M)
    assert edited != text, f"nothing to edit in {path}"
    path.write_text(edited, encoding="utf-8")


def make_reviews(data_dir: Path, folder: Path) -> None:
    """Contested placements, produced the way they happen (see tests/e2e/test_manual_review.py).

    A job over ``folder`` is run by engine processes that are killed right after placing
    a file; each time, the person then edits the file just placed. The next engine's
    recovery finds a file that is neither what it wrote nor what was there before, and
    hands it to the person (Review) instead of overwriting their edit.
    """
    settings = load_settings(data_dir)
    lib = Library(data_dir, default_pipelines(data_dir, settings), engine_config(settings))
    lib.add(folder, JobOptions.from_settings(settings))
    lib.close()
    child = [sys.executable, str(Path(__file__).resolve()), "--engine-child", str(data_dir)]
    # A killed engine leaves its model processes to notice the closed pipe (and say so): kept out of the way.
    logs = (data_dir.parent / "engine-children.log").open("ab")
    known = {p.name for p in folder.iterdir()}
    edited = 0
    for _ in range(len(SPEAKERS) + 1):
        code = subprocess.run(child + ["--crash-after", "replaced"], cwd=REPO, stdout=logs, stderr=logs,
                              check=False).returncode
        if code == 0:
            break  # nothing was left to place
        assert code == 9, f"the engine child failed ({code}); see {logs.name}"
        for path in sorted(folder.iterdir()):
            if path.name not in known:
                known.add(path.name)
                speaker = next(s for stem, s in SPEAKERS.items() if path.name.startswith(stem))
                add_speaker(path, speaker)
                edited += 1
                print(f"killed the engine after it placed {path.name}; edited it as a person would ({speaker.strip()!r} added)")
    subprocess.run(child, cwd=REPO, stdout=logs, stderr=logs, check=True)
    logs.close()
    assert edited == len(SPEAKERS), f"{edited} placed file(s) edited, expected {len(SPEAKERS)}"


def factory(data_dir: Path, settings: Settings) -> Library:
    """The app's own engine (``Library.open``) with quicker polls."""
    return Library.open(data_dir, settings, workers=2, lease_seconds=20.0, poll_interval=0.1, progress_interval=0.2)


def shoot(gui: Gui, name: str) -> None:
    gui.app.processEvents()
    path = OUT / f"{name}.png"
    gui.window.grab().save(str(path))
    print(f"wrote {path.relative_to(REPO)}")


def job_named(gui: Gui, folder: str) -> JobSummary | None:
    return next((j for j in gui.window.jobs_model.jobs if Path(j.folder).name == folder), None)


def queue_items(gui: Gui) -> list[ItemView]:
    model = gui.window.queue.model
    return [item for row in range(model.rowCount()) if (item := model.item_at(row)) is not None]


def mid_way(gui: Gui, job_id: int) -> bool:
    """The job has finished its first video and is still working on the rest."""
    job = next((j for j in gui.window.jobs_model.jobs if j.id == job_id), None)
    return job is not None and job.status == "running" and 0 < job.done < job.total and len(queue_items(gui)) == job.total


def paused_still(gui: Gui, job_id: int) -> bool:
    """The pause took effect: the job says paused and no item of it is still running."""
    job = next((j for j in gui.window.jobs_model.jobs if j.id == job_id), None)
    items = queue_items(gui)
    return job is not None and job.status == "paused" and len(items) == job.total and all(
        i.status != "running" for i in items)


def shoot_first_run(data_dir: Path) -> None:
    """The page an empty library opens on, from its own data dir (the demo library has jobs by then)."""
    data_dir.mkdir(parents=True)
    save_settings(data_dir, Settings(target_lang=TARGET_LANG, workers=2))
    gui = build_gui([], data_dir, factory, poll_ms=300)
    assert gui is not None, "another Sidecar is running on this data dir"
    gui.window.resize(1180, 860)
    gui.window.show()
    window, app = gui.window, gui.app
    wait_until(app, lambda: window.pages.currentWidget() is window.welcome_page and window.welcome.recommended is not None,
               60, "the first-run page")
    settle(app)
    shoot(gui, "first-run")
    closed: list[bool] = []
    gui.facade.closed.connect(lambda: closed.append(True))
    gui.quit()
    wait_until(app, lambda: bool(closed), 120, "the first-run engine to stop")
    window.close()


def main(language: str = "") -> int:
    logging.basicConfig(level=logging.WARNING)
    began = time.monotonic()
    QApplication.instance() or QApplication(sys.argv[:1])  # fonts for render_photo; build_gui reuses it
    OUT.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.gettempdir()) / "sidecar-demo"  # a stable, readable path in the pictures
    shutil.rmtree(root, ignore_errors=True)
    data_dir, library = root / "data", root / "Library"
    data_dir.mkdir(parents=True)
    save_settings(data_dir, Settings(target_lang=TARGET_LANG, workers=2, ui_language=language))
    if not language:
        shoot_first_run(root / "first-run-data")
    make_clips(root, library)
    for name, background, lines in PHOTOS:
        render_photo(library / "Photos" / name, background, lines)
    make_reviews(data_dir, library / "Series" / "Season 1")
    print(f"review items ready after {time.monotonic() - began:.0f} s")

    gui = build_gui([], data_dir, factory, poll_ms=300)
    assert gui is not None, "another Sidecar is running on this data dir"
    gui.window.resize(1180, 760)
    gui.window.show()
    app = gui.app
    wait_until(app, lambda: gui.facade._library is not None, 60, "the engine")
    gui.window.add_paths([library / "Photos"])
    wait_until(app, lambda: (j := job_named(gui, "Photos")) is not None and j.status == "completed", 600,
               "the photos to be indexed")
    print(f"photos indexed after {time.monotonic() - began:.0f} s")

    gui.window.add_paths([library / "Videos"])
    wait_until(app, lambda: job_named(gui, "Videos") is not None, 60, "the videos job")
    videos = job_named(gui, "Videos")
    assert videos is not None
    gui.window.select_job(videos.id)
    wait_until(app, lambda: mid_way(gui, videos.id) or job_named(gui, "Videos").status == "completed", 600,
               "the videos job to be mid-way")
    if job_named(gui, "Videos").status == "completed":  # a fast, idle machine subtitles both clips at once
        print("the videos finished before they could be shown mid-way; the main window shows them finished")
    settle(app, 0.3)
    shoot(gui, f"main-{language}" if language else "main-window")
    if language:
        return stop(gui, began)

    gui.facade.pause(videos.id)
    wait_until(app, lambda: paused_still(gui, videos.id) or job_named(gui, "Videos").status == "completed", 120,
               "the pause")
    if job_named(gui, "Videos").status == "completed":  # a fast machine: the last clip beat the pause
        print("the videos finished before the pause took effect; queue.png is kept as it was")
    else:
        settle(app, 1.0)
        shoot(gui, "queue")

    gui.facade.resume(videos.id)
    wait_until(app, lambda: (j := job_named(gui, "Videos")) is not None and j.status == "completed", 600,
               "the videos to be subtitled")
    print(f"videos subtitled after {time.monotonic() - began:.0f} s")

    editor = gui.window.open_editor(library / "Videos" / "Travel update.mp4", EDITOR_AT_S)
    editor.resize(1180, 640)
    wait_until(app, lambda: editor.document is not None and editor.view.text != "", 60, "the subtitle editor")
    settle(app, 1.5)
    editor.grab().save(str(OUT / "editor.png"))
    print(f"wrote {(OUT / 'editor.png').relative_to(REPO)}")
    editor.close()

    gui.window.tabs.setCurrentWidget(gui.window.review)
    wait_until(app, lambda: gui.window.review.list.count() >= len(SPEAKERS), 60, "the reviews")
    rows = [gui.window.review.list.item(n).text() for n in range(gui.window.review.list.count())]
    gui.window.review.list.setCurrentRow(next(n for n, text in enumerate(rows) if text.startswith("Episode 1")))
    gui.window.review.reason.setText("I added the speaker names myself")
    settle(app)
    shoot(gui, "review")

    search = gui.window.search
    gui.window.tabs.setCurrentWidget(search)
    search.query.setText(SEARCH_QUERY)
    search.run_search()
    wait_until(app, lambda: search.images.rowCount() > 0 and search.lines.count() > 0, 300, "search results")
    settle(app, 1.5)
    shoot(gui, "search")
    return stop(gui, began)


def stop(gui: Gui, began: float) -> int:
    """Stop the engine, check the GUI thread never entered the store or a model."""
    app = gui.app
    closed: list[bool] = []
    gui.facade.closed.connect(lambda: closed.append(True))
    gui.quit()
    wait_until(app, lambda: bool(closed), 120, "the engine to stop")
    assert not gui.facade.guard.violations, "the store or a model was called on the GUI thread"
    print(f"done in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine-child", type=Path, metavar="DATA_DIR", help="(internal) run an engine process")
    parser.add_argument("--crash-after", choices=("started", "replaced"), help="(internal) with --engine-child")
    parser.add_argument("--language", choices=("zh_CN", "de"), default="",
                        help="show the windows in this language and take only the main window")
    args = parser.parse_args()
    if args.engine_child:
        sys.exit(engine_child(args.engine_child, args.crash_after))
    if not os.environ.get("DISPLAY") and not os.environ.get("QT_QPA_PLATFORM"):
        sys.exit("run under Xvfb: xvfb-run -a -s '-screen 0 1280x900x24' .venv/bin/python packaging/screenshots.py")
    sys.exit(main(args.language))

