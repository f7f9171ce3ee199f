"""The video stages' fingerprints and model specs: what re-runs when a setting changes, what shares a model.

No model is loaded here: specs and fingerprints are decided from settings alone.
"""

from __future__ import annotations

from pathlib import Path

from app.engine.job_options import JobOptions
from app.engine.plan import stage_fingerprints
from app.ml.index_models import TEXT_EMBEDDING_SPEC
from app.ml.llm_runtime import smollm2_path
from app.ml.local_models import models_register
from app.ml.model_choice import models_use
from app.pipelines import default_pipelines
from app.pipelines.outputs import TRANSLATION_DOUBTFUL, TRANSLATION_FAILED, TRANSLATION_FALLBACK, TranslationOutput
from app.pipelines.video import video_pipeline
from app.settings import Settings

STAGES = ["extract_audio", "transcribe", "translate", "render", "place", "index_dialogue"]
BASE = {"target_lang": "de", "naming": "media-server", "source_lang": ""}


def _options(**changes: object) -> JobOptions:
    """A job's options as the store holds them (``changes`` in stored form, as an item's own choices are)."""
    return JobOptions.from_stored({**BASE, **changes})


def _fps(data_dir: Path, path: str = "/m/a.mp4", **options: object) -> dict[str, str]:
    pipeline = video_pipeline(data_dir, Settings())
    return dict(zip(STAGES, stage_fingerprints(pipeline.stages, _options(**options), path)))


def _changed(a: dict[str, str], b: dict[str, str]) -> list[str]:
    return [name for name in STAGES if a[name] != b[name]]


def test_video_is_a_default_pipeline_in_stage_order(data_dir: Path) -> None:
    pipeline = default_pipelines(data_dir, Settings())["video"]
    assert [s.name for s in pipeline.stages] == STAGES
    assert [s.durable for s in pipeline.stages] == [False, True, True, True, True, True]  # audio lives in the workspace
    assert [getattr(s, "per_path", False) for s in pipeline.stages] == [False, False, False, False, True, True]


def test_equal_settings_give_equal_model_specs_so_a_group_shares_one_process(data_dir: Path) -> None:
    models_use(data_dir, "gemma3-270m")  # a gated LLM translator (the default OPUS-MT route has no spec before run)
    one, two = video_pipeline(data_dir, Settings()), video_pipeline(data_dir, Settings(target_lang="ja"))
    for idx, options in ((1, (JobOptions(), _options())), (2, (_options(), JobOptions(target_lang="ja")))):
        specs = {s.model_spec(o).key for s in (one.stages[idx], two.stages[idx])
                 for o in (*options, _options(target_lang="fr", naming="compat"))}
        assert len(specs) == 1, specs
    # Transcripts only: translation skips itself without a model, so it is no model stage
    # waiting behind its group's transcriptions, and each transcript is placed when it is ready.
    assert one.stages[2].model_spec(_options(target_lang="")) is None
    # Subtitles first, index after: placing needs no model, so it never waits for the model slot;
    # the dialogue index after it holds e5.
    assert [s.model_spec(_options()) is None for s in one.stages] == [True, False, False, True, True, False]
    assert one.stages[5].model_spec(_options()) == TEXT_EMBEDDING_SPEC
    models_use(data_dir, "opus-mt")
    assert one.stages[2].model_spec(_options()) is None, "an OPUS-MT route is known only once the transcript names its language"


def test_a_translation_endpoint_needs_no_gpu_gate_and_changes_only_translation(data_dir: Path) -> None:
    endpoint = {"translation_endpoint": "http://127.0.0.1:8080/v1", "translation_endpoint_model": "qwen"}
    stage = video_pipeline(data_dir, Settings()).stages[2]
    assert stage.model_spec(_options(**endpoint)) is None
    assert _changed(_fps(data_dir), _fps(data_dir, **endpoint)) == ["translate", "render", "place", "index_dialogue"]


def test_another_translation_model_re_translates_without_transcribing_again(data_dir: Path) -> None:
    before = _fps(data_dir)
    models_register(data_dir, smollm2_path(), "translation", "smollm2-local")
    models_use(data_dir, "smollm2-local")
    assert _changed(before, _fps(data_dir)) == ["translate", "render", "place", "index_dialogue"]
    spec = video_pipeline(data_dir, Settings()).stages[2].model_spec(_options())
    assert spec is not None and dict(spec.params)["model_path"] == str(smollm2_path())


def test_each_setting_changes_the_stages_it_affects(data_dir: Path) -> None:
    base = _fps(data_dir)
    assert _changed(base, _fps(data_dir, target_lang="fr")) == ["translate", "render", "place", "index_dialogue"]
    assert _changed(base, _fps(data_dir, naming="compat")) == ["place", "index_dialogue"]
    # The source language can choose another audio stream (a dub in that language), so extraction is redone too.
    assert _changed(base, _fps(data_dir, source_lang="en")) == STAGES
    assert _changed(base, _fps(data_dir, audio_track=2)) == STAGES  # another stream: no cached transcript fits
    assert _changed(base, _fps(data_dir, audio_track=0)) == []  # 0 is "choose by rule", like no choice at all
    assert _changed(base, _fps(data_dir, path="/m/b.mp4")) == ["place", "index_dialogue"]  # only placing and its index depend on the path


def test_a_translation_is_left_out_only_when_more_than_half_its_cues_kept_their_text() -> None:
    def translation(cues: int, fallback: list[int]) -> TranslationOutput:
        return TranslationOutput(skipped=False, texts=["line"] * cues, fallback=fallback)

    assert not translation(4, [0, 3]).failed  # half translated: written, two lines listed
    assert translation(4, [0, 1, 3]).failed
    assert translation(1, [0]).failed
    assert not translation(10, []).failed
    assert not TranslationOutput(skipped=True, texts=["line"], fallback=[0]).failed  # same language: no translation


def test_a_tenth_to_a_half_untranslated_is_doubtful_and_each_cue_keeps_its_reason() -> None:
    def translation(cues: int, fallback: list[int]) -> TranslationOutput:
        return TranslationOutput(skipped=False, texts=["line"] * cues, fallback=fallback,
                                 reasons={str(i): "repeated" for i in fallback})

    assert translation(20, []).result is None
    assert translation(20, [3]).result == TRANSLATION_FALLBACK  # 5 %
    assert translation(20, [3, 9]).result == TRANSLATION_DOUBTFUL  # 10 %
    assert translation(20, list(range(10))).result == TRANSLATION_DOUBTFUL  # half: still written
    assert translation(20, list(range(11))).result == TRANSLATION_FAILED
    assert TranslationOutput(skipped=True, texts=["line"], fallback=[0]).result is None
    assert translation(20, [3, 9]).untranslated_detail() == {"untranslated_cues": [4, 10], "cues": 20,
                                                             "reasons": {"4": "repeated", "10": "repeated"}}


def test_a_glossary_changes_the_translation_not_the_audio(data_dir: Path) -> None:
    base = _fps(data_dir)
    changed = _changed(base, _fps(data_dir, glossary=[["ComfyUI", None]]))
    assert {"translate", "render", "place"} <= set(changed) and "extract_audio" not in changed
    other = _changed(_fps(data_dir, glossary=[["ComfyUI", None]]), _fps(data_dir, glossary=[["ComfyUI", "Comfy"]]))
    assert "translate" in other
