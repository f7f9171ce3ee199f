"""One declaration per setting: validation, the CLI flag, the job snapshot, the placement and the README read it."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from app.cli import build_parser
from app.engine.config import EngineConfig
from app.engine.library import JobOptions
from app.engine.placement import POLICIES
from app.settings import OUTPUT_AFFECTING, SPECS, Settings, load_settings, settings_table

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_table_is_the_declarations() -> None:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"<!-- settings-table -->\n(.*?)\n<!-- /settings-table -->", text, re.S)
    assert found, "README.md lost its settings table markers"
    assert found.group(1) == settings_table(), "README's settings table differs: regenerate it from app.settings.settings_table()"


def test_existing_policy_is_declared_once_and_read_everywhere() -> None:
    spec = SPECS["existing_policy"]
    assert POLICIES == spec.values == ("skip", "overwrite", "keep_both")
    assert Settings().existing_policy == EngineConfig().existing_policy == JobOptions().existing_policy == spec.default
    add = build_parser()._subparsers._group_actions[0].choices["add"]  # type: ignore[union-attr]
    flag = next(a for a in add._actions if "--existing" in a.option_strings)
    assert tuple(flag.choices) == spec.values and flag.dest == "existing_policy"
    options = JobOptions.from_settings(Settings(), existing_policy=build_parser().parse_args(
        ["add", "x", "--existing", "keep_both"]).existing_policy)
    assert options.existing_policy == "keep_both"


def test_a_bad_value_falls_back_to_its_default_with_a_warning(tmp_path: Path, caplog) -> None:
    (tmp_path / "settings.json").write_text(json.dumps(
        {"existing_policy": "explode", "image_sidecar_json": "yes", "embedded_subtitles": False, "workers": 3}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="app.settings"):
        settings = load_settings(tmp_path)
    assert settings.existing_policy == "skip" and settings.image_sidecar_json is True
    assert settings.embedded_subtitles is False and settings.workers == 3  # good values are kept
    assert "existing_policy='explode'" in caplog.text and "image_sidecar_json='yes'" in caplog.text


def test_a_settings_file_that_holds_no_object_gives_defaults(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text("[1, 2]", encoding="utf-8")
    assert load_settings(tmp_path) == Settings()


def test_every_output_affecting_setting_is_frozen_into_the_job() -> None:
    frozen = JobOptions.from_settings(Settings(embedded_subtitles=False, existing_policy="overwrite",
                                               glossary=["ComfyUI"])).as_dict()
    assert set(OUTPUT_AFFECTING) <= set(frozen)
    assert frozen["glossary"] == [["ComfyUI", None]], "frozen in the job option's form, with the job's own terms"
    assert frozen["embedded_subtitles"] is False and frozen["existing_policy"] == "overwrite"
