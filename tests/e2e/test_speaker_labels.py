"""Speaker labels through the whole audio pipeline: real voices taking turns, the real speaker model."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from app.media.cue_edits import rename_speaker
from tests.speaker_model import install_speaker_model
from tests.test_speakers import conversation
from tests.video_jobs import library, options, stage_rows


@pytest.fixture(scope="module")
def talk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two real voices taking six turns of 4 s, as a FLAC a person would have."""
    samples, _ = conversation(["en_arctic_aew", "en_ljspeech_2min"], turns=6, turn_s=4.0)
    folder = tmp_path_factory.mktemp("talk") / "library"
    folder.mkdir()
    raw = folder.parent / "talk.f32"
    raw.write_bytes(samples.astype(np.float32).tobytes())
    subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "f32le", "-ar", "16000", "-ac", "1", "-i", str(raw),
                    str(folder / "Talk.flac")], check=True)
    return folder


def test_turns_of_two_voices_are_labelled_in_the_transcript_and_the_item(
    talk: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    install_speaker_model(data, tmp_path, monkeypatch)
    lib = library(data)
    try:
        job = lib.add(talk, options("", "audio", speakers="auto"))
        lib.start()
        lib.run_until_idle()
        (item,) = lib.items(job.id)
        cues = stage_rows(lib.store, "transcribe")["Talk.flac"]["output"]["cues"]
        assert item.facts.speakers == 2, item.facts
        text = (talk / "Talk.en.txt").read_text("utf-8")
        assert "[Speaker 1]" in text and "[Speaker 2]" in text, text
        firsts = [cue["speakers"][0] for cue in cues]
        changes = sum(1 for a, b in zip(firsts, firsts[1:]) if a != b)
        assert changes >= 3, firsts  # six turns: the voices take over from each other, not one label for all

        # The editor shows each line's speaker, and a name given there is written where names show.
        document = lib.open_subtitles(talk / "Talk.flac")
        assert [c.speaker for c in document.cues] == [f"Speaker {k}" for k in firsts]
        saved = lib.save_subtitles(document, rename_speaker(document.cues, "Speaker 2", "Linda"))
        assert "[Linda]" in (talk / "Talk.en.txt").read_text("utf-8") and "[Speaker 2]" not in (
            talk / "Talk.en.txt").read_text("utf-8")
        assert {c.speaker for c in saved.cues} == {"Speaker 1", "Linda"}  # read back from the text file
        assert [c.original for c in saved.cues] == [c.original for c in document.cues]
    finally:
        lib.close()
    for path in (talk / "Talk.en.txt", talk / "Talk.en.srt"):
        path.unlink()


def test_labels_asked_for_without_the_model_leave_the_transcript_plain_and_say_why(talk: Path, tmp_path: Path) -> None:
    lib = library(tmp_path / "data")
    try:
        job = lib.add(talk, options("", "audio", speakers="2"))
        lib.start()
        lib.run_until_idle()
        (item,) = lib.items(job.id)
    finally:
        lib.close()
    assert "model_missing" in item.notes and item.facts.speakers is None
    assert "[Speaker" not in (talk / "Talk.en.txt").read_text("utf-8")
