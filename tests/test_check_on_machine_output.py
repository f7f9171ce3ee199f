"""The per-line check on what real translation models write (issue 34.6), not only on errors made by hand.

* Kinds of failure seen in real output: a model looping, half a line left in the source
  language (both real French output of a real model: "Maison de la maison, subject to the
  following conditions."), and none of them raised on 5,840 real human translations.
* 60 held-out lines the real OPUS-MT zh→en package wrote, judged by hand
  (``tests/data/parallel/opus-mt-zh-en-judged.tsv``), replayed through the check: the counts
  measured are held, so a change that refuses more good lines or passes more bad ones fails.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.media import translation_quality as qe
from app.ml.text_embedding import TextEmbeddingRuntime

PARALLEL = Path(__file__).parent / "data" / "parallel"


@pytest.fixture(scope="module")
def e5() -> TextEmbeddingRuntime:
    return TextEmbeddingRuntime(num_threads=1)


def test_a_model_looping_is_caught_and_a_source_that_repeats_itself_is_not() -> None:
    assert qe.looped("Ich weiß es nicht.", "I don't know, I don't know, I don't know")
    assert qe.looped("Das ist gut.", "That is the the the good")
    assert qe.looped("你好。", "哈哈哈哈哈哈")
    assert not qe.looped("Nein, nein, nein!", "No, no, no!"), "the source says it three times too"
    assert not qe.looped("这座城市的人口约有100 000。", "The city has about 100,000 people."), "a number is no loop"


def test_half_a_line_left_in_the_source_language_is_caught_but_names_are_not() -> None:
    assert qe.copied_run("furnished to do so, subject to the following conditions.",
                         "Maison de la maison, subject to the following conditions.")
    assert not qe.copied_run("Permission is hereby granted, free of charge", "Pour que vous puissiez vous approcher")
    assert not qe.copied_run("Tom and Mary went to New York City Hall", "Tom und Mary gingen zur New York City Hall")


def test_neither_rule_fires_on_real_human_translations() -> None:
    pairs = []
    for name in ("tatoeba-en-de.tsv", "tatoeba-en-zh.tsv", "tatoeba-clauses-en-de.tsv", "tatoeba-clauses-en-zh.tsv"):
        for line in (PARALLEL / name).read_text("utf-8").splitlines():
            parts = line.split("\t")
            halves = [(parts[0], parts[1])] if len(parts) == 2 else [(parts[0], parts[2]), (parts[1], parts[3])]
            pairs += [pair for a, b in halves for pair in ((a, b), (b, a))]
    assert len(pairs) > 5000
    assert [p for p in pairs if qe.looped(*p) or qe.copied_run(*p)] == []


def test_the_check_refuses_both_kinds_in_a_batch(e5: TextEmbeddingRuntime) -> None:
    verdicts = qe.check_batch(["Ich weiß es nicht."], ["I don't know, I don't know, I don't know"], e5.embed_queries,
                              "de", "en")
    assert verdicts == [qe.LOOPED]
    verdicts = qe.check_batch(["furnished to do so, subject to the following conditions."],
                              ["Maison de la maison, subject to the following conditions."], e5.embed_queries, "en", "fr")
    assert verdicts in ([qe.PART_UNTRANSLATED], [qe.LANGUAGE]), "refused, as half English or as not French"


def test_hand_judged_opus_mt_lines_keep_the_measured_error_counts(e5: TextEmbeddingRuntime) -> None:
    """Measured 2026-12-05: of 51 good lines 1 refused ("Which one is better?" for 哪一本書比較好), of 9 bad lines 9
    passed — each bad line is a fluent sentence that gets a detail wrong (a dropped clause, an inverted condition,
    a changed word), the kind of error the check says it cannot catch. The bound is what was measured."""
    rows = [line.split("\t") for line in (PARALLEL / "opus-mt-zh-en-judged.tsv").read_text("utf-8").splitlines()[1:]]
    assert len(rows) == 60
    verdicts: list[str | None] = []
    for k in range(0, len(rows), 8):
        batch = rows[k:k + 8]
        verdicts += qe.check_batch([r[0] for r in batch], [r[2] for r in batch], e5.embed_queries, "zh", "en")
    good_refused = sum(1 for r, v in zip(rows, verdicts) if r[3] == "good" and v is not None)
    bad_passed = sum(1 for r, v in zip(rows, verdicts) if r[3] == "bad" and v is None)
    assert sum(r[3] == "good" for r in rows) == 51
    assert good_refused <= 1, f"good lines refused: {good_refused} of 51"
    # All 9 bad lines pass today, so there is no bound to hold on them; the closing note and the README say so.
    print(f"check on real OPUS-MT output: {good_refused}/51 good refused, {bad_passed}/9 bad passed")
