"""The glossary as an option: given on the command line or in a file, merged with Settings, frozen with the job,
and part of the transcription's fingerprint only when there is one (so it re-runs what it affects, nothing else)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import app.pipelines  # noqa: F401 - registers the media kinds, as the CLI does
from app.cli import main
from app.engine.job_options import JobOptions
from app.engine.plan import stage_fingerprints
from app.pipelines import default_pipelines
from app.settings import Settings, load_settings, save_settings
from app.paths import database_path
from app.store import Store


def _job_options(data_dir: Path) -> dict[str, object]:
    store = Store(database_path(data_dir))
    try:
        (job,) = store.jobs.summaries()
        return job.options
    finally:
        store.close()


def test_add_freezes_the_command_line_and_file_terms_over_the_library_list(tmp_path: Path, data_dir: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    save_settings(data_dir, Settings(target_lang="de", glossary=["ComfyUI", "Bahnhof = train station"]))
    terms = tmp_path / "names.txt"
    terms.write_text("\ufeff# the series\nJon Snow = Jon Schnee\n\nWinterfell\n", encoding="utf-8")  # a BOM, as Notepad writes
    (tmp_path / "films").mkdir()
    code = main(["add", str(tmp_path / "films"), "--glossary", "Bahnhof=Hauptbahnhof", "--glossary", "Jon Snow",
                 "--glossary-file", str(terms), "--data-dir", str(data_dir), "--json"])
    assert code == 0, capsys.readouterr().err
    assert _job_options(data_dir)["glossary"] == [["Bahnhof", "Hauptbahnhof"], ["ComfyUI", None], ["Jon Snow", None],
                                                  ["Winterfell", None]], "a job's own term wins, the command line last"
    assert load_settings(data_dir).glossary == ["ComfyUI", "Bahnhof = train station"], "the library list is left alone"


def test_no_glossary_leaves_the_option_out_and_an_unreadable_file_is_refused(tmp_path: Path, data_dir: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "films").mkdir()
    missing = tmp_path / "nowhere.txt"
    assert main(["add", str(tmp_path / "films"), "--glossary-file", str(missing), "--data-dir", str(data_dir)]) == 2
    assert "glossary_unreadable" in capsys.readouterr().err
    assert main(["add", str(tmp_path / "films"), "--data-dir", str(data_dir), "--json"]) == 0
    assert "glossary" not in _job_options(data_dir)


def test_the_glossary_changes_the_fingerprints_from_transcription_on_and_only_its_terms_do(data_dir: Path) -> None:
    stages = default_pipelines(data_dir, Settings(target_lang="de")).get("video").stages
    names = [stage.name for stage in stages]
    base = {"target_lang": "de", "source_lang": "", "naming": "media-server"}

    def fingerprints(**stored: object) -> dict[str, str]:
        return dict(zip(names, stage_fingerprints(stages, JobOptions.from_stored({**base, **stored}), "/films/a.mkv")))

    without = fingerprints()
    comfy = fingerprints(glossary=[["ComfyUI", None]])
    rendered = fingerprints(glossary=[["ComfyUI", "Comfy-Oberfläche"]])
    empty = fingerprints(glossary=[])
    assert empty == without, "an empty glossary plans as a job without one: earlier transcripts are reused"
    assert comfy["extract_audio"] == without["extract_audio"], "decoding the audio does not depend on the glossary"
    assert all(comfy[name] != without[name] for name in names[names.index("transcribe"):])
    assert rendered["transcribe"] == comfy["transcribe"], "Whisper hears the terms, never their renderings"
    transcribe = next(stage for stage in stages if stage.name == "transcribe")
    assert transcribe.fingerprint(JobOptions.from_stored({**base, "glossary": [["b", None], ["ComfyUI", "x"]]}))["hotwords"] \
        == "b, ComfyUI"
