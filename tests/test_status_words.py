"""Job labels count what failed; item words carry their explanations (issue 15.5; the codes: tests/test_codes.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.errors import EXPLANATIONS, Code
from app.pipelines.outputs import NO_SPEECH, TRANSLATION_FAILED, TRANSLATION_FALLBACK
from app.status_words import item_json, item_words, job_label
from app.store.records import ItemFacts, ItemView, JobSummary
from app.store.states import ItemState, JobSummaryStatus


def test_translation_failed_tells_how_to_get_a_translation() -> None:
    advice = EXPLANATIONS[TRANSLATION_FAILED].advice
    assert "Settings → Models" in advice and "OpenAI-compatible" in advice and not EXPLANATIONS[TRANSLATION_FAILED].note


def _job(status: JobSummaryStatus, total: int, done: int = 0, failed: int = 0, review: int = 0,
         results: dict[str, int] | None = None) -> JobSummary:
    return JobSummary(id=1, folder="/m", status=status, paused=False, total=total, done=done, failed=failed,
                      skipped=0, review=review, running=0, error_code=None, error=None, created_at=0.0,
                      results=results or {})


@pytest.mark.parametrize("job, label", [
    (_job(JobSummaryStatus.COMPLETED, 5, done=5), "finished"),
    (_job(JobSummaryStatus.COMPLETED, 5, done=2, failed=3), "finished — 3 failed"),
    (_job(JobSummaryStatus.COMPLETED, 3, failed=3), "finished — all 3 failed"),
    (_job(JobSummaryStatus.REVIEW, 4, done=1, failed=1, review=2), "needs review — 2 to decide, 1 failed"),
    (_job(JobSummaryStatus.RUNNING, 4, done=1, failed=1), "running — 1 failed"),
    (_job(JobSummaryStatus.PAUSED, 4), "paused"),
    (_job(JobSummaryStatus.CREATING, 0), "adding files"),
    (_job(JobSummaryStatus.COMPLETED, 6, done=5, failed=1,
          results={TRANSLATION_FAILED: 2, TRANSLATION_FALLBACK: 1, NO_SPEECH: 1, "indexed": 1}),
     "finished — 1 failed, 2 not translated"),
])
def test_the_job_label_counts_what_failed_and_the_stored_status_stays(job: JobSummary, label: str) -> None:
    assert job_label(job) == label


def _item(status: ItemState, result: str | None = None, code: str | None = None, error: str | None = None,
          detail: dict | None = None) -> ItemView:
    return ItemView(id=1, job_id=1, path="/m/a.mp4", kind="video", status=status, stage=None, progress=1.0,
                    error_code=code, error=error, result=result, attempts=1, detail=detail or {})


def test_a_long_list_of_untranslated_lines_is_cut_in_the_cell_and_whole_in_the_details() -> None:
    words = item_words(_item(ItemState.COMPLETED, TRANSLATION_FALLBACK,
                             detail={"untranslated_cues": list(range(1, 21)), "cues": 60}))
    assert words.problem is None
    assert words.note == "20 of 60 lines kept their original text: 1, 2, 3, 4, 5, 6, 7, 8…"
    assert "20 of 60 lines kept their original text: " + ", ".join(map(str, range(1, 21))) in words.note_details
    assert words.note_details.startswith(EXPLANATIONS[TRANSLATION_FALLBACK].sentence)


def test_a_failed_translation_is_a_problem_carrying_its_count() -> None:
    words = item_words(_item(ItemState.COMPLETED, TRANSLATION_FAILED,
                             detail={"untranslated_cues": [1, 2, 3], "cues": 4}))
    assert words.note == "" and words.problem is not None
    assert words.problem.cell() == "3 of 4 lines kept their original text: 1, 2, 3"  # words, never the raw code
    assert words.problem.details().startswith(EXPLANATIONS[TRANSLATION_FAILED].sentence + "\n")  # words, no code
    assert TRANSLATION_FAILED not in words.problem.details()
    assert words.problem.details().splitlines()[-1] == f"What to do: {EXPLANATIONS[TRANSLATION_FAILED].advice}"


def test_an_unknown_code_still_shows_its_message() -> None:
    words = item_words(_item(ItemState.FAILED, code="brand_new_code", error="something broke"))
    assert words.problem is not None and words.problem.cell() == "something broke"
    assert words.problem.details() == "brand_new_code: something broke"


def test_a_note_code_with_words_says_them_and_lists_its_lines() -> None:
    """A translation over the reading speed: the item's note (a stable code) reaches the person in words, with the
    lines its fact lists; status --json keeps the code and the lines."""
    item = replace(_item(ItemState.COMPLETED), notes=(Code.OVER_READING_SPEED,), facts=ItemFacts(over_reading_speed=(3, 7)))
    words = item_words(item)
    sentence = EXPLANATIONS[Code.OVER_READING_SPEED].sentence
    assert words.problem is None and words.note == sentence
    assert words.note_details.splitlines()[:2] == [sentence, "Lines: 3, 7"]
    shown = item_json(item)
    assert shown["notes"] == ["over_reading_speed"] and shown["over_reading_speed"] == [3, 7]
    assert item_words(replace(item, notes=(Code.GPU_FALLBACK_CPU,))).note == ""  # a code without words stays unsaid
