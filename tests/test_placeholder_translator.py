"""The bundled Gemma 270M is a placeholder: its lines are mostly refused by the quality check.

It is no longer the default (the OPUS-MT package of each pair is, issue 34): it translates
only when chosen by name, and while new jobs would translate with it, ``doctor``, ``sidecar
add`` and ``sidecar models`` say so and name the way back; a translation server in the
settings or another chosen model silences them, in the order the translate stage picks its backend.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import app.pipelines  # noqa: F401 - registers the media kinds, as the CLI does
from app import doctor
from app.cli import main
from app.engine.job_options import JobOptions
from app.ml import catalogue, local_models, model_choice
from app.pipelines.video import BUNDLED_LLM, TranslateStage
from app.settings import Settings, save_settings

SERVER = "http://127.0.0.1:1234/v1"


def _chosen_gguf(tmp_path: Path, data_dir: Path) -> None:
    gguf = tmp_path / "q.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 64)
    local_models.models_register(data_dir, gguf, "translation", "my-qwen")
    model_choice.models_use(data_dir, "my-qwen")


def test_only_the_bundled_gemma_is_marked_a_placeholder() -> None:
    entries = catalogue.load_catalogue()
    assert [name for name, entry in entries.items() if entry.placeholder] == ["gemma3-270m"]
    assert entries["gemma3-270m"].is_bundled and entries["gemma3-270m"].role == "translation"
    assert "quality check" in entries["gemma3-270m"].description


def test_the_placeholder_is_in_use_exactly_when_the_translate_stage_would_use_the_bundled_model(
        tmp_path: Path, data_dir: Path) -> None:
    def backend(endpoint: str) -> str:
        return TranslateStage(data_dir).backend(JobOptions(translation_endpoint=endpoint)).identity

    assert model_choice.placeholder_in_use(data_dir) is None and backend("").startswith("opus-mt:"), \
        "by default the OPUS-MT package of each pair translates, not the placeholder"
    model_choice.models_use(data_dir, "gemma3-270m")  # chosen by name
    entry = model_choice.placeholder_in_use(data_dir)
    assert entry is not None and entry.name == "gemma3-270m" and backend("") == BUNDLED_LLM
    assert model_choice.placeholder_in_use(data_dir, SERVER) is None and backend(SERVER).startswith("endpoint:"), \
        "a translation server wins over every model"
    _chosen_gguf(tmp_path, data_dir)
    assert model_choice.placeholder_in_use(data_dir) is None and backend("") not in (BUNDLED_LLM,)
    model_choice.models_use(data_dir, "opus-mt")  # back to the default
    assert model_choice.active_model(data_dir, "translation") is None and backend("").startswith("opus-mt:")


def test_the_note_names_the_result_the_way_back_and_the_server(data_dir: Path) -> None:
    assert model_choice.placeholder_note(data_dir) is None
    model_choice.models_use(data_dir, "gemma3-270m")
    note = model_choice.placeholder_note(data_dir)
    assert note is not None
    assert "gemma3-270m" in note and "placeholder" in note and "translation_failed" in note
    assert "`sidecar models use opus-mt`" in note and "OpenAI-compatible" in note
    assert model_choice.placeholder_note(data_dir, SERVER) is None


def test_a_chosen_model_whose_file_vanished_is_not_blamed_on_the_placeholder(tmp_path: Path, data_dir: Path) -> None:
    _chosen_gguf(tmp_path, data_dir)
    (tmp_path / "q.gguf").unlink()
    assert model_choice.placeholder_in_use(data_dir) is None  # doctor reports the missing model instead


def test_doctor_says_translation_is_a_placeholder_and_a_server_wins(data_dir: Path) -> None:
    save_settings(data_dir, Settings(target_lang="de"))
    report = doctor.collect_report(data_dir, probe_models=False)
    assert report["translation"]["placeholder"] is None and report["translation"]["translators"] == []
    assert "translate-en-de" in report["translation"]["note"], "the exact download German subtitles need"
    assert "Translation  OPUS-MT — none installed" in doctor.format_report(report)
    model_choice.models_use(data_dir, "gemma3-270m")
    report = doctor.collect_report(data_dir, probe_models=False)
    assert report["translation"]["placeholder"] == "gemma3-270m" and report["translation"]["endpoint"] is None
    assert report["translation"]["note"] in report["notes"]
    assert json.loads(json.dumps(report)) == report
    text = doctor.format_report(report)
    assert "Translation  gemma3-270m: a PLACEHOLDER" in text
    gemma_line = next(line for line in text.splitlines() if "gemma3-270m" in line and "bundled" in line)
    assert gemma_line.endswith("installed, placeholder")

    save_settings(data_dir, Settings(translation_endpoint=SERVER))
    served = doctor.check_translation(data_dir)
    assert served == {"ok": True, "endpoint": SERVER, "placeholder": None, "translators": [], "note": None}
    text = doctor.format_report({**report, "translation": served})
    assert f"OpenAI-compatible server at {SERVER}" in text and "PLACEHOLDER" not in text


def test_add_logs_the_placeholder_for_translated_videos_only(tmp_path: Path, data_dir: Path,
                                                             capsys: pytest.CaptureFixture[str],
                                                             caplog: pytest.LogCaptureFixture) -> None:
    """The note is a logged warning (stderr), so the --json answer on stdout stays plain JSON."""
    save_settings(data_dir, Settings(target_lang="de"))
    for name in ("films", "photos", "served", "default"):
        (tmp_path / name).mkdir()
    assert main(["add", str(tmp_path / "default"), "--data-dir", str(data_dir), "--json"]) == 0
    assert "placeholder" not in caplog.text and "sidecar models install translate-en-de" in caplog.text, \
        "by default add names the exact translator German subtitles need"
    capsys.readouterr()
    caplog.clear()
    model_choice.models_use(data_dir, "gemma3-270m")
    assert main(["add", str(tmp_path / "films"), "--data-dir", str(data_dir), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["jobs"], "the --json answer stays plain JSON"
    assert "placeholder" in caplog.text and "sidecar models use opus-mt" in caplog.text
    caplog.clear()

    assert main(["add", str(tmp_path / "photos"), "--kind", "image", "--data-dir", str(data_dir)]) == 0
    assert "placeholder" not in caplog.text, "photos are not translated"

    save_settings(data_dir, Settings(target_lang="de", translation_endpoint=SERVER))
    assert main(["add", str(tmp_path / "served"), "--data-dir", str(data_dir)]) == 0
    assert "placeholder" not in caplog.text


def test_models_list_marks_the_placeholder_and_unverified_downloads(data_dir: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "list", "--data-dir", str(data_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line[2:].split()[0] for line in lines if "placeholder:" in line] == ["gemma3-270m"]
    assert "unverified" in next(line for line in lines if " translate-en-de " in line)
    assert "unverified" not in next(line for line in lines if " translate-zh-en " in line)  # its sha256 is known
    rows = {row["name"]: row for row in model_choice.models_list(data_dir)}
    assert rows["gemma3-270m"]["placeholder"] and not rows["qwen2.5-1.5b-instruct"]["placeholder"]
