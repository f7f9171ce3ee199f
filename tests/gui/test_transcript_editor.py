"""The subtitle editor: opened from the queue and from a dialogue hit, follows playback, saves the person's revision."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtMultimedia import QMediaPlayer

from app.engine.library import Library
from app.engine.stage import Output, Pipeline
from app.gui.app import Gui
from app.gui.transcript_editor import ORIGINAL, SPEAKER, TRANSLATION
from app.media.translation_quality import LANGUAGE
from app.pipelines.outputs import TRANSLATION_DOUBTFUL, TRANSLATION_FAILED
from app.settings import Settings
from tests.engine_stages import JsonOutput
from tests.gui.conftest import GUI_TEST_CONFIG, off_gui
from tests.media import mux


def _finished_video(qtbot: Any, tmp_path: Path, gui: Gui) -> Path:
    folder = tmp_path / "Films"
    folder.mkdir()
    video = mux(None, folder / "Holiday.mp4", seconds=3.0)  # real, playable; the fake stages write one cue 0–1 s
    gui.window.add_paths([folder])
    qtbot.waitUntil(lambda: gui.window.jobs_model.rowCount() == 1
                    and gui.window.jobs_model.jobs[0].status == "completed", timeout=30000)
    return video


def test_the_editor_opens_from_the_queue_follows_playback_and_saves_the_persons_edit(
        qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    video = _finished_video(qtbot, tmp_path, gui)
    queue = gui.window.queue
    qtbot.waitUntil(lambda: queue.model.item_at(0) is not None and queue.model.item_at(0).status == "completed",
                    timeout=10000)
    queue.table.selectRow(0)
    assert queue.subtitles_button.isEnabled()
    qtbot.mouseClick(queue.subtitles_button, Qt.MouseButton.LeftButton)
    editor = gui.window.editors[video]
    qtbot.waitUntil(lambda: editor.document is not None, timeout=10000)
    srt = video.with_name("Holiday.test.srt")
    assert editor.table.rowCount() == 1 and editor.table.item(0, ORIGINAL).text() == editor.cues[0].original
    assert editor.cues[0].original in srt.read_text() and editor.table.isColumnHidden(TRANSLATION)  # no translation here
    assert editor.table.isColumnHidden(SPEAKER) and editor.rename_button.isHidden()  # no speaker labels either

    # Playback: once the video is loaded, a position inside the cue shows it over the picture and selects its row.
    qtbot.waitUntil(lambda: editor.player.mediaStatus() in (QMediaPlayer.MediaStatus.LoadedMedia,
                                                            QMediaPlayer.MediaStatus.BufferedMedia), timeout=20000)
    assert editor.player.duration() > 2500
    editor.player.setPosition(1800)
    qtbot.waitUntil(lambda: editor.view.text == "", timeout=5000)
    editor.table.clearSelection()
    with qtbot.waitSignal(editor.player.positionChanged, timeout=5000):
        editor.seek_to_cue(0)
    qtbot.waitUntil(lambda: editor.view.text == editor.cues[0].original and editor.selected_rows() == [0], timeout=5000)

    # Split at the playhead, merge back, then fix the words and save.
    editor.player.setPosition(500)
    qtbot.waitUntil(lambda: editor.player.position() == 500, timeout=5000)
    editor.split_at_playhead()
    assert [(c.start_ms, c.end_ms) for c in editor.cues] == [(0, 500), (500, 1000)] and editor.dirty
    editor.table.selectRow(0)
    editor.merge_with_next()
    assert [(c.start_ms, c.end_ms) for c in editor.cues] == [(0, 1000)]
    editor.table.item(0, ORIGINAL).setText("Welcome back to the show")
    assert editor.cues[0].original == "Welcome back to the show" and editor.view.text == "Welcome back to the show"
    with qtbot.waitSignal(gui.facade.review.subtitlesSaved, timeout=10000):
        qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    assert "Welcome back to the show" in srt.read_text() and not editor.dirty
    assert "Saved" in editor.banner.text()
    library = gui.facade.library
    assert library is not None
    assert off_gui(lambda: library.store.edits.is_person_revision(str(srt), editor.document.hashes["transcript"]))

    # A dialogue hit opens the same editor at its time.
    gui.window.search.openCue.emit(str(video), 0.4)
    assert gui.window.editors[video] is editor
    qtbot.waitUntil(lambda: editor.player.position() == 400, timeout=5000)
    editor.close()


def test_a_file_changed_elsewhere_is_not_saved_over(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    gui = start_gui()
    video = _finished_video(qtbot, tmp_path, gui)
    editor = gui.window.open_editor(video)
    qtbot.waitUntil(lambda: editor.document is not None, timeout=10000)
    srt = video.with_name("Holiday.test.srt")
    srt.write_text("1\n00:00:00,000 --> 00:00:01,000\nfixed in another editor\n")
    editor.table.item(0, ORIGINAL).setText("my version")
    with qtbot.waitSignal(gui.facade.review.subtitlesFailed, timeout=10000) as failed:
        editor.save()
    assert failed.args[1] == "changed_on_disk" and "changed on disk" in editor.banner.text()
    assert "another editor" in srt.read_text() and editor.dirty
    editor.dirty = False
    editor.close()


def test_retranslate_adds_a_redo_job_for_the_video_with_the_chosen_model(
        qtbot: Any, tmp_path: Path, data_dir: Path, start_gui: Callable[..., Gui]) -> None:
    from app.ml.llm_runtime import smollm2_path
    from app.ml.local_models import models_register

    models_register(data_dir, smollm2_path(), "translation", "smollm2-local")
    gui = start_gui()
    video = _finished_video(qtbot, tmp_path, gui)
    editor = gui.window.open_editor(video)
    qtbot.waitUntil(lambda: len(editor.retranslate_menu.actions()) >= 2, timeout=20000)
    models = [action.data() for action in editor.retranslate_menu.actions()]
    assert {"gemma3-270m", "smollm2-local"} <= set(models)
    with qtbot.waitSignal(gui.facade.jobs.jobAdded, timeout=20000) as added:
        editor.retranslate("smollm2-local")
    job = added.args[0]
    assert job.folder == str(video) and job.options["redo"] is True and job.total == 1, "the video was skipped"
    assert job.options["models"]["translation"]["name"] == "smollm2-local"
    assert "Re-translating with smollm2-local" in editor.banner.text()
    editor.close()


def test_a_cue_is_edited_with_all_its_lines_and_the_window_fits_the_screen(
        qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    from PySide6.QtWidgets import QPlainTextEdit

    gui = start_gui()
    video = _finished_video(qtbot, tmp_path, gui)
    editor = gui.window.open_editor(video)
    qtbot.waitUntil(lambda: editor.document is not None, timeout=10000)
    free = editor.screen().availableGeometry()
    assert editor.frameGeometry().height() <= free.height() and editor.width() <= free.width()
    save = editor.save_button.mapTo(editor, editor.save_button.rect().bottomRight())
    assert editor.save_button.isVisible() and save.y() <= editor.height(), "Save is below the window's edge"

    editor.table.item(0, ORIGINAL).setText("first line\nsecond line")
    editor.table.editItem(editor.table.item(0, ORIGINAL))
    box = editor.table.viewport().findChild(QPlainTextEdit)
    assert isinstance(box, QPlainTextEdit), "a cue's text is edited in a one-line field"
    assert box.toPlainText() == "first line\nsecond line" and box.height() >= box.fontMetrics().lineSpacing() * 3
    box.setPlainText("first line\nsecond line, fixed")
    editor.table.commitData(box)
    editor.table.closeEditor(box, editor.text_delegate.EndEditHint.NoHint)
    assert editor.cues[0].original == "first line\nsecond line, fixed"
    editor.dirty = False
    editor.close()


def test_an_audio_file_gets_a_strip_for_its_cue_not_a_video_area(qtbot: Any, tmp_path: Path,
                                                                start_gui: Callable[..., Gui]) -> None:
    from app.gui.transcript_editor import AUDIO_STRIP_HEIGHT

    gui = start_gui()
    song = tmp_path / "Talk.m4a"
    song.write_bytes(b"")
    editor = gui.window.open_editor(song)
    qtbot.waitExposed(editor)
    assert editor.kind == "audio" and editor.view.height() <= AUDIO_STRIP_HEIGHT
    assert editor.table.height() > 3 * editor.view.height(), "the cues do not get the room"
    editor.close()


class DoubtfulPlace:
    """A video stage that places a transcript and a translation of three cues, the second left untranslated
    by the quality check, and reports it as the translate stage does (result and detail)."""

    name = "place"
    durable = True
    per_path = True
    output_type = JsonOutput

    def fingerprint(self, options: Any) -> dict[str, Any]:
        return {}

    def model_spec(self, options: Any) -> None:
        return None

    def run(self, ctx: Any) -> JsonOutput:
        times = ["00:00:00,000 --> 00:00:00,800", "00:00:01,000 --> 00:00:01,800", "00:00:02,000 --> 00:00:02,800"]
        original = ["Good morning.", "I have read the terms.", "See you."]
        german = ["Guten Morgen.", "I have read the terms.", "Bis bald."]

        def srt(lines: list[str]) -> bytes:
            return "".join(f"{i + 1}\n{t}\n{x}\n\n" for i, (t, x) in enumerate(zip(times, lines))).encode()

        ctx.place([Output(f"{ctx.item.path.stem}.en.srt", srt(original), "transcript"),
                   Output(f"{ctx.item.path.stem}.de.srt", srt(german), "translation")])
        return JsonOutput({"item_result": TRANSLATION_DOUBTFUL,
                           "item_detail": {"untranslated_cues": [2], "cues": 3, "reasons": {"2": LANGUAGE}}})


def test_the_cues_the_translation_check_left_untranslated_are_marked_until_fixed(
        qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    def library(data_dir: Path, settings: Settings) -> Library:
        return Library(data_dir, {"video": Pipeline("video", [DoubtfulPlace()])}, GUI_TEST_CONFIG)

    gui = start_gui(library)
    video = _finished_video(qtbot, tmp_path, gui)
    editor = gui.window.open_editor(video)
    qtbot.waitUntil(lambda: editor.document is not None, timeout=10000)
    assert editor.document.doubtful == {2: LANGUAGE} and not editor.table.isColumnHidden(TRANSLATION)
    marked = [row for row in range(3) if editor.table.item(row, TRANSLATION).toolTip()]
    assert marked == [1] and "(in another language)" in editor.table.item(1, TRANSLATION).toolTip()  # words, not a code
    assert "failed the translation check" in editor.banner.text() and editor.banner.text().startswith("1 ")
    editor.table.item(1, TRANSLATION).setText("Ich habe die Bedingungen gelesen.")
    assert editor.table.item(1, TRANSLATION).toolTip() == "" and editor.doubtful == {}
    assert not editor.banner.isVisible(), "the banner asking for the fix stays after the fix (issue 39.8)"
    editor.dirty = False
    editor.close()


class UntranslatedPlace(DoubtfulPlace):
    """Places only the transcript and reports the translation failed: its server could not be reached."""

    def run(self, ctx: Any) -> JsonOutput:
        ctx.place([Output(f"{ctx.item.path.stem}.en.srt", b"1\n00:00:00,000 --> 00:00:00,800\nGood morning.\n\n",
                          "transcript")])
        return JsonOutput({"item_result": TRANSLATION_FAILED,
                           "item_detail": {"untranslated_cues": [1], "cues": 1, "unreachable": "http://127.0.0.1:9/v1"}})


def test_an_untranslated_item_opens_saying_why_it_has_no_translation(
        qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    """Issue 39.8: a ``translation_failed`` item opened with no word on why there is no translation."""
    def library(data_dir: Path, settings: Settings) -> Library:
        return Library(data_dir, {"video": Pipeline("video", [UntranslatedPlace()])}, GUI_TEST_CONFIG)

    gui = start_gui(library)
    video = _finished_video(qtbot, tmp_path, gui)
    editor = gui.window.open_editor(video)
    qtbot.waitUntil(lambda: editor.document is not None, timeout=10000)
    assert editor.table.isColumnHidden(TRANSLATION)
    text = editor.banner.text()
    assert editor.banner.isVisibleTo(editor) and text.startswith("No translation: ") and "http://127.0.0.1:9/v1" in text
    assert "Translate again" in text and "translation_failed" not in text
    editor.close()


def test_enter_keeps_a_multi_line_cell_which_covers_no_other_row_and_shows_every_line(
        qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    """Issue 39.8: Enter never ended a multi-line cell, its box covered the next row, the row then showed one line."""
    from PySide6.QtWidgets import QPlainTextEdit

    def library(data_dir: Path, settings: Settings) -> Library:
        return Library(data_dir, {"video": Pipeline("video", [DoubtfulPlace()])}, GUI_TEST_CONFIG)

    gui = start_gui(library)
    video = _finished_video(qtbot, tmp_path, gui)
    editor = gui.window.open_editor(video)
    qtbot.waitUntil(lambda: editor.document is not None, timeout=10000)
    table = editor.table
    table.setCurrentCell(0, ORIGINAL)
    table.editItem(table.item(0, ORIGINAL))
    box = table.viewport().findChild(QPlainTextEdit)
    assert isinstance(box, QPlainTextEdit)
    qtbot.waitUntil(lambda: box.geometry().bottom() < table.visualRect(table.model().index(1, ORIGINAL)).top() + 1)
    assert box.height() >= box.fontMetrics().lineSpacing() * 3
    box.setPlainText("Good morning,")
    box.moveCursor(box.textCursor().MoveOperation.End)
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)  # a new line in the cue
    qtbot.keyClicks(box, "everyone.")
    qtbot.keyClick(box, Qt.Key.Key_Return)  # keeps the cell
    qtbot.waitUntil(lambda: table.state() != table.State.EditingState)
    assert editor.cues[0].original == "Good morning,\neveryone."
    assert table.rowHeight(0) >= 2 * table.fontMetrics().lineSpacing(), "the edited cell shows only its first line"
    editor.dirty = False
    editor.close()


def test_the_retranslate_menu_marks_the_placeholder(qtbot: Any, tmp_path: Path, start_gui: Callable[..., Gui]) -> None:
    """Issue 39.6: the menu offered "gemma3-270m (in use)" with no word that it is a placeholder."""
    from app.ml.model_choice import ModelRow

    def row(name: str, placeholder: bool, active: bool) -> ModelRow:
        return ModelRow(name, "translation", "gguf", "bundled", None, True, False, active, None, 1, 1, "MIT", "", None,
                        False, None, "", placeholder=placeholder)

    gui = start_gui()
    video = _finished_video(qtbot, tmp_path, gui)
    editor = gui.window.open_editor(video)
    qtbot.waitUntil(lambda: editor.document is not None, timeout=10000)
    editor._models_listed([row("gemma3-270m", True, True), row("qwen2.5-1.5b-instruct", False, False)])
    assert [a.text() for a in editor.retranslate_menu.actions()] == [
        "gemma3-270m (placeholder: poor translations) (in use)", "qwen2.5-1.5b-instruct"]
    editor.close()
