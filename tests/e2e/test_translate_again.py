"""Translation failed → a translator becomes available → "Translate again" writes the files (issue 39.1).

The real video pipeline (real Whisper, e5, the step protocol) over a German video, target
Chinese, on the CLI as a person types it. The first translator is a scripted server
(tests/model_server.py) that gives every line back untranslated, as the bundled placeholder
does: the item is ``translation_failed`` with only its transcript written. Adding the folder
again with that same translator must not report the item done with nothing written (the
failed translation was once reused from the cache: Completed, no result, no file). Then a
working server is set in the settings (the "install a translator" step) and
``sidecar translate-again`` queues the item; ``sidecar run`` translates it from its stored
transcript (Whisper is not run again) and writes the Chinese subtitles.
"""

from __future__ import annotations

import json
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select

from app.cli import main as cli
from app.pipelines.outputs import TRANSLATION_FAILED
from app.settings import Settings, save_settings
from app.store import Store
from app.store.location import database_location
from app.store.tables import stages
from tests.media import MediaFactory
from tests.model_server import ModelServer
from tests.scripted_translations import to_chinese
from tests.video_jobs import assert_loads_everywhere, folder_of


def _is_chinese(text: str) -> bool:
    return sum("\u4e00" <= ch <= "\u9fff" for ch in text) >= 2


@pytest.fixture
def servers() -> Iterator[tuple[ModelServer, ModelServer]]:
    weak = ModelServer(answer=lambda language, text: None).start()
    good = ModelServer(answer=lambda language, text: to_chinese(text)).start()
    yield weak, good
    weak.stop()
    good.stop()


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    capsys.readouterr()
    cli([*args, "--json"])
    return json.loads(capsys.readouterr().out)


def _items(capsys: pytest.CaptureFixture[str], data_dir: Path) -> list[dict]:
    payload = _json(capsys, "status", "--items", "--data-dir", str(data_dir))
    return [item for job in payload["jobs"] for item in job["items"]]


def test_translate_again_on_the_cli_writes_the_translation_once_a_translator_works(
        media: MediaFactory, tmp_path: Path, servers: tuple[ModelServer, ModelServer],
        capsys: pytest.CaptureFixture[str]) -> None:
    weak, good = servers
    folder = folder_of(tmp_path / "library", {"german.mkv": media.german(".mkv")})
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    save_settings(data_dir, Settings(target_lang="zh", translation_endpoint=weak.url("/v1"),
                                     translation_endpoint_model="weak"))
    dd = ("--data-dir", str(data_dir))
    assert cli(["add", str(folder), *dd]) == 0
    cli(["run", "--until-idle", *dd])
    (item,) = _items(capsys, data_dir)
    assert (item["status"], item["problem"]["code"]) == ("completed", TRANSLATION_FAILED)
    assert sorted(p.name for p in folder.iterdir() if p.suffix == ".srt") == ["german.de.srt"]

    # Adding the folder again with the same (failing) translator redoes the translation and says so again.
    asked = len(weak.chats)
    assert cli(["add", str(folder), *dd]) == 0
    cli(["run", "--until-idle", *dd])
    second = _items(capsys, data_dir)[-1]
    assert (second["status"], (second["problem"] or {}).get("code")) == ("completed", TRANSLATION_FAILED), \
        "reported done with nothing written"
    assert len(weak.chats) > asked, "the translation was tried again, not taken from the cache"
    assert not (folder / "german.zh.srt").exists()

    # A working translator is set; Translate again queues both failed items and the run writes the files.
    save_settings(data_dir, Settings(target_lang="zh", translation_endpoint=good.url("/v1"),
                                     translation_endpoint_model="good"))
    assert _json(capsys, "translate-again", *dd) == {"queued": 2}
    assert _json(capsys, "translate-again", *dd) == {"queued": 0}, "queued items are not queued twice"
    cli(["run", "--until-idle", *dd])
    items = _items(capsys, data_dir)
    assert [(i["status"], i["problem"]) for i in items] == [("completed", None)] * 2, items
    assert good.chats and {language for language, _ in good.chats} == {"German"}
    chinese = assert_loads_everywhere(folder / "german.zh.srt")
    assert chinese and all(_is_chinese(line.plaintext) for line in chinese)
    assert len(assert_loads_everywhere(folder / "german.zh.ass")) == len(chinese)
    loads = _json(capsys, "status", *dd)["model_loads"]
    assert [n for key, n in loads.items() if key.startswith("app.ml.whisper_runtime:")] == [1], "transcript reused"


def test_a_server_saved_in_settings_applies_without_restart_and_translate_again_redoes_the_failed_item(
        qtbot: Any, media: MediaFactory, tmp_path: Path, servers: tuple[ModelServer, ModelServer]) -> None:
    """The desktop app, through its facade: a job fails to translate; a working server saved in Settings serves
    the next job at once (issue 39.2: pipelines were built once when the library opened), and the queue's
    "Translate again" redoes the failed item with it, writing its Chinese subtitles."""
    from app.engine.library import Library
    from app.gui.app import build_gui

    weak, good = servers
    first = folder_of(tmp_path / "first", {"german.mkv": media.german(".mkv")})
    second = folder_of(tmp_path / "second", {"german.mkv": media.german(".mkv")})
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    save_settings(data_dir, Settings(target_lang="zh", translation_endpoint=weak.url("/v1"),
                                     translation_endpoint_model="weak", welcome_dismissed=True))
    gui = build_gui([], data_dir, Library.open, poll_ms=100)
    assert gui is not None
    facade, window = gui.facade, gui.window
    told: list[tuple[int, str, str]] = []
    facade.jobs.notice.connect(lambda job_id, title, body: told.append((job_id, title, body)))
    try:
        window.show()
        with qtbot.waitSignal(facade.started, timeout=30000):
            pass
        window.add_paths([first])
        jobs = window.jobs_model
        qtbot.waitUntil(lambda: len(jobs.jobs) == 1 and jobs.jobs[0].status == "completed", timeout=300000)
        assert jobs.jobs[0].results == {TRANSLATION_FAILED: 1}
        # Issue 39.4: the row, the item and the notice say what was not delivered.
        assert jobs.status_label(jobs.jobs[0]) == "Finished — 1 not translated"
        qtbot.waitUntil(lambda: bool(told), timeout=10000)
        assert told[0][2] == "first: 1 of 1 done, 1 not translated", told
        assert not (first / "german.zh.srt").exists() and (first / "german.de.srt").exists()
        window.select_job(jobs.jobs[0].id)
        queue = window.queue
        qtbot.waitUntil(lambda: queue.translate_again_button.isEnabled(), timeout=10000)
        def row_state() -> str | None:
            row = queue.model.row_at(0) if queue.model.rowCount() == 1 else None
            return None if row is None else row.display[2]

        qtbot.waitUntil(lambda: row_state() == "Transcript only", timeout=10000)  # not "Completed"

        assert facade.settings.current is not None
        with qtbot.waitSignal(facade.settings.settingsSaved, timeout=10000):
            facade.settings.save(replace(facade.settings.current, translation_endpoint=good.url("/v1"),
                                         translation_endpoint_model="good"))
        window.add_paths([second])  # the next job: no restart in between
        qtbot.waitUntil(lambda: len(jobs.jobs) == 2 and jobs.jobs[1].status == "completed", timeout=300000)
        assert jobs.jobs[1].results == {}, "the new job used the server saved in Settings"
        assert all(_is_chinese(line.plaintext) for line in assert_loads_everywhere(second / "german.zh.srt"))

        window.select_job(jobs.jobs[0].id)
        qtbot.waitUntil(lambda: queue.model.job is not None and queue.model.job.id == jobs.jobs[0].id, timeout=10000)
        qtbot.mouseClick(queue.translate_again_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: jobs.jobs[0].status == "completed" and not jobs.jobs[0].results
                        and (first / "german.zh.srt").exists(), timeout=300000)
        chinese = assert_loads_everywhere(first / "german.zh.srt")
        assert chinese and all(_is_chinese(line.plaintext) for line in chinese)
        qtbot.waitUntil(lambda: not queue.translate_again_button.isEnabled(), timeout=10000)
    finally:
        with qtbot.waitSignal(facade.closed, timeout=60000):
            gui.quit()
        window.close()
    assert facade.guard.violations == [], "the store or a model was called on the GUI thread"


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then closed): connecting there is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unreachable_server_is_retried_then_named_and_the_transcript_is_placed_anyway(
        media: MediaFactory, tmp_path: Path, servers: tuple[ModelServer, ModelServer],
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 39.3: the item once failed at Translate with a raw ``<urlopen error …>`` and no transcript at all."""
    _, good = servers
    folder = folder_of(tmp_path / "library", {"german.mkv": media.german(".mkv")})
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    gone = f"http://127.0.0.1:{_closed_port()}/v1"
    save_settings(data_dir, Settings(target_lang="zh", translation_endpoint=gone))
    dd = ("--data-dir", str(data_dir))
    assert cli(["add", str(folder), *dd]) == 0
    cli(["run", "--until-idle", *dd])
    (item,) = _items(capsys, data_dir)
    assert (item["status"], item["problem"]["code"]) == ("completed", TRANSLATION_FAILED)
    assert sorted(p.name for p in folder.iterdir() if p.suffix == ".srt") == ["german.de.srt"], "the transcript is placed"
    assert assert_loads_everywhere(folder / "german.de.srt")
    message = item["problem"]["message"]
    assert gone in message and "could not be reached" in message and "urlopen" not in message, message
    store = Store(database_location(data_dir))
    try:
        with store.db.read() as conn:
            failures = conn.execute(select(stages.c.failures).where(stages.c.name == "translate")).scalar_one()
    finally:
        store.close()
    assert failures == 2, "retried with backoff (three tries in all) before giving up"

    save_settings(data_dir, Settings(target_lang="zh", translation_endpoint=good.url("/v1")))
    assert _json(capsys, "translate-again", *dd) == {"queued": 1}
    cli(["run", "--until-idle", *dd])
    assert all(_is_chinese(line.plaintext) for line in assert_loads_everywhere(folder / "german.zh.srt"))
