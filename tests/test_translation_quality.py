"""The translation quality estimate on real translations: real e5, the real language identifier.

Good cues are human translations (Tatoeba, tests/data/parallel); bad ones are made from the
same real lines the way translators fail (source echoed, misaligned by one, a repeated line,
another real sentence), and the bundled Gemma 270M's own answers. The full held-out numbers
are printed by ``bench/translation_qe.py``; here a slice must meet the issue's goal.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from app.media import translation_quality as qe
from app.media.glossary import GlossaryEntry
from app.media.translation import completion_caller, translate_cues
from app.ml.clients import LlmClient
from app.ml.host import ModelHost
from app.ml.spec import ModelSpec
from app.ml.text_embedding import TextEmbeddingRuntime

DATA = Path(__file__).parent / "data" / "parallel"


def _pairs(name: str, start: int, count: int) -> list[tuple[str, str]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()[start:start + count]
    return [(a, b) for a, b in (line.split("\t")[:2] for line in lines)]


@pytest.fixture(scope="module")
def e5() -> TextEmbeddingRuntime:
    return TextEmbeddingRuntime()


def _embed(e5: TextEmbeddingRuntime):
    return lambda texts: e5.embed_queries(texts)


def _verdicts(e5: TextEmbeddingRuntime, cues: list[tuple[str, str]], source: str, target: str,
              memory: qe.RepeatMemory | None = None) -> list[str | None]:
    return qe.check_batch([s for s, _ in cues], [t for _, t in cues], _embed(e5), source, target, memory=memory)


@pytest.mark.parametrize("other,reverse", [("de", False), ("de", True), ("zh", False), ("zh", True)])
def test_human_translations_pass_and_made_up_failures_are_caught(e5: TextEmbeddingRuntime, other: str,
                                                                  reverse: bool) -> None:
    """The last 64 sentences of each file: the bench calibrates its floors on lines 0-200 and 400-600."""
    pairs = _pairs(f"tatoeba-en-{other}.tsv", 736, 64)
    source, target = (other, "en") if reverse else ("en", other)
    if reverse:
        pairs = [(b, a) for a, b in pairs]
    rng = random.Random(5)
    good = bad = caught = passed = 0
    for k in range(0, len(pairs), 8):
        batch = pairs[k:k + 8]
        verdicts = _verdicts(e5, batch, source, target)
        good += len(batch)
        passed += sum(v is None for v in verdicts)
        shifted = [(s, batch[(i + 1) % len(batch)][1]) for i, (s, _) in enumerate(batch)]
        caught += sum(v is not None for v in _verdicts(e5, shifted, source, target))
        bad += len(batch)
        j = rng.randrange(1, len(batch))
        for variant in ((batch[j][0], batch[j][0]),  # echoed
                        (batch[j][0], batch[j - 1][1]),  # the previous line repeated
                        (batch[j][0], pairs[(k + 20) % len(pairs)][1])):  # another real sentence
            cues = list(batch)
            cues[j] = variant
            caught += _verdicts(e5, cues, source, target)[j] is not None
            bad += 1
    assert passed / good >= 0.9, f"{passed}/{good} human translations passed"
    assert caught / bad >= 0.95, f"{caught}/{bad} bad translations caught"


def test_each_failure_has_its_reason(e5: TextEmbeddingRuntime) -> None:
    batch = _pairs("tatoeba-en-de.tsv", 736, 4)
    cues = [batch[0], (batch[1][0], batch[1][0]), (batch[2][0], batch[0][1]), (batch[3][0], "Hallo,")]
    verdicts = _verdicts(e5, cues, "en", "de")
    assert verdicts[0] is None
    assert verdicts[1] == qe.UNTRANSLATED
    assert verdicts[2] in (qe.REPEATED, qe.MISALIGNED)
    assert verdicts[3] in (qe.UNFAITHFUL, qe.LANGUAGE), verdicts
    english = _verdicts(e5, [("I have read and accept the terms and conditions.",
                              "I have read and I accept all the terms and conditions.")], "en", "de")
    assert english == [qe.LANGUAGE]


def test_a_line_repeated_later_in_the_file_is_caught_but_a_shared_meaning_is_not(e5: TextEmbeddingRuntime) -> None:
    memory = qe.RepeatMemory.empty()
    assert _verdicts(e5, [("How was your day?", "Wie war dein Tag?")], "en", "de", memory) == [None]
    assert _verdicts(e5, [("How was your trip to Berlin?", "Wie war dein Tag?")], "en", "de", memory) != [None]
    assert _verdicts(e5, [("How was your day today?", "Wie war dein Tag?")], "en", "de", memory) == [None]


def test_names_and_numbers_are_exempt_from_language_and_faithfulness() -> None:
    assert qe.language_free("Tom!") and qe.language_free("Mary, John.") and qe.language_free("B-52, 1984")
    assert qe.language_free("ComfyUI", [GlossaryEntry("ComfyUI")])
    assert not qe.language_free("Where is the station?") and not qe.language_free("火车站")
    vec = np.ones(4, dtype=np.float32) / 2
    far = np.array([1, 0, 0, 0], dtype=np.float32)
    assert qe.assess([qe.CueCheck("Tom!", "Tom!", vec, far)], "en", "de") == [None]


def test_german_greetings_left_untranslated_are_caught_but_names_and_numbers_may_stay() -> None:
    """German writes every noun with a capital, so "Guten Morgen!" is no name (issue 33: it passed into a Chinese file)."""
    vec = np.ones(4, dtype=np.float32) / 2.0
    for line in ("Guten Morgen!", "Vielen Dank.", "Gute Nacht!", "Meine Damen und Herren"):
        assert not qe.echo_allowed(line, language="de"), line
        assert qe.assess([qe.CueCheck(line, line, vec, vec)], "de", "zh") == [qe.UNTRANSLATED], line
    for line in ("Tom!", "Berlin", "B-52, 1984", "2024"):
        assert qe.echo_allowed(line, language="de"), line
    assert qe.echo_allowed("Mary, John.", language="en") and qe.echo_allowed("New York", language="en")


def test_a_line_too_short_to_judge_alone_is_still_caught_left_unchanged_or_slid(e5: TextEmbeddingRuntime) -> None:
    """Clause fragments of fewer than 8 letters skip the floor, not the other checks (tuning-half lines of the bench)."""
    assert not qe.echo_allowed("and tall.") and not qe.echo_allowed("I know")
    assert qe.echo_allowed("Tom!") and qe.echo_allowed("Okay?") and qe.echo_allowed("B-52, 1984")
    assert qe.echo_allowed("ComfyUI rocks", [GlossaryEntry("ComfyUI")])  # one word left besides the term
    assert _verdicts(e5, [("Tom is lean", "Tom ist schlank"), ("and tall.", "and tall.")], "en", "de") == [
        None, qe.UNTRANSLATED]
    good = [("Is Tom successful?", "Ist Tom erfolgreich?"), ("It's nice", "Es ist schön"), ("and warm.", "und warm.")]
    assert _verdicts(e5, good, "en", "de") == [None, None, None]
    slid = [good[0], ("It's nice", "und warm."), ("and warm.", "Ist Tom erfolgreich?")]
    assert _verdicts(e5, slid, "en", "de")[1] == qe.MISALIGNED


def test_a_fragment_slid_by_one_is_not_passed_as_part_of_its_neighbours_clause(e5: TextEmbeddingRuntime) -> None:
    """Under its floor, "we won't go." for "如果他不来了，" fits the next cue's source better than its own: slid."""
    good = [("我想看看您的邮票收藏。", "I would like to have a look at your collection of stamps."),
            ("如果他不来了，", "If he doesn't come,"), ("我们不会去。", "we won't go.")]
    assert _verdicts(e5, good, "zh", "en") == [None, None, None]
    slid = [(s, t) for (s, _), (_, t) in zip(good, good[1:] + [("", "This is smaller than that.")])]
    assert _verdicts(e5, slid, "zh", "en")[1] is not None


def test_a_glossary_term_must_be_rendered_as_given(e5: TextEmbeddingRuntime) -> None:
    glossary = [GlossaryEntry("ComfyUI"), GlossaryEntry("station", "Bahnhof")]
    sources = ["Open ComfyUI and load the workflow.", "The train leaves the station at nine."]
    ok = qe.check_batch(sources, ["Öffne ComfyUI und lade den Workflow.", "Der Zug verlässt den Bahnhof um neun."], _embed(e5),
                        "en", "de", glossary)
    wrong = qe.check_batch(sources, ["Öffne Komfy-UI und lade den Workflow.", "Der Zug verlässt die Station um neun."], _embed(e5),
                           "en", "de", glossary)
    assert ok == [None, None] and wrong == [qe.GLOSSARY, qe.GLOSSARY]
    assert [e.term for e in qe.glossary_in(["open comfyui now"], glossary)] == ["ComfyUI"]
    assert not qe.contains_term("Tomatoes are red.", "Tom") and qe.contains_term("They're yours, Tom.", "tom")
    assert qe.contains_term("我喜欢东京塔", "东京")  # no spaces between Chinese words: found anywhere


# ------------------------------------------------------------------- the bundled translator


@pytest.fixture(scope="module")
def gemma(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModelHost]:
    # One llama.cpp thread, as in test_translation.py: spinning threads stall beside another test worker.
    host = ModelHost(ModelSpec.of("app.ml.llm_runtime:LlamaRuntime", memory_mb=0, n_threads=1, preset="gemma3-270m",
                                  data_dir=str(tmp_path_factory.mktemp("gemma-data"))))
    yield host
    host.close()


def test_the_bundled_translators_wrong_language_and_repeated_cues_are_rejected(
        e5: TextEmbeddingRuntime, gemma: ModelHost) -> None:
    """Gemma 270M's raw answers for 16 real English sentences into German, judged without retry.

    Every answer that is English, or repeats another cue's answer for a different sentence, must
    be rejected; the human German translations of the same sentences must pass.
    """
    pairs = _pairs("tatoeba-en-de.tsv", 700, 16)
    sources = [s for s, _ in pairs]
    raw = translate_cues(sources, "en", "de", completion_caller(LlmClient(gemma)), batch_size=8)
    answers: dict[int, str] = dict(enumerate(raw.texts))
    memory = qe.RepeatMemory.empty()
    verdicts: list[Any] = []
    for k in range(0, 16, 8):
        verdicts += _verdicts(e5, [(sources[i], answers[i]) for i in range(k, k + 8)], "en", "de", memory)
    english = [i for i, a in answers.items() if qe.LanguageIdentifier.target_probability(a, "en", "de") > 0.5
               and not qe.language_free(a)]
    seen: dict[str, int] = {}
    repeated = []
    for i, a in answers.items():
        if qe.normalised(a) in seen and qe.normalised(sources[seen[qe.normalised(a)]]) != qe.normalised(sources[i]):
            repeated.append(i)
        seen.setdefault(qe.normalised(a), i)
    print(f"\ngemma 270m en→de: {sum(v is not None for v in verdicts)}/16 rejected; english {english}, "
          f"repeated {repeated}; reasons {verdicts}")
    for i in english + repeated:
        assert verdicts[i] is not None, f"cue {i}: {sources[i]!r} → {answers[i]!r} passed"
    assert all(verdicts[i] == qe.REPEATED for i in repeated), "a repeated answer is named for what it is"
    human_pairs = _pairs("tatoeba-en-de.tsv", 700, 64)  # these 16 sentences and 48 more
    human = [v for k in range(0, 64, 8) for v in _verdicts(e5, human_pairs[k:k + 8], "en", "de")]
    # ≥ 90 % of the human translations pass (59/64 here; the misses are idioms: "Das riecht nach einer Falle.").
    assert sum(v is None for v in human) >= 58, human


def _clauses(name: str, start: int, count: int) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Sentences cut at a clause boundary: ((source 1, human 1), (source 2, human 2)) each."""
    rows = [line.split("\t") for line in (DATA / name).read_text(encoding="utf-8").splitlines()[start:start + count]]
    return [((r[0], r[2]), (r[1], r[3])) for r in rows]


@pytest.mark.parametrize("other,reverse", [("de", False), ("de", True), ("zh", False), ("zh", True)])
def test_fragments_of_a_clause_pass_with_their_neighbour_and_bad_fragments_do_not(e5: TextEmbeddingRuntime, other: str,
                                                                                   reverse: bool) -> None:
    """Whisper ends cues inside clauses: both halves of 12 cut sentences (the bench's held-out rows), 8 cues a batch."""
    cut = _clauses(f"tatoeba-clauses-en-{other}.tsv", 200 if reverse else 100, 12)
    source, target = (other, "en") if reverse else ("en", other)
    cues = [((b, a) if reverse else (a, b)) for first, second in cut for a, b in (first, second)]
    batches = [cues[k:k + 8] for k in range(0, len(cues), 8)]
    passed = sum(v is None for batch in batches for v in _verdicts(e5, batch, source, target))
    assert passed >= 0.9 * len(cues), f"{passed}/{len(cues)} human fragment translations passed"
    rng = random.Random(7)
    caught = bad = 0
    for k, batch in enumerate(batches):
        shifted = [(s, (batch + batches[(k + 1) % len(batches)])[i + 1][1]) for i, (s, _) in enumerate(batch)]
        caught += sum(v is not None for v in _verdicts(e5, shifted, source, target))
        bad += len(batch)
        j = rng.randrange(1, len(batch))
        for variant in ((batch[j][0], batch[j - 1][1]),  # the previous fragment's translation repeated
                        (batch[j][0], cues[(8 * k + j + 11) % len(cues)][1])):  # a fragment of another sentence
            wrong = list(batch)
            wrong[j] = variant
            caught += _verdicts(e5, wrong, source, target)[j] is not None
            bad += 1
    # Bad *fragments* are the check's weak spot (a fragment slid by one shares most words with its neighbour, and
    # e5 scores the two halves of one sentence close). Reached: en→de 26, de→en 30, en→zh 30, zh→en 29 of these 30;
    # en→de caught 23 before slid fragments were checked against their neighbours' sources and short lines were
    # no longer exempt from the misalignment and echo checks. The minimum leaves one cue of margin.
    minimum = 25 if (other, reverse) == ("de", False) else 28
    assert caught >= minimum, f"{caught}/{bad} bad fragment translations caught"
