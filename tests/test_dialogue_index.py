"""Dialogue search: cues of a real subtitle file are found by a phrase, with the time to open the video at."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Mapping

import pysubs2
import pytest

from app.engine.config import EngineConfig
from app.engine.job_options import JobOptions
from app.engine.library import Library
from app.engine.stage import Pipeline, StageContext, StageOutput
from app.errors import SidecarError
from app.media.cues import Cue, cues_to_dicts
from app.ml.host import ModelHost
from app.ml.index_models import TEXT_EMBEDDING_SPEC
from app.ml.spec import ModelSpec
from app.engine.dialogue_index import index_dialogue
from app.pipelines.outputs import RenderOutput, TranscriptOutput, TranslationOutput
from app.pipelines.video import video_pipeline
from app.settings import Settings
from app.store.search_writes import SearchIndexWriter
from tests.engine_stages import fake_pipeline, make_media, process

LINES_EN = [
    (1.0, 3.5, "Good morning, captain."),
    (4.0, 7.25, "The treasure is buried under the old oak tree."),
    (8.0, 10.0, "We sail at dawn."),
]
LINES_ZH = [(1.0, 3.5, "早上好，船长。"), (4.0, 7.25, "宝藏埋在老橡树下。"), (8.0, 10.0, "我们黎明出发。")]


def write_srt(path: Path, lines: list[tuple[float, float, str]]) -> Path:
    subs = pysubs2.SSAFile()
    for start, end, line in lines:
        subs.append(pysubs2.SSAEvent(start=pysubs2.make_time(s=start), end=pysubs2.make_time(s=end), text=line))
    subs.save(str(path))
    return path


def read_cues(path: Path, lang: str) -> list[tuple[float, float, str, str]]:
    return [(e.start / 1000, e.end / 1000, e.plaintext, lang) for e in pysubs2.load(str(path)) if not e.is_comment]


@pytest.fixture(scope="module")
def e5() -> ModelHost:
    host = ModelHost(TEXT_EMBEDDING_SPEC)
    yield host
    host.close()


def test_a_spoken_phrase_finds_its_cue_with_start_time(tmp_path, data_dir, fast_config, e5) -> None:
    (video,) = make_media(tmp_path / "videos", 1, prefix="voyage")
    subs_dir = tmp_path / "subs"  # elsewhere, so the video is not "already subtitled"
    subs_dir.mkdir()
    en = read_cues(write_srt(subs_dir / "voyage.en.srt", LINES_EN), "en")
    zh = read_cues(write_srt(subs_dir / "voyage.zh.srt", LINES_ZH), "zh")
    pipeline, _ = fake_pipeline()
    lib = Library(data_dir, {"video": pipeline}, fast_config)
    try:
        lib.add(tmp_path / "videos", JobOptions(kind="video"))
        lib.start()
        lib.run_until_idle()  # the item hashes its content: only then is it the path's current content
        sha = hashlib.sha256(video.read_bytes()).hexdigest()
        embed = lambda texts: e5.call("embed_passages", list(texts))  # noqa: E731 - the hosted e5
        assert index_dialogue(SearchIndexWriter(lib.store.db.write), video, sha, en + zh, embed) == 6

        hits = lib.search("buried treasure oak tree", kind="dialogue")
        assert hits[0].path == str(video) and hits[0].kind == "dialogue"
        assert hits[0].start == 4.0
        assert "oak" in hits[0].snippet or "橡树" in hits[0].snippet

        chinese = lib.search("黎明", kind="dialogue")
        assert chinese[0].start == 8.0

        assert lib.search("buried treasure oak tree", kind="image") == []
        assert lib.search("captain", kind="all")[0].start == 1.0

        # Re-indexing a language replaces it and keeps the other one.
        index_dialogue(SearchIndexWriter(lib.store.db.write), video, sha, [(20.0, 22.0, "The ship has sunk.", "en")], embed)
        assert lib.search("ship has sunk", kind="dialogue")[0].start == 20.0
        assert not any("oak" in h.snippet for h in lib.search("oak tree", kind="dialogue"))
        # the Chinese line, by its own word: "oak tree" → 宝藏埋在老橡树下 (0.78) is below the e5 floor
        kept = lib.search("橡树", kind="dialogue")
        assert kept and kept[0].start == 4.0 and "[橡树]" in kept[0].snippet
    finally:
        lib.close()


def test_search_refuses_an_unknown_kind_or_an_empty_query(data_dir, fast_config) -> None:
    lib = Library(data_dir, {}, fast_config)
    try:
        for kwargs in ({"query": "x", "kind": "videos"}, {"query": "   "}, {"query": None}):
            with pytest.raises(SidecarError) as err:
                lib.search(**kwargs)
            assert err.value.code == "invalid_argument"
    finally:
        lib.close()


class Canned:
    """Stands in for an earlier video stage with a fixed output, so the real ``place`` runs alone."""

    durable = True

    def __init__(self, name: str, output: StageOutput) -> None:
        self.name, self.output, self.output_type = name, output, type(output)

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return {"v": 1}

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return None

    def run(self, ctx: StageContext) -> StageOutput:
        return self.output


class RecordsModels:
    """The real stage, remembering which models it asked the engine for."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.asked = inner, set()
        self.name, self.durable, self.per_path = inner.name, inner.durable, getattr(inner, "per_path", False)
        self.output_type = inner.output_type

    def fingerprint(self, options: JobOptions) -> Mapping[str, Any]:
        return self.inner.fingerprint(options)

    def model_spec(self, options: JobOptions) -> ModelSpec | None:
        return self.inner.model_spec(options)

    def run(self, ctx: StageContext) -> StageOutput:
        try:
            return self.inner.run(ctx)
        finally:
            self.asked |= ctx.models_in_use


def test_index_dialogue_declares_the_e5_model_it_indexes_dialogue_with(data_dir: Path, tmp_path: Path,
                                                                      fast_config: EngineConfig) -> None:
    """Every model a stage asks for is its declared one, so the GPU gate admits it and never ends it mid-call;
    ``place`` asks for none (the subtitle is written before any model for search is loaded)."""
    cues = [Cue(0, 1500, "The treasure is under the oak."), Cue(2000, 3000, "We sail at dawn.")]
    stages = video_pipeline(data_dir, Settings()).stages
    place, index = RecordsModels(stages[4]), RecordsModels(stages[5])
    pipeline = Pipeline("video", [
        Canned("transcribe", TranscriptOutput(language="en", cues=cues_to_dicts(cues))),
        Canned("translate", TranslationOutput()),
        Canned("render", RenderOutput({"transcript": "1\n"}, source_lang="en")),
        place,
        index,
    ])
    make_media(tmp_path / "videos", 1)
    out = process(Library(data_dir, {"video": pipeline}, fast_config), tmp_path / "videos", JobOptions(kind="video"))
    assert (out.summary.status, out.summary.done) == ("completed", 1)
    assert place.asked == set(), "place wrote the subtitles without a model"
    assert index.asked == {TEXT_EMBEDDING_SPEC.key}, "index_dialogue embedded the dialogue with e5"
    assert index.model_spec(JobOptions()) == TEXT_EMBEDDING_SPEC and place.model_spec(JobOptions()) is None, "and declared it"
