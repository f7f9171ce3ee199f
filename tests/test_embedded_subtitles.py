"""A video that carries a text subtitle stream in the target language is already subtitled (SPEC §12, issue 11.6)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.media.subtitle_streams import subtitle_streams
from app.settings import Settings
from tests.engine_stages import fake_pipeline


def _video_with_subtitle_stream(path: Path, language: str) -> Path:
    """A real one-second mkv with an SRT subtitle stream tagged ``language`` (ISO 639-2, as muxers write it)."""
    srt = path.with_name("cue.srt.tmp")
    srt.write_text("1\n00:00:00,000 --> 00:00:00,900\nBonjour\n", encoding="utf-8")
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "color=c=black:s=64x64:d=1",
                    "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-f", "srt", "-i", str(srt), "-t", "1",
                    "-map", "0:v", "-map", "1:a", "-map", "2:s", "-c:v", "libx264", "-c:a", "aac", "-c:s", "srt",
                    "-metadata:s:s:0", f"language={language}", str(path)], check=True)
    srt.unlink()
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir()
    _video_with_subtitle_stream(lib_dir / "Film.mkv", "fra")
    _video_with_subtitle_stream(lib_dir / "Other.mkv", "fra")
    (lib_dir / "Other.de.srt").write_text("1\n00:00:00,000 --> 00:00:00,900\nHallo\n", encoding="utf-8")
    return lib_dir


def _add(data_dir: Path, folder: Path, options: JobOptions) -> dict[str, tuple[str, str | None, str | None]]:
    lib = Library(data_dir, {"video": fake_pipeline()[0]})
    try:
        job = lib.add(folder, options)
        return {Path(i.path).name: (i.status, i.error_code, i.error) for i in lib.items(job.id)}
    finally:
        lib.close()


def test_the_stream_is_read_with_its_language_and_as_text(folder: Path) -> None:
    (stream,) = subtitle_streams(folder / "Film.mkv")
    assert (stream.language, stream.text) == ("fr", True)


def test_a_french_text_stream_makes_the_video_done_for_french_only(folder: Path, data_dir: Path) -> None:
    french = _add(data_dir, folder, JobOptions(kind="video", target_lang="fr"))
    assert {name: (status, code) for name, (status, code, _) in french.items()} == {
        "Film.mkv": ("skipped", "embedded_subtitles"), "Other.mkv": ("skipped", "embedded_subtitles")}
    assert french["Film.mkv"][2] == "the video already carries French subtitles (stream #2, srt, text)"
    german = _add(data_dir, folder, JobOptions(kind="video", target_lang="de"))
    assert german == {"Film.mkv": ("pending", None, None),
                      "Other.mkv": ("skipped", "already_subtitled", "already subtitled (Other.de.srt)")}


def test_the_setting_off_leaves_embedded_streams_uncounted(folder: Path, data_dir: Path) -> None:
    off = _add(data_dir, folder, JobOptions(kind="video", target_lang="fr", embedded_subtitles=False))
    assert {name: status for name, (status, _, _) in off.items()} == {"Film.mkv": "pending", "Other.mkv": "pending"}


def test_the_setting_is_frozen_into_new_jobs_on_by_default() -> None:
    assert JobOptions.from_settings(Settings()).embedded_subtitles is True
    assert JobOptions.from_settings(Settings(embedded_subtitles=False)).embedded_subtitles is False
