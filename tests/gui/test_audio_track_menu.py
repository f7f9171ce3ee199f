"""The queue's per-item "Audio track" menu: streams read off the GUI thread, a choice re-plans the item.

The library runs the real video pipeline, paused as a whole before the folder is added,
so nothing is transcribed: what is checked is the menu and what choosing writes to the
store (the item's own option, and new fingerprints for every stage from extraction on,
so no result computed for the other track can be reused).
"""

from __future__ import annotations

import dataclasses

from pathlib import Path
from typing import Any, Callable

from sqlalchemy import select

from app.engine.library import Library
from app.gui.app import Gui
from app.gui.queue_rows import audio_text, audio_tooltip
from app.store.records import AudioStreamFact, ItemFacts
from app.pipelines.video import video_pipeline
from app.settings import Settings
from app.store.tables import stages
from tests.gui.conftest import GUI_TEST_CONFIG, off_gui
from tests.media import AudioTrack, MediaFactory
from tests.video_jobs import folder_of


def _video_library(data_dir: Path, settings: Settings) -> Library:
    return Library(data_dir, {"video": video_pipeline(data_dir, settings)}, GUI_TEST_CONFIG)


def _menu_tracks(qtbot: Any, gui: Gui, item: Any) -> Any:
    with qtbot.waitSignal(gui.facade.jobs.audioTracks, timeout=20000):
        menu = gui.window.queue.item_menu(item)
    return next(a.menu() for a in menu.actions() if a.text() == "Audio track")


def test_choosing_an_audio_track_in_the_queue_plans_the_item_again(
        start_gui: Callable[..., Gui], qtbot: Any, media: MediaFactory, tmp_path: Path) -> None:
    clip = media.audio_tracks("default_second", AudioTrack("submarine", "eng"), AudioTrack("chocolate", "eng", "default"))
    folder = folder_of(tmp_path / "films", {"two tracks.mkv": clip})
    gui = start_gui(_video_library)
    library = gui.facade.library
    assert library is not None
    gui.window.pause_all_action.trigger()
    qtbot.waitUntil(lambda: off_gui(lambda: library.store.jobs.paused_state())[0], timeout=10000)
    gui.window.add_paths([folder])
    model = gui.window.queue.model
    qtbot.waitUntil(lambda: model.rowCount() == 1 and model.item_at(0) is not None, timeout=30000)
    item = model.item_at(0)

    tracks = _menu_tracks(qtbot, gui, item)
    assert [a.text() for a in tracks.actions()] == [
        "Choose automatically (now 2: English (default))", "1: English", "2: English (default)"]
    assert [a.isChecked() for a in tracks.actions()] == [True, False, False]

    def fingerprints() -> list[str]:
        with library.store.db.read() as conn:
            return list(conn.execute(select(stages.c.fingerprint).where(stages.c.item_id == item.id)
                                     .order_by(stages.c.idx)).scalars())

    before = off_gui(fingerprints)
    tracks.actions()[1].trigger()
    qtbot.waitUntil(lambda: off_gui(lambda: library.item_source(item.id).overrides) == {"audio_track": 1}, timeout=10000)
    after = off_gui(fingerprints)
    assert len(after) == 7 and after[0] == before[0]  # the hash stage is the same whatever the track
    assert all(a != b for a, b in zip(before[1:], after[1:]))
    assert [a.isChecked() for a in _menu_tracks(qtbot, gui, item).actions()] == [False, True, False]

    tracks = _menu_tracks(qtbot, gui, item)
    tracks.actions()[0].trigger()  # back to the rule: the fingerprints of a job without a choice
    qtbot.waitUntil(lambda: off_gui(fingerprints) == before, timeout=10000)


def test_the_audio_column_shows_the_track_used_and_the_language_heard() -> None:
    facts = ItemFacts.read({"audio_stream": {"index": 2, "track": 2, "tracks": 3, "language": "ger", "title": "Deutsch",
                                             "reason": "language"}, "language": "de", "language_probability": 0.9312})
    assert audio_text(facts) == "Track 2 of 3 “Deutsch” · German"
    assert audio_tooltip(facts) == ("Audio track 2 of 3: in the source language.\nThe file tags its language as German.\n"
                                    "Heard in the speech: German (93 % sure).")
    assert audio_text(ItemFacts()) == ""


def test_an_untagged_track_reads_as_the_language_detected_and_und_is_explained() -> None:
    facts = ItemFacts(AudioStreamFact(index=1, track=1, tracks=1, language="und", reason="only"), "en", 0.93)
    assert audio_text(facts) == "English, detected"
    assert "“und”: undetermined" in (audio_tooltip(facts) or "")
    japanese = dataclasses.replace(facts, audio_stream=AudioStreamFact(index=1, track=1, tracks=1, language="jpn"))
    assert audio_text(japanese) == "Japanese track; heard English"
