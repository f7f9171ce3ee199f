"""The audio track Whisper hears, through the real pipeline and the real Whisper (issue 11.3).

Every generated file speaks a different sentence on each audio track, so the written
subtitles tell which track was transcribed. One library runs, in order:

1. a job choosing by rule: the default track over the first, the dialogue over a
   commentary (flagged ``comment``);
2. a job with the source language set to German over an English-default file with a
   German dub: the German track is heard;
3. a per-item choice of track 1 on an item of job 1 (what the queue's menu does): the
   item runs again and its subtitle now holds track 1's words, not job 1's cached ones;
4. ``sidecar add --audio-track 1`` on a copy of job 1's folder (job 1's subtitles would make
   it "already subtitled"): track 1 of every file.

``status --items --json`` shows each item's stream (``audio_stream``) and language.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from tests.media import AudioTrack, MediaFactory
from tests.video_jobs import folder_of, library, options, run_folder


def _status(data: Path) -> dict[tuple[int, str], dict[str, Any]]:
    """``{(job id, file name): item}`` from ``sidecar status --items --json``."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["status", "--items", "--json", "--data-dir", str(data)]) == 0
    jobs = json.loads(out.getvalue())["jobs"]
    return {(j["id"], Path(i["path"]).name): i for j in jobs for i in j["items"]}


def _srt(folder: Path, name: str, lang: str = "en") -> str:
    return (folder / f"{Path(name).stem}.{lang}.srt").read_text(encoding="utf-8").lower()


@pytest.fixture(scope="module")
def tracks(media: MediaFactory, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    clips = {
        "default second.mkv": media.audio_tracks(
            "default_second", AudioTrack("submarine", "eng"), AudioTrack("chocolate", "eng", "default")),
        "commentary first.mkv": media.audio_tracks(
            "commentary_first", AudioTrack("chocolate", "eng", "default+comment", "Commentary"),
            AudioTrack("submarine", "eng")),
    }
    dub = media.audio_tracks("dub", AudioTrack("submarine", "eng", "default"), AudioTrack("Milch", "ger", title="Deutsch"))
    root = tmp_path_factory.mktemp("audio-tracks")
    folder = folder_of(root / "films", clips)
    again = folder_of(root / "films again", clips)
    german = folder_of(root / "german", {"dub.mkv": dub})
    data = root / "data"
    seen: dict[str, Any] = {"folder": folder, "german": german, "data": data}
    lib = library(data)
    try:
        job = run_folder(lib, folder, "en")
        seen["by_rule"] = job
        seen["by_rule_srt"] = {name: _srt(folder, name) for name in clips}
        seen["by_rule_status"] = _status(data)
        lib_job = lib.add(german, options("de", source_lang="de"))
        lib.run_until_idle()
        seen["dub"] = lib.status(lib_job.id)[0]
        seen["dub_srt"] = _srt(german, "dub.mkv", "de")
        seen["dub_status"] = _status(data)
        item = next(i for i in lib.items(job.id) if Path(i.path).name == "default second.mkv")
        lib.set_item_option(item.id, "audio_track", 1)
        seen["replanned"] = lib.items(job.id)
        lib.run_until_idle()
        seen["override"] = lib.status(job.id)[0]
        seen["override_srt"] = _srt(folder, "default second.mkv")
        seen["override_status"] = _status(data)
        assert main(["add", str(again), "--audio-track", "1", "--target-lang", "en", "--data-dir", str(data)]) == 0
        lib.wake()
        lib.run_until_idle()
        seen["cli_job"] = lib.status()[-1]
        seen["cli_srt"] = {name: _srt(again, name) for name in clips}
        seen["cli_status"] = _status(data)
    finally:
        lib.close()
    return seen


def test_the_default_track_is_heard_and_a_commentary_is_not(tracks: dict[str, Any]) -> None:
    job = tracks["by_rule"]
    assert (job.status, job.done, job.failed) == ("completed", 2, 0)
    srt = tracks["by_rule_srt"]
    assert "chocolate" in srt["default second.mkv"] and "submarine" not in srt["default second.mkv"]
    assert "submarine" in srt["commentary first.mkv"] and "chocolate" not in srt["commentary first.mkv"]
    status = tracks["by_rule_status"]
    assert status[(job.id, "commentary first.mkv")]["audio_stream"] == {
        "index": 2, "track": 2, "language": "eng", "title": None, "reason": "first", "tracks": 2}
    assert status[(job.id, "default second.mkv")]["audio_stream"]["reason"] == "default"
    item = status[(job.id, "default second.mkv")]
    assert item["language"] == "en" and 0.5 < item["language_probability"] <= 1.0


def test_the_source_language_chooses_the_dub_in_that_language(tracks: dict[str, Any]) -> None:
    job = tracks["dub"]
    assert (job.status, job.done, job.failed) == ("completed", 1, 0)
    assert "milch" in tracks["dub_srt"] and "submarine" not in tracks["dub_srt"]
    item = tracks["dub_status"][(job.id, "dub.mkv")]
    assert item["audio_stream"]["track"] == 2 and item["audio_stream"]["reason"] == "language"
    assert item["audio_stream"]["title"] == "Deutsch" and item["audio_stream"]["language"] == "ger"
    assert (item["language"], item["language_probability"]) == ("de", 1.0)


def test_a_per_item_choice_runs_the_item_again_on_that_track(tracks: dict[str, Any]) -> None:
    replanned = {Path(i.path).name: i for i in tracks["replanned"]}
    # Started over, not served job 1's cached result; the running library's worker may already have it.
    assert replanned["default second.mkv"].status in {"pending", "running"}
    assert replanned["commentary first.mkv"].status == "completed"  # the other item is untouched
    job = tracks["override"]
    assert (job.status, job.done, job.failed) == ("completed", 2, 0)
    assert "submarine" in tracks["override_srt"] and "chocolate" not in tracks["override_srt"]
    item = tracks["override_status"][(job.id, "default second.mkv")]
    assert item["audio_stream"]["track"] == 1 and item["audio_stream"]["reason"] == "chosen"


def test_sidecar_add_audio_track_transcribes_that_track_of_every_file(tracks: dict[str, Any]) -> None:
    job = tracks["cli_job"]
    assert (job.status, job.done, job.failed) == ("completed", 2, 0)
    srt = tracks["cli_srt"]
    assert "submarine" in srt["default second.mkv"]
    assert "chocolate" in srt["commentary first.mkv"] and "submarine" not in srt["commentary first.mkv"]
    status = tracks["cli_status"]
    assert {status[(job.id, n)]["audio_stream"]["track"] for n in srt} == {1}
    assert {status[(job.id, n)]["audio_stream"]["reason"] for n in srt} == {"chosen"}
