"""A person's edit saved from the editor: atomic, fenced, and never overwritten by a later run (it goes to review)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import pytest

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.stage import Pipeline
from app.engine.stage import ModelSpec, StageContext
from app.engine.subtitle_edits import SubtitleDocument, edited_dialogue
from app.errors import SidecarError
from app.media.cue_edits import EditCue, merge_cues, read_cues, render_edited, shift_cues, split_cue
from app.media.cues import Cue
from app.media.subtitles import render_transcript_srt, render_translation_srt
from tests.engine_stages import DigestStage, JsonOutput, PlaceStage, fake_pipeline, make_media

CONFIG = EngineConfig(workers=1, backoff_base=0.05, backoff_cap=0.2, poll_interval=0.05)


def _processed(data_dir: Path, media: Path, pipeline: Pipeline | None = None) -> Library:
    make_media(media, 2)
    lib = Library(data_dir, {"video": pipeline or fake_pipeline()[0]}, CONFIG)
    lib.add(media, JobOptions())
    lib.start()
    lib.run_until_idle()
    return lib


def test_cues_survive_a_render_and_read_round_trip_and_edits_keep_text_with_time() -> None:
    cues = [Cue(0, 2000, "Hello there world"), Cue(2500, 4000, "Braces {stay} text")]
    read = read_cues(render_transcript_srt(cues), render_translation_srt(cues, ["Hallo da Welt", "Zweite Zeile"]))
    assert read == [EditCue(0, 2000, "Hello there world", "Hallo da Welt"),
                    EditCue(2500, 4000, "Braces {stay} text", "Zweite Zeile")]
    assert render_edited(read, ["transcript"])["transcript"] == render_transcript_srt(cues)
    split = split_cue(read, 0, at_ms=1400)
    assert [(c.start_ms, c.end_ms, c.original, c.translation) for c in split[:2]] == [
        (0, 1400, "Hello there", "Hallo da"), (1400, 2000, "world", "Welt")]
    with pytest.raises(ValueError):
        split_cue(read, 0, at_ms=100)
    merged = merge_cues(split, 0)
    assert merged[0] == EditCue(0, 2000, "Hello there world", "Hallo da Welt") and merged[1:] == read[1:]
    shifted = shift_cues(read, -700, indexes=[1])
    assert [(c.start_ms, c.end_ms) for c in shifted] == [(0, 2000), (1800, 3300)]
    assert [(c.start_ms, c.end_ms) for c in shift_cues(read, -500)] == [(0, 2000), (2000, 3500)]  # never before 0


def test_a_translation_written_as_two_cues_is_read_back_as_its_cues_one_text() -> None:
    cues = [Cue(0, 4000, "Hello there, my friend."), Cue(4100, 8000, "Second line.")]
    long = ("Hallo dort, mein sehr lieber Freund, den ich seit so vielen Jahren kenne und schätze, "
            "und der mir immer geholfen hat, wenn ich ihn brauchte.")
    translation = render_translation_srt(cues, [long, "Zweite Zeile."], "de")
    assert translation.decode().count(" --> ") == 3  # the long one is laid out as two cues on its time
    read = read_cues(render_transcript_srt(cues), translation)
    assert [(c.original, c.translation) for c in read] == [(cues[0].text, long), (cues[1].text, "Zweite Zeile.")]
    assert render_edited(read, ["translation"])["translation"] == translation
    # Edited elsewhere: the translation moved by 5 s, one cue each: pairs are kept by index.
    moved = [Cue(c.start_ms + 5000, c.end_ms + 5000, c.text) for c in cues]
    drifted = read_cues(render_transcript_srt(cues), render_transcript_srt([Cue(m.start_ms, m.end_ms, t) for m, t in
                                                                             zip(moved, ["Eins.", "Zwei."])]))
    assert [c.translation for c in drifted] == ["Eins.", "Zwei."]


def test_a_saved_edit_is_the_persons_revision_and_a_later_run_sends_its_version_to_review(
        tmp_path: Path, data_dir: Path) -> None:
    media = tmp_path / "Films"
    lib = _processed(data_dir, media)
    try:
        video = media / "clip000.mp4"
        document = lib.open_subtitles(video)
        target = document.files["transcript"]
        assert target == media / "clip000.test.srt" and not document.has_translation
        assert len(document.cues) == 1 and document.cues[0].original.startswith("clip000.mp4")

        edited = [EditCue(document.cues[0].start_ms, document.cues[0].end_ms, "Fixed by a person")]
        saved = lib.save_subtitles(document, edited)
        assert "Fixed by a person" in target.read_text() and saved.cues[0].original == "Fixed by a person"
        assert lib.store.edits.is_person_revision(str(target), saved.hashes["transcript"])
        assert not [p for p in media.iterdir() if p.name.startswith(".")], "a temp file was left next to the video"

        # An edit made elsewhere after the editor opened the file is never saved over.
        target.write_text("1\n00:00:00,000 --> 00:00:01,000\nedited in another program\n")
        with pytest.raises(SidecarError) as caught:
            lib.save_subtitles(saved, [EditCue(0, 1000, "stale editor")])
        assert caught.value.code == "changed_on_disk" and "another program" in target.read_text()
        lib.save_subtitles(lib.open_subtitles(video), [EditCue(0, 1000, "Fixed again")])

        # The video is processed again (as Re-translate does: `redo`), even under the overwrite policy.
        video.write_bytes(b"a new version of the video\n" * 10)
        job = lib.add(media, JobOptions(existing_policy="overwrite", redo=True))
        lib.run_until_idle()
        assert "Fixed again" in target.read_text(), "a later run overwrote the person's edit"
        [review] = lib.reviews()
        assert (review.target, review.job) == (str(target), job.id)
        assert "your edit" in (review.error or "")
        assert lib.store.steps.reviews()[0].state == "manual_review"
        lib.decide(review.id, "not_applied", "take Sidecar's new version", actor="test")
        lib.run_until_idle()
        assert "a new version" not in target.read_text() and "Fixed again" not in target.read_text()
    finally:
        lib.close()


def test_saving_while_sidecar_works_on_the_video_is_refused(tmp_path: Path, data_dir: Path) -> None:
    pipeline, _ = fake_pipeline()
    armed: dict[str, SubtitleDocument] = {}
    refused: list[str] = []

    def save_while_placing(ctx: object) -> None:
        if "document" in armed:
            try:
                lib.save_subtitles(armed["document"], [EditCue(0, 1000, "during a run")])
            except SidecarError as exc:
                refused.append(exc.code)

    pipeline.stages[-1].before = save_while_placing  # type: ignore[attr-defined]
    media = tmp_path / "Films"
    lib = _processed(data_dir, media, pipeline)
    try:
        video = media / "clip001.mp4"
        for other in media.glob("clip000*"):
            other.unlink()
        armed["document"] = lib.open_subtitles(video)
        video.write_bytes(b"changed\n" * 10)
        lib.add(media, JobOptions(existing_policy="overwrite", redo=True))
        lib.run_until_idle()
        assert refused == ["item_busy"]
        assert "during a run" not in armed["document"].files["transcript"].read_text()
    finally:
        lib.close()


def test_add_redo_queues_an_already_subtitled_video_again(tmp_path: Path, data_dir: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from app.cli import main as cli

    from tests.media import mux

    folder = tmp_path / "Films"
    folder.mkdir()
    mux(None, folder / "Pilot.mp4", seconds=1.0)
    (folder / "Pilot.en.srt").write_text("1\n00:00:00,000 --> 00:00:01,000\nhello\n")
    for flags, expect in (([], (0, 1)), (["--redo"], (1, 0))):
        assert cli(["add", str(folder), "--target-lang", "en", "--data-dir", str(data_dir), "--json", *flags]) == 0
        job = json.loads(capsys.readouterr().out)["jobs"][0]
        assert (job["total"], job["skipped"]) == expect, flags


@dataclass
class RenderLanguages:
    """The video pipeline's render stage as far as the editor cares: it names the transcript's language."""

    name: str = "render"
    durable: bool = True
    output_type: type[JsonOutput] = JsonOutput

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"v": 1}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> JsonOutput:
        return JsonOutput({"source_lang": "en", "target_lang": None})


def test_a_saved_edit_replaces_the_videos_cues_in_dialogue_search(tmp_path: Path, data_dir: Path) -> None:
    media = tmp_path / "Films"
    lib = _processed(data_dir, media, Pipeline("video", [DigestStage("extract"), RenderLanguages(), PlaceStage()]))
    try:
        video = media / "clip000.mp4"
        document = lib.open_subtitles(video)
        first = document.cues[0]
        assert lib.search("buried treasure oak tree", kind="dialogue") == []
        lib.save_subtitles(document, [EditCue(first.start_ms, first.end_ms, "The treasure is buried under the old oak tree.")])
        [hit, *_] = lib.search("buried treasure oak tree", kind="dialogue")
        assert (hit.path, hit.start) == (str(video), first.start_ms / 1000) and "oak" in hit.snippet

        lib.save_subtitles(lib.open_subtitles(video), [EditCue(first.start_ms, first.end_ms, "We sail at dawn.")])
        assert lib.search("sail at dawn", kind="dialogue")[0].path == str(video)
        assert not any("oak" in h.snippet for h in lib.search("oak tree", kind="dialogue")), "the old words stayed findable"
    finally:
        lib.close()


def test_edited_dialogue_indexes_the_translation_under_its_language_but_not_its_fallback_lines() -> None:
    document = SubtitleDocument(1, Path("film.mp4"), {"transcript": Path("film.en.srt"), "translation": Path("film.de.srt")},
                                {}, (EditCue(0, 1000, "Hello", "Hallo"), EditCue(1000, 2000, "OK", "OK")))
    assert edited_dialogue(document, "en", "de") == [(0.0, 1.0, "Hello", "en"), (1.0, 2.0, "OK", "en"),
                                                     (0.0, 1.0, "Hallo", "de")]
    assert edited_dialogue(document, None, "de") == []
