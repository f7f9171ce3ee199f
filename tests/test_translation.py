"""Translations map back 1:1 onto cues: retried smaller, never shifted, flagged when they fail (SPEC §7)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from app.ml.spec import ModelSpec
from app.errors import StageStopped
from app.media.glossary import GlossaryEntry
from app.media.translation import (
    Prompt,
    TranslationProgress,
    build_prompt,
    chat_caller,
    completion_caller,
    parse_answer,
    translate_cues,
)
from app.ml.clients import LlmClient
from app.ml.host import ModelHost

TEXTS = [
    "Good evening, everyone.",
    "The train leaves at nine.",
    "I lost my umbrella yesterday.",
    "Where is the nearest pharmacy?",
    "Thank you very much.",
    "We will meet again tomorrow.",
    "The soup is too hot.",
    "Please close the window.",
]


def _answer(prompt: Prompt, skip: set[int] = frozenset()) -> str:
    """A perfect "model": 'T:<text>' for every numbered line, except ids in ``skip``."""
    return "\n".join(f"{i}| T:{text}" for i, text in prompt.items if i not in skip)


# ------------------------------------------------------------------ deterministic


def test_wrong_counts_are_retried_by_halving_down_to_batches_that_map_back() -> None:
    sizes: list[int] = []

    def drops_last_line_when_batch_is_big(prompt: Prompt) -> str:
        sizes.append(len(prompt.items))
        return _answer(prompt, skip={len(prompt.items)} if len(prompt.items) > 2 else set())

    result = translate_cues(TEXTS, "en", "de", drops_last_line_when_batch_is_big, batch_size=8)
    assert sizes == [8, 4, 2, 2, 4, 2, 2]
    assert result.texts == [f"T:{t}" for t in TEXTS]
    assert result.fallback == [] and result.calls == 7 and result.retried_batches == 3


def test_a_cue_that_never_maps_back_keeps_its_original_text_and_is_flagged() -> None:
    texts = ["one", "two", "three", "POISON four", "five"]

    def chokes_on_poison(prompt: Prompt) -> str:
        return _answer(prompt, skip={i for i, t in prompt.items if "POISON" in t})

    result = translate_cues(texts, "en", "fr", chokes_on_poison, batch_size=5)
    assert result.texts == ["T:one", "T:two", "T:three", "POISON four", "T:five"]
    assert result.fallback == [3]


@pytest.mark.parametrize(
    "bad_answer",
    [
        "1| a\n2| b\n3| c\n4| d",  # one line too many
        "2| a\n3| b\n4| c",  # ids shifted by one
        "1| a\n1| b\n3| c",  # duplicate id
        "1| a\n2| \n3| c",  # empty translation
        "1| a\n3| c",  # missing id
        "a\nb\nc",  # no numbering at all
    ],
)
def test_answers_that_do_not_map_back_one_to_one_are_rejected(bad_answer: str) -> None:
    assert parse_answer(bad_answer, 3) is None


def test_chat_preamble_and_other_numbering_styles_are_accepted() -> None:
    assert parse_answer("Sure! Here are the translations:\n1. eins\n2) zwei\n3| drei", 3) == ["eins", "zwei", "drei"]


def test_echoing_the_source_counts_as_untranslated() -> None:
    result = translate_cues(["Hello there.", "Goodbye."], "en", "de", lambda p: "\n".join(f"{i}| {t}" for i, t in p.items))
    assert result.texts == ["Hello there.", "Goodbye."]
    assert result.fallback == [0, 1]


def test_two_line_cues_travel_as_one_numbered_line() -> None:
    prompt = build_prompt(["first line\nsecond line", "x"], "en", "zh")
    assert "1| first line second line" in prompt.text
    assert prompt.text.endswith("Chinese:\n1|")  # primed for a base model
    assert prompt.messages[-1]["content"].endswith("1| first line second line\n2| x")


def test_same_language_is_not_translated() -> None:
    def never(prompt: Prompt) -> str:
        raise AssertionError("must not be called")

    result = translate_cues(TEXTS, "en", "en-US", never)
    assert result.skipped and result.texts == TEXTS and result.fallback == []


def test_pause_after_a_batch_then_resume_sends_only_the_rest() -> None:
    sent: list[str] = []

    def model(prompt: Prompt) -> str:
        sent.extend(t for _, t in prompt.items)
        return _answer(prompt, skip={2} if "POISON" in prompt.items[0][1] and len(prompt.items) > 1 else set())

    texts = ["POISON a", "b", "c", "d", "e", "f", "g"]
    saved: list[TranslationProgress] = []

    def checkpoint_then_pause(progress: TranslationProgress) -> None:
        saved.append(progress)
        if len(saved) == 1:
            raise StageStopped("paused")

    with pytest.raises(StageStopped):
        translate_cues(texts, "en", "de", model, batch_size=3, on_batch_done=checkpoint_then_pause)
    first = saved[0]
    assert first.total == 7 and first.texts == ["T:POISON a", "T:b", "T:c"] and first.fallback == []

    sent.clear()
    result = translate_cues(
        texts, "en", "de", model, batch_size=3, on_batch_done=saved.append,
        done_so_far=first.texts, fallback_so_far=first.fallback,
    )
    assert sent == ["d", "e", "f", "g"]  # nothing before the checkpoint is sent again
    assert result.texts == [f"T:{t}" for t in texts]
    assert [len(p.texts) for p in saved[1:]] == [6, 7]


def test_a_cue_the_check_rejects_is_asked_again_alone_with_the_cues_before_it() -> None:
    """The check (the quality estimate's place) rejects "T:…umbrella…" once and "T:…pharmacy…" always."""
    asked: list[Prompt] = []
    rejected: dict[str, int] = {}

    def model(prompt: Prompt) -> str:
        asked.append(prompt)
        return _answer(prompt)

    def check(sources: list[str], translations: list[str]) -> list[str | None]:
        out: list[str | None] = []
        for text in translations:
            key = "umbrella" if "umbrella" in text else "pharmacy" if "pharmacy" in text else ""
            rejected[key] = rejected.get(key, 0) + 1
            out.append("unfaithful" if key == "pharmacy" or (key == "umbrella" and rejected[key] == 1) else None)
        return out

    saved: list[TranslationProgress] = []
    result = translate_cues(TEXTS, "en", "de", model, batch_size=8, check=check, on_batch_done=saved.append)
    assert result.fallback == [3] and result.reasons == {3: "unfaithful"} and result.retried_cues == 2
    assert result.texts[2] == "T:" + TEXTS[2] and result.texts[3] == TEXTS[3]  # the original is kept
    retries = [p for p in asked if len(p.items) == 1]
    assert [p.items[0][1] for p in retries] == [TEXTS[2], TEXTS[3]]
    assert "Good evening, everyone. → T:Good evening, everyone." in retries[0].messages[-1]["content"]
    assert f"2| {TEXTS[1]}\n" in retries[0].text  # the completion form shows the context as a worked example
    assert saved[-1].to_dict()["reasons"] == {"3": "unfaithful"}


def test_a_cue_that_never_maps_back_is_not_asked_a_third_time_by_the_check() -> None:
    def drops_pharmacy(prompt: Prompt) -> str:
        return _answer(prompt, {i for i, text in prompt.items if "pharmacy" in text})

    def check(sources: list[str], translations: list[str]) -> list[str | None]:
        return ["untranslated" if s == t else None for s, t in zip(sources, translations)]

    plain = translate_cues(TEXTS, "en", "de", drops_pharmacy, batch_size=8)
    checked = translate_cues(TEXTS, "en", "de", drops_pharmacy, batch_size=8, check=check)
    assert checked.fallback == plain.fallback == [3] and checked.reasons == {3: "no_answer"}
    assert checked.calls == plain.calls and checked.retried_cues == 0  # the halving already asked it alone


def test_every_batch_carries_the_cues_before_it_and_the_glossary_of_its_lines() -> None:
    asked: list[Prompt] = []

    def model(prompt: Prompt) -> str:
        asked.append(prompt)
        return _answer(prompt)

    glossary = [GlossaryEntry("umbrella", "Schirm"), GlossaryEntry("soup", "Suppe")]
    translate_cues(TEXTS, "en", "de", model, batch_size=3, glossary=glossary)
    first, second, third = asked
    assert "The lines just before" not in first.messages[-1]["content"]
    assert "Always translate these terms exactly so: umbrella → Schirm." in first.messages[-1]["content"]
    assert "Suppe" not in first.text and "Schirm" not in second.text  # only the terms its lines hold
    for source in TEXTS[:3]:
        assert f"{source} → T:{source}" in second.messages[-1]["content"]
    assert f"{TEXTS[3]} → " in third.messages[-1]["content"] and f"{TEXTS[2]} → " not in third.messages[-1]["content"]
    assert "soup → Suppe" in third.text


# ------------------------------------------------------------------- real models


@pytest.fixture(scope="module")
def llm_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("sidecar-data")


def _host(**params: Any) -> ModelHost:
    """One llama.cpp thread: its threads spin at every step, so two of them beside another test worker on
    two cores wait on each other (SmolLM2's test went from seconds to minutes); one decodes the same tokens."""
    return ModelHost(ModelSpec.of("app.ml.llm_runtime:LlamaRuntime", memory_mb=0, n_threads=1, **params))


def test_gemma_base_model_translation_keeps_count_and_ids(llm_data_dir: Path) -> None:
    host = _host(preset="gemma3-270m", data_dir=str(llm_data_dir))
    try:
        assert host.info["model"] == "gemma-3-270m-q4_k_m.gguf"
        call = completion_caller(LlmClient(host))
        timings: list[tuple[int, float]] = []

        def timed(prompt: Prompt) -> str:
            started = time.perf_counter()
            answer = call(prompt)
            timings.append((len(prompt.items), time.perf_counter() - started))
            return answer

        progress: list[TranslationProgress] = []
        texts = TEXTS[:6]
        result = translate_cues(texts, "en", "zh", timed, batch_size=3, on_batch_done=progress.append)
        print(f"\ngemma 270m batches (cues, seconds): {[(n, round(s, 2)) for n, s in timings]}")

        assert len(result.texts) == len(texts)
        assert [len(p.texts) for p in progress] == [3, 6]
        for i, text in enumerate(result.texts):
            assert text.strip() and "\n" not in text
            if i in result.fallback:
                assert text == texts[i]  # fallback keeps the original, in place
        assert len(result.fallback) < len(texts)  # the real model did translate something

        # Resuming from the first checkpoint reproduces the rest (greedy decoding).
        resumed = translate_cues(texts, "en", "zh", call, batch_size=3,
                                 done_so_far=progress[0].texts, fallback_so_far=progress[0].fallback)
        assert resumed.texts == result.texts and resumed.fallback == result.fallback
    finally:
        host.close()


def test_smollm2_cannot_follow_the_format_yet_nothing_shifts(llm_data_dir: Path) -> None:
    host = _host(preset="smollm2")
    try:
        texts = TEXTS[:4]
        result = translate_cues(texts, "en", "zh", chat_caller(LlmClient(host)), batch_size=2)
        assert len(result.texts) == len(texts)
        assert result.fallback, "SmolLM2-135M was expected to fail the numbered format"
        assert result.retried_batches >= 1  # a failing batch was retried smaller first
        for i, text in enumerate(result.texts):
            if i in result.fallback:
                assert text == texts[i]
            # No cue ever shows another cue's line.
            assert all(text != other for j, other in enumerate(texts) if j != i)
    finally:
        host.close()


def test_a_line_left_untranslated_inside_a_good_batch_is_flagged_in_place() -> None:
    def leaves_second_line(prompt: Prompt) -> str:
        return "\n".join(f"{i}| {t if i == 2 else 'T:' + t}" for i, t in prompt.items)

    result = translate_cues(["a", "b", "c", "d"], "en", "de", leaves_second_line, batch_size=2)
    assert result.texts == ["T:a", "b", "T:c", "d"]
    assert result.fallback == [1, 3] and result.retried_batches == 0


def test_a_line_holding_another_lines_source_is_a_shift_and_the_batch_is_split() -> None:
    """Gemma once answered line 2 with line 3's English text: numbered, but slid along."""
    sizes: list[int] = []

    def slides_when_batched(prompt: Prompt) -> str:
        sizes.append(len(prompt.items))
        if len(prompt.items) < 2:
            return _answer(prompt)
        texts = [t for _, t in prompt.items]
        return "\n".join(f"{i}| {texts[i] if i < len(texts) else 'T:' + t}" for i, t in prompt.items)

    result = translate_cues(TEXTS[:3], "en", "de", slides_when_batched, batch_size=3)
    assert result.texts == [f"T:{t}" for t in TEXTS[:3]], "no cue carries a neighbour's text"
    assert sizes[0] == 3 and max(sizes[1:]) < 3, "the shifted batch was retried smaller"
