"""Job options are one typed record: one field per option, the settings' with their declared defaults,
stored as the JSON object jobs always kept, and a name nobody declared is refused where it comes in."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from app.engine.job_options import SETTING, JobOptions
from app.engine.library import Library
from app.errors import Code, SidecarError
from app.media.glossary import GlossaryEntry
from app.settings import OUTPUT_AFFECTING, Settings
from tests.engine_stages import fake_pipeline, make_media

#: A job as Sidecar stored it before glossaries, speaker labels, WebVTT and frozen servers existed.
OLD_JOB = {"kind": "video", "top_level": True, "target_lang": "de", "naming": "compat", "existing_policy": "keep_both",
           "source_lang": "ja", "image_sidecar_json": False, "embedded_subtitles": True, "models": {"asr": None}}


def test_every_output_affecting_setting_is_a_field_of_the_same_name_type_and_default() -> None:
    fields = {f.name: f for f in dataclasses.fields(JobOptions)}
    settings = {f.name: f for f in dataclasses.fields(Settings)}
    frozen = {name for name, f in fields.items() if f.metadata.get(SETTING) == name}
    assert frozen == set(OUTPUT_AFFECTING), "an output-affecting setting that is no job option is never frozen"
    for name in OUTPUT_AFFECTING:
        if name != "glossary":  # the settings' lines are frozen parsed, as entries
            assert fields[name].type == settings[name].type, name
    assert JobOptions() == JobOptions.from_settings(Settings()), "a job made from default settings has other defaults"
    assert JobOptions().target_lang == Settings().target_lang, "target_lang has one default: the system's language"


def test_a_job_reads_back_every_option_it_stored() -> None:
    options = JobOptions(source_lang="ja", target_lang="de", naming="compat", existing_policy="overwrite",
                         image_sidecar_json=False, embedded_subtitles=False, subtitle_profile="custom",
                         custom_line_chars=30, custom_cps=12, webvtt=True, keep_sound_tags=False, speakers="3",
                         translation_endpoint="http://127.0.0.1:1/v1", translation_endpoint_model="m",
                         glossary=(GlossaryEntry("Bahnhof", "station"), GlossaryEntry("ComfyUI")), kind="video",
                         top_level=True, redo=True, audio_track=2, models={"translation": None}, request=True)
    stored = json.loads(json.dumps(options.stored()))  # through JSON, as the database keeps it
    assert JobOptions.from_stored(stored) == dataclasses.replace(options, left_out=JobOptions().left_out)
    assert "left_out" not in stored, "the scan's rule is no stage option"
    assert stored["glossary"] == [["Bahnhof", "station"], ["ComfyUI", None]]


def test_options_left_at_their_default_are_stored_as_before() -> None:
    stored = JobOptions().stored()
    assert set(stored) == {"kind", "top_level", *OUTPUT_AFFECTING} - {"glossary"}, \
        "a job without a glossary, track, redo or frozen models stores none (its fingerprints stay the earlier ones)"


def test_an_old_job_loads_with_the_defaults_of_the_options_it_never_stored() -> None:
    loaded = JobOptions.from_stored({**OLD_JOB, "a_newer_sidecars_option": 1})
    assert (loaded.kind, loaded.top_level, loaded.target_lang, loaded.naming) == ("video", True, "de", "compat")
    assert loaded.existing_policy == "keep_both" and loaded.source_lang == "ja" and loaded.models == {"asr": None}
    assert not loaded.image_sidecar_json
    assert (loaded.webvtt, loaded.speakers, loaded.glossary, loaded.audio_track, loaded.redo) == (False, "off", (), None, False)
    assert loaded.translation_endpoint == "" and loaded.subtitle_profile == "netflix" and loaded.custom_cps == 17


def test_a_stored_value_its_option_does_not_take_falls_back_to_the_default() -> None:
    loaded = JobOptions.from_stored({"naming": "nope", "custom_cps": "fast", "custom_line_chars": 0, "speakers": 9,
                                     "glossary": 3, "audio_track": "second", "target_lang": "fr"})
    assert (loaded.naming, loaded.custom_cps, loaded.custom_line_chars) == ("media-server", 17, 42)
    assert (loaded.speakers, loaded.glossary, loaded.audio_track, loaded.target_lang) == ("off", (), None, "fr")
    assert JobOptions.from_stored({"audio_track": 0}).audio_track is None, "track 0 is the queue's 'choose by rule'"


def test_an_item_choice_overrides_its_jobs_option() -> None:
    job = JobOptions.from_stored(OLD_JOB)
    item = job.with_overrides({"audio_track": 2, "translation_endpoint": "http://127.0.0.1:1/v1"})
    assert (item.audio_track, item.translation_endpoint, item.target_lang) == (2, "http://127.0.0.1:1/v1", "de")


def test_a_name_that_is_no_option_is_refused_where_it_comes_in() -> None:
    with pytest.raises(SidecarError) as flag:
        JobOptions.from_settings(Settings(), speaker_count=3)
    assert flag.value.code == Code.INVALID_ARGUMENT and "speaker_count" in flag.value.message
    with pytest.raises(SidecarError) as choice:
        JobOptions().with_overrides({"audio_trak": 2})
    assert choice.value.code == Code.INVALID_ARGUMENT
    with pytest.raises(SidecarError):
        JobOptions().with_overrides({"left_out": ["*"]})  # never stored, so no item can choose it


def test_the_settings_flags_and_the_jobs_terms_are_frozen_over_the_settings() -> None:
    settings = Settings(target_lang="fr", glossary=["Bahnhof = gare", "ComfyUI"], speakers="auto")
    options = JobOptions.from_settings(settings, "video", redo=True, audio_track=2, naming="compat", webvtt=None,
                                       glossary_entries=[GlossaryEntry("Bahnhof", "station")])
    assert (options.target_lang, options.speakers, options.naming, options.webvtt) == ("fr", "auto", "compat", False)
    assert (options.kind, options.redo, options.audio_track) == ("video", True, 2)
    assert set(options.glossary) == {GlossaryEntry("Bahnhof", "station"), GlossaryEntry("ComfyUI")}, "the job's rendering wins"


def test_an_item_option_nobody_declared_is_refused_and_nothing_is_planned_again(
        data_dir: Path, tmp_path: Path, fast_config) -> None:  # type: ignore[no-untyped-def]
    make_media(tmp_path / "lib", 1)
    lib = Library(data_dir, {"video": fake_pipeline()[0]}, fast_config)
    try:
        job = lib.add(tmp_path / "lib", JobOptions(target_lang="en"))
        (item,) = lib.items(job.id)
        with pytest.raises(SidecarError) as refused:
            lib.set_item_option(item.id, "audio_trak", 2)
        assert refused.value.code == Code.INVALID_ARGUMENT
        assert lib.item_source(item.id).overrides == {}, "the misspelt choice was stored"
        lib.set_item_option(item.id, "audio_track", 2)
        assert lib.item_source(item.id).overrides == {"audio_track": 2}
    finally:
        lib.close()
