"""One declaration per setting: validation, the CLI flag, the job snapshot, the placement and the README read it."""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from pathlib import Path

import pytest

from app.cli import build_parser
from app.codes import Code
from app.doctor import check_settings
from app.engine.job_options import JobOptions
from app.engine.placement import POLICIES
from app.pipelines.video import TranslateStage
from app.settings import (OUTPUT_AFFECTING, SPECS, BadSetting, Holds, Settings, load_settings, pair_lines, pair_rows,
                          read_settings, settings_table)

README = Path(__file__).resolve().parents[1] / "README.md"
MEMORY = {"tray_notice_shown", "welcome_dismissed", "paused_until", "working_until"}
"""Sidecar's own memory in settings.json: no label, no widget, no flag."""


def _add_flags() -> dict[str, object]:
    add = build_parser()._subparsers._group_actions[0].choices["add"]  # type: ignore[union-attr]
    return {option: action for action in add._actions for option in action.option_strings}


def test_readme_table_is_the_declarations() -> None:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"<!-- settings-table -->\n(.*?)\n<!-- /settings-table -->", text, re.S)
    assert found, "README.md lost its settings table markers"
    assert found.group(1) == settings_table(), "README's settings table differs: regenerate it from app.settings.settings_table()"
    assert all(f"| `{name}`" in found.group(1) for name in SPECS)


def test_every_setting_is_declared() -> None:
    """A new field of Settings without ``setting(...)`` fails here (unless it is Sidecar's own memory)."""
    assert {f.name for f in dataclasses.fields(Settings)} - set(SPECS) == MEMORY
    for spec in SPECS.values():
        assert spec.label and spec.help, spec.name
        assert spec.check(spec.default), f"{spec.name}'s default is not a value it takes"


def test_existing_policy_is_declared_once_and_read_everywhere() -> None:
    spec = SPECS["existing_policy"]
    assert POLICIES == spec.values == ("skip", "overwrite", "keep_both")
    assert Settings().existing_policy == JobOptions().existing_policy == spec.default
    flag = _add_flags()["--existing"]
    assert tuple(flag.choices) == spec.values and flag.dest == "existing_policy"  # type: ignore[attr-defined]
    options = JobOptions.from_settings(Settings(), existing_policy=build_parser().parse_args(
        ["add", "x", "--existing", "keep_both"]).existing_policy)
    assert options.existing_policy == "keep_both"


def test_cli_flags_come_from_the_declarations() -> None:
    flags = _add_flags()
    declared = {spec.cli: spec for spec in SPECS.values() if spec.cli}
    assert {"--target-lang", "--source-lang", "--naming", "--existing", "--glossary", "--embedded-subtitles"} <= set(declared)
    for option, spec in declared.items():
        assert flags[option].dest == spec.name, option  # type: ignore[attr-defined]
        assert spec.name in OUTPUT_AFFECTING, f"{option}: a flag overrides a setting the job freezes"
    assert "--no-embedded-subtitles" in flags, "a yes/no setting gets both flags"
    args = build_parser().parse_args(["add", "x", "--target-lang", "DE", "--source-lang", "ja", "--no-embedded-subtitles",
                                      "--glossary", "Jon Snow = Jon Schnee", "--glossary", "ComfyUI"])
    assert (args.target_lang, args.source_lang, args.embedded_subtitles, args.naming) == ("de", "ja", False, None)
    assert args.glossary == ["Jon Snow = Jon Schnee", "ComfyUI"]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["add", "x", "--target-lang", "German!"])


def test_an_empty_target_language_means_transcripts_only(tmp_path: Path) -> None:
    """``--target-lang ""`` (the dialog's "Don't translate"): the job freezes no target, so its translate stage skips
    itself and only the transcript is written (what whisper-ctranslate2 writes, which the speed benches compare)."""
    args = build_parser().parse_args(["add", "x", "--target-lang", ""])
    options = JobOptions.from_settings(Settings(), target_lang=args.target_lang)
    assert options.target_lang == "" and SPECS["target_lang"].check("")
    assert TranslateStage(tmp_path).model_spec(options) is None, "no translation model is loaded"


def test_a_bad_value_gives_the_typed_code_and_falls_back_to_its_default(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "settings.json").write_text(json.dumps(
        {"existing_policy": "explode", "image_sidecar_json": "yes", "embedded_subtitles": False, "workers": 3,
         "stall_seconds": 5, "glossary": ["ok", 7], "target_lang": "German!", "watch_quiet_seconds": 2,
         "paused_until": "soon", "translation_endpoint_model": "qwen", "a_newer_sidecars_setting": 1}), encoding="utf-8")
    settings, bad = read_settings(tmp_path)
    assert {b.name for b in bad} == {"existing_policy", "image_sidecar_json", "stall_seconds", "glossary", "target_lang",
                                     "paused_until"}
    assert {b.code for b in bad} == {Code.INVALID_SETTING} and BadSetting("workers", 0).code == "invalid_setting"
    assert settings.existing_policy == "skip" and settings.image_sidecar_json is True and settings.stall_seconds == 60
    assert settings.embedded_subtitles is False and settings.workers == 3 and settings.watch_quiet_seconds == 2
    assert settings.translation_endpoint_model == "qwen" and settings.glossary == [] and settings.paused_until == 0.0
    with caplog.at_level(logging.WARNING, logger="app.settings"):
        load_settings(tmp_path)
    assert "existing_policy='explode'" in caplog.text and "(invalid_setting)" in caplog.text


def test_a_settings_file_that_holds_no_object_gives_defaults(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text("[1, 2]", encoding="utf-8")
    assert load_settings(tmp_path) == Settings()


def test_every_output_affecting_setting_is_frozen_into_the_job() -> None:
    frozen = JobOptions.from_settings(Settings(embedded_subtitles=False, existing_policy="overwrite",
                                               glossary=["ComfyUI"], source_lang="ja")).stored()
    assert set(OUTPUT_AFFECTING) <= set(frozen)
    assert frozen["glossary"] == [["ComfyUI", None]], "frozen in the job option's form, with the job's own terms"
    assert frozen["embedded_subtitles"] is False and frozen["existing_policy"] == "overwrite" and frozen["source_lang"] == "ja"
    flagged = JobOptions.from_settings(Settings(), naming="compat", embedded_subtitles=None).stored()
    assert flagged["naming"] == "compat" and flagged["embedded_subtitles"] is True, "an unset flag keeps the setting"


def test_pairs_are_kept_as_the_glossary_lines_they_edit() -> None:
    lines = ["ComfyUI", "Jon Snow = Jon Schnee", "# a comment", ""]
    assert pair_rows(lines) == [("ComfyUI", ""), ("Jon Snow", "Jon Schnee")]
    assert pair_lines(pair_rows(lines)) == ["ComfyUI", "Jon Snow = Jon Schnee"]
    assert SPECS["glossary"].holds is Holds.PAIRS


def test_doctor_names_each_bad_value_with_its_code(tmp_path: Path) -> None:
    assert check_settings(tmp_path) == {"ok": True, "invalid": []}
    (tmp_path / "settings.json").write_text(json.dumps({"on_battery": "sometimes", "workers": 2}), encoding="utf-8")
    found = check_settings(tmp_path)
    assert found["ok"] is False and json.loads(json.dumps(found["invalid"])) == [
        {"setting": "on_battery", "value": "sometimes", "default": "pause", "code": "invalid_setting"}]
    assert "on_battery='sometimes' is not a value it takes (invalid_setting)" in found["error"]
