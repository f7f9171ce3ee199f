"""The translate stage with its quality estimate: scripted server answers, real e5 host, real language identifier.

The stage reaches a scripted OpenAI-compatible server over HTTP (tests/model_server.py) as it
reaches any server in the settings; its answers are real human German (Tatoeba) or the real
failures of translators: English left as it was, every line one too late, a glossary term
not rendered. e5 runs in a real model host, as in the engine. What must hold:

* mostly bad → ``translation_failed``, every cue keeps its original text, render writes no
  translated file; 10-50 % bad → ``translation_doubtful`` with the cues and a reason each;
* each failing cue is asked once more, alone, with the cues before it as context;
* every batch carries the previous three source lines and their translations;
* a resume from the checkpoint sends only the cues after it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app.engine.job_options import JobOptions
from app.engine.stage import ItemRef, ModelClient, OutputT, StageOutput
from app.errors import StageStopped
from app.media.glossary import GlossaryEntry, to_option
from app.media.translation_quality import (
    GLOSSARY,
    LANGUAGE,
    MISALIGNED,
    REPEATED,
    UNFAITHFUL,
    contains_term,
)
from app.ml.host import ModelHost
from app.ml.index_models import TEXT_EMBEDDING_SPEC
from app.ml.spec import ModelSpec
from app.pipelines.outputs import TRANSLATION_DOUBTFUL, TRANSLATION_FAILED, TranscriptOutput, TranslationOutput
from app.pipelines.video import RenderStage, TranslateStage
from tests.model_server import ModelServer

DATA = Path(__file__).parent / "data" / "parallel" / "tatoeba-en-de.tsv"
#: 20 real sentences whose human translations the estimate passes (its accuracy is measured in
#: test_translation_quality.py and bench/translation_qe.py; here the stage's mechanics are tested).
PAIRS = [tuple(line.split("\t")[:2]) for line in DATA.read_text(encoding="utf-8").splitlines()[600:620]]
GERMAN = dict(PAIRS)
SOURCES = [en for en, _ in PAIRS]


@dataclass
class Ctx:
    """The slice of the engine's StageContext the translate and render stages use."""

    e5: ModelHost
    options: JobOptions
    inputs: list[StageOutput]
    partial: Any = None
    stop_after_checkpoint: bool = False
    checkpoints: list[Any] = field(default_factory=list)
    item: ItemRef = field(default_factory=lambda: ItemRef(1, 1, Path("/films/Talk.mp4"), "video", "", 0, 0, 1))
    workspace: Path = Path("/nonexistent")

    def save_partial(self, data: Any) -> None:
        self.partial = data
        self.checkpoints.append(data)

    def progress(self, fraction: float, note: str = "") -> None:
        pass

    def check(self) -> None:
        if self.stop_after_checkpoint and self.checkpoints:
            raise StageStopped("paused at a checkpoint")

    def should_stop(self) -> bool:
        return False

    def model(self, spec: ModelSpec) -> ModelClient:
        assert spec == TEXT_EMBEDDING_SPEC, "with a server, e5 is the only hosted model"
        return self.e5

    def input(self, kind: type[OutputT]) -> OutputT:
        (found,) = [output for output in self.inputs if isinstance(output, kind)]
        return found

    def computed_output(self, kind: type[OutputT]) -> None:
        return None


@pytest.fixture(scope="module")
def e5() -> Iterator[ModelHost]:
    host = ModelHost(TEXT_EMBEDDING_SPEC)
    yield host
    host.close()


def _transcript(sources: list[str]) -> TranscriptOutput:
    return TranscriptOutput(language="en", cues=[{"start_ms": i * 2000, "end_ms": i * 2000 + 1500, "text": s}
                                                 for i, s in enumerate(sources)])


def _served(server: ModelServer, target_lang: str, **stored: Any) -> JobOptions:
    """A job's options translating into ``target_lang`` through ``server`` (``stored``: more options, stored form)."""
    return JobOptions.from_stored({"target_lang": target_lang, "translation_endpoint": server.url("/v1"),
                                   "translation_endpoint_model": "scripted", **stored})


def _run(server: ModelServer, e5: ModelHost, sources: list[str] = SOURCES, **options: Any) -> tuple[Ctx, dict[str, Any]]:
    stage = TranslateStage(Path("/nonexistent"))
    ctx = Ctx(e5, _served(server, "de", **options), [_transcript(sources)])
    return ctx, stage.run(ctx).written()  # type: ignore[arg-type]


def _render(e5: ModelHost, ctx: Ctx, translation: Mapping[str, Any]) -> dict[str, Any]:
    """What the render stage stores after this translation."""
    rendered = RenderStage().run(Ctx(e5, ctx.options, [_transcript(SOURCES), TranslationOutput.read(translation)]))
    return rendered.written()  # type: ignore[arg-type]


def _serve(answer: Any) -> ModelServer:
    return ModelServer(answer=lambda _language, text: answer(text)).start()


def test_mostly_bad_lines_fail_the_translation_and_no_file_is_rendered(e5: ModelHost) -> None:
    """Every line answered with the next line's German (a model one line off): all fail, twice each."""
    following = {en: GERMAN[SOURCES[(i + 1) % len(SOURCES)]] for i, en in enumerate(SOURCES)}
    server = _serve(lambda text: following[text])
    try:
        ctx, output = _run(server, e5)
    finally:
        server.stop()
    assert output["item_result"] == TRANSLATION_FAILED
    assert len(output["fallback"]) >= len(SOURCES) - 1, output["reasons"]  # a random pair may pass e5 by chance
    assert all(output["texts"][i] == SOURCES[i] for i in output["fallback"])
    assert set(output["reasons"].values()) <= {MISALIGNED, UNFAITHFUL, REPEATED}
    assert output["item_detail"]["reasons"] == {str(i + 1): r for i, r in
                                                ((int(k), v) for k, v in output["reasons"].items())}
    singles = [lines for _, lines in server.chats if len(lines) == 1]
    assert output["retried_cues"] == len(singles) >= len(output["fallback"])
    assert len({line for (line,) in singles}) == len(singles), "each failing cue was asked once more, alone"
    rendered = _render(e5, ctx, output)
    assert rendered["item_result"] == TRANSLATION_FAILED and "translation" not in rendered["files"]


def test_a_few_bad_lines_are_retried_and_the_rest_make_a_doubtful_file(e5: ModelHost) -> None:
    english = {SOURCES[3], SOURCES[11]}  # left in English the first time, translated when asked again
    stubborn = {SOURCES[7], SOURCES[15], SOURCES[16]}  # left in English every time
    asked: dict[str, int] = {}

    def answer(text: str) -> str:
        asked[text] = asked.get(text, 0) + 1
        if text in stubborn or (text in english and asked[text] == 1):
            return text + " Okay."  # English, and not the source itself: only the language check sees it
        return GERMAN[text]

    server = _serve(answer)
    try:
        ctx, output = _run(server, e5)
    finally:
        server.stop()
    bad = sorted(SOURCES.index(s) for s in stubborn)
    assert output["item_result"] == TRANSLATION_DOUBTFUL, output["reasons"]
    assert output["fallback"] == bad and output["item_detail"]["untranslated_cues"] == [i + 1 for i in bad]
    assert output["item_detail"]["reasons"] == {str(i + 1): LANGUAGE for i in bad}
    for i, text in enumerate(output["texts"]):
        assert text == (SOURCES[i] if i in bad else GERMAN[SOURCES[i]])
    rendered = _render(e5, ctx, output)
    assert "Wie" in rendered["files"]["translation"] or GERMAN[SOURCES[0]] in rendered["files"]["translation"]


def test_each_batch_carries_the_three_lines_before_it_and_the_glossary(e5: ModelHost) -> None:
    """Glossary "Tom = Thomas"; the server keeps "Tom": its cues are retried with the rendering asked, then flagged."""
    server = _serve(lambda text: GERMAN[text])
    prompts: list[str] = []
    original = server.chat_reply

    def recording(body: bytes) -> bytes:
        prompts.append(json.loads(body)["messages"][-1]["content"])
        return original(body)

    server.chat_reply = recording  # type: ignore[method-assign]
    try:
        _ctx, output = _run(server, e5, glossary=to_option([GlossaryEntry("Tom", "Thomas")]))
    finally:
        server.stop()
    with_tom = [i for i, s in enumerate(SOURCES) if contains_term(s, "Tom")]
    assert with_tom and output["fallback"] == with_tom
    assert output["reasons"] == {str(i): GLOSSARY for i in with_tom}
    (second,) = [p for p in prompts if f"1| {SOURCES[8]}" in p]
    # The three translated cues before the batch (cues 0, 2, 3 say "Tom" and kept their text) and their German.
    for en in SOURCES[5:8]:
        assert f"{en} → {GERMAN[en]}" in second
    assert f"{SOURCES[4]} → " not in second and f"{SOURCES[3]} → " not in second
    assert "Always translate these terms exactly so: Tom → Thomas." in second
    retries = [p for p in prompts if f"1| {SOURCES[0]}" in p and "2| " not in p]
    assert len(retries) == 1 and "Tom → Thomas" in retries[0], "the retry alone asks for the rendering too"


def test_a_resume_sends_only_the_cues_after_the_checkpoint_and_keeps_the_reasons(e5: ModelHost) -> None:
    stubborn = SOURCES[2]
    server = _serve(lambda text: text + " Okay." if text == stubborn else GERMAN[text])
    stage = TranslateStage(Path("/nonexistent"))
    ctx = Ctx(e5, _served(server, "de"), [_transcript(SOURCES)], stop_after_checkpoint=True)
    try:
        with pytest.raises(StageStopped):
            stage.run(ctx)  # type: ignore[arg-type]
        assert len(ctx.partial["texts"]) == 8 and ctx.partial["reasons"] == {"2": LANGUAGE}
        server.chats.clear()
        ctx.stop_after_checkpoint = False
        output = stage.run(ctx).written()  # type: ignore[arg-type]
    finally:
        server.stop()
    assert all(stubborn not in lines and SOURCES[0] not in lines for _, lines in server.chats)
    assert output["fallback"] == [2] and output["reasons"] == {"2": LANGUAGE}
    assert output["texts"][8:] == [GERMAN[s] for s in SOURCES[8:]]



ZH_PAIRS = [tuple(line.split("\t")[:2]) for line in
            (DATA.parent / "tatoeba-en-zh.tsv").read_text(encoding="utf-8").splitlines()[600:606]]


def _mixed(cues: list[tuple[str, str]], main: str) -> dict[str, Any]:
    """A mixed-language transcript: (text, language) per cue, named for ``main``."""
    return {"language": main, "cues": [{"start_ms": i * 2000, "end_ms": i * 2000 + 1500, "text": text, "language": lang}
                                       for i, (text, lang) in enumerate(cues)]}


def test_a_recording_mostly_in_the_target_language_gets_its_other_stretches_translated(e5: ModelHost) -> None:
    """German with an English stretch, target German: the English cues alone are sent, as English; one German file."""
    german = [de for _, de in PAIRS[:6]]
    english = SOURCES[10:14]
    transcript = _mixed([(t, "de") for t in german[:3]] + [(t, "en") for t in english] + [(t, "de") for t in german[3:]], "de")
    server = _serve(lambda text: GERMAN[text])
    stage = TranslateStage(Path("/nonexistent"))
    ctx = Ctx(e5, _served(server, "de"), [TranscriptOutput.read(transcript)])
    try:
        translation = stage.run(ctx)  # type: ignore[arg-type]
        output = translation.written()
    finally:
        server.stop()
    assert not output["skipped"] and output["fallback"] == [] and output["kept_cues"] == [0, 1, 2, 7, 8, 9]
    assert server.chats and all(language == "English" and set(lines) <= set(english) for language, lines in server.chats)
    assert output["texts"] == german[:3] + [GERMAN[t] for t in english] + german[3:]
    rendered = RenderStage().run(Ctx(e5, ctx.options, [TranscriptOutput.read(transcript), translation]))
    assert set(rendered.files) == {"transcript"} and rendered.target_lang is None, "one file, named for German"
    assert GERMAN[english[0]] in rendered.files["transcript"] and english[0] not in rendered.files["transcript"]


def test_each_stretch_is_sent_and_checked_in_its_own_language(e5: ModelHost) -> None:
    """German (main), Chinese and English stretches, target English: German and Chinese go each as themselves."""
    german = [(de, en) for en, de in PAIRS[:5]]
    chinese = [(zh, en) for en, zh in ZH_PAIRS]
    english = SOURCES[10:12]
    human = dict(german + chinese)
    transcript = _mixed([(de, "de") for de, _ in german[:3]] + [(zh, "zh") for zh, _ in chinese[:3]]
                        + [(t, "en") for t in english] + [(de, "de") for de, _ in german[3:]]
                        + [(zh, "zh") for zh, _ in chinese[3:]], "de")
    server = ModelServer(answer=lambda _language, text: human[text]).start()
    stage = TranslateStage(Path("/nonexistent"))
    ctx = Ctx(e5, _served(server, "en"), [TranscriptOutput.read(transcript)])
    try:
        output = stage.run(ctx).written()  # type: ignore[arg-type]
    finally:
        server.stop()
    sent = {language: {line for lang, lines in server.chats if lang == language for line in lines}
            for language, _ in server.chats}
    assert sent == {"German": {de for de, _ in german}, "Chinese": {zh for zh, _ in chinese}}
    assert output["source_langs"] == ["de", "zh"] and output["kept_cues"] == [6, 7]
    assert output["fallback"] == [], output["reasons"]
    assert output["texts"] == [human[c["text"]] if c["language"] != "en" else c["text"] for c in transcript["cues"]]
