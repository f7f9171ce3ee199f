"""An item or job that got no translation says so in every window language (issue 39.4), never "Completed" alone."""

from __future__ import annotations

from typing import Any

import pytest

from app.codes import Code
from app.engine.job_notices import FINISHED, settled_notice
from app.gui.count_words import count_words
from app.gui.queue_rows import queue_row
from app.gui.translations import install_translators
from app.status_words import Count
from app.store.records import ItemView, JobSummary
from app.store.states import ItemState, JobSummaryStatus


def _item(result: str | None) -> ItemView:
    return ItemView(1, 1, "/films/Talk.mkv", "video", ItemState.COMPLETED, None, 1.0, None, None, result, 1)


def _job(status: JobSummaryStatus, done: int, results: dict[str, int]) -> JobSummary:
    return JobSummary(1, "/films", status, False, 3, done, 0, 0, 0, 0, None, None, 0.0, results=results)


@pytest.mark.parametrize(("language", "transcript_only", "completed", "counts"), [
    ("en", "Transcript only", "Completed", ["1 translation to check", "2 translations to check", "2 not translated"]),
    ("zh_CN", "仅转写", "已完成", ["1 个译文待检查", "2 个译文待检查", "2 个未翻译"]),
    ("de", "Nur Transkript", "Fertig", ["1 Übersetzung zu prüfen", "2 Übersetzungen zu prüfen", "2 nicht übersetzt"]),
])
def test_an_untranslated_item_and_its_counts_read_in_each_language(qapp: Any, language: str, transcript_only: str,
                                                                  completed: str, counts: list[str]) -> None:
    try:
        install_translators(qapp, language)
        assert queue_row(_item(Code.TRANSLATION_FAILED)).display[2] == transcript_only
        assert queue_row(_item(None)).display[2] == completed
        assert [count_words(Count(Code.TRANSLATION_DOUBTFUL, 1)), count_words(Count(Code.TRANSLATION_DOUBTFUL, 2)),
                count_words(Count(Code.TRANSLATION_FAILED, 2))] == counts
    finally:
        install_translators(qapp, "en")


def test_the_notice_of_a_job_counts_what_it_did_not_deliver() -> None:
    notice = settled_notice(_job(JobSummaryStatus.RUNNING, 2, {}), _job(JobSummaryStatus.COMPLETED, 3, {Code.TRANSLATION_FAILED: 2}),
                            frozenset({FINISHED}))
    assert notice is not None
    assert notice.english() == ("Job finished", "films: 3 of 3 done, 2 not translated")


def test_every_reason_a_line_kept_its_text_has_words_in_each_language(qapp: Any) -> None:
    """Issue 39.7: "(unfaithful)", "(repeated)", "no_answer" were shown as stored."""
    from app.codes import LINE_REASONS
    from app.gui.translations import code_words
    from app.media import translation_quality as quality
    from app.status_words import item_words

    assert set(LINE_REASONS) == {quality.UNTRANSLATED, quality.LANGUAGE, quality.UNFAITHFUL, quality.MISALIGNED,
                                 quality.REPEATED, quality.GLOSSARY, quality.NO_ANSWER, quality.LOOPED,
                                 quality.PART_UNTRANSLATED}
    item = ItemView(1, 1, "/films/Talk.mkv", "video", ItemState.COMPLETED, None, 1.0, None, None,
                    Code.TRANSLATION_DOUBTFUL, 1,
                    detail={"untranslated_cues": [2, 5], "cues": 10, "reasons": {"2": "unfaithful", "5": "no_answer"}})
    try:
        for language in ("en", "zh_CN", "de"):
            install_translators(qapp, language)
            words = item_words(item, code_words)
            assert words.problem is not None
            shown = words.problem.cell() + words.problem.details()
            assert "unfaithful" not in shown and "no_answer" not in shown and Code.TRANSLATION_DOUBTFUL not in shown
            assert code_words(LINE_REASONS["unfaithful"]) in shown
            if language != "en":
                assert all(code_words(text) != text for text in LINE_REASONS.values()), language
    finally:
        install_translators(qapp, "en")


def test_a_skipped_files_note_reads_in_the_windows_language(qapp: Any) -> None:
    """Issue 39.7: "already subtitled (…)" stayed English in zh_CN and de."""
    from app.gui.translations import code_words
    from app.status_words import item_words

    item = ItemView(1, 1, "/films/Movie.mkv", "video", ItemState.SKIPPED, None, 0.0, Code.ALREADY_SUBTITLED,
                    "already subtitled (Movie.de.srt)", None, 0)
    assert item_words(item, code_words).note == "already subtitled (Movie.de.srt)"
    try:
        for language, words in (("zh_CN", "文件旁已有目标语言的字幕"), ("de", "Untertitel")):
            install_translators(qapp, language)
            shown = item_words(item, code_words)
            assert words in shown.note and "already subtitled" not in shown.note, shown.note
            assert "Movie.de.srt" in shown.note_details
            assert queue_row(item).display[6] == shown.note
    finally:
        install_translators(qapp, "en")
