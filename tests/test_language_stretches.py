"""Stretches of a mixed-language recording: pieces cut at pauses, languages among those the vote heard, boundaries placed."""

from __future__ import annotations

from typing import Any

import pytest

from app.media.language_stretches import (PIECE_S, Stretch, coarse_piece_s, find_stretches, language_at, left_unwritten,
                                          piece_switch, pieces, short_switch, speech_by_language, spliced, suspect_regions,
                                          translation_runs)
from app.media.language_vote import LanguageVote, heard_languages, hearing_order


def _answer(top: list[tuple[str, float]], speech_s: float = 10.0) -> dict[str, Any]:
    return {"language": top[0][0], "language_probability": top[0][1], "top": top, "speech_s": speech_s}


def _spans(start: float, end: float, every: float = 4.0, pause: float = 0.5) -> list[tuple[float, float]]:
    """Sentences of ``every - pause`` seconds with a pause after each, from ``start`` to ``end``."""
    out, t = [], start
    while t + every <= end + 1e-9:
        out.append((t, t + every - pause))
        t += every
    return out


def test_pieces_hold_enough_speech_and_are_cut_only_at_pauses() -> None:
    spans = _spans(0.0, 60.0)  # 15 sentences of 3.5 s
    coarse = pieces(spans, PIECE_S)
    assert all(any(abs(p[0] - s[0]) < 1e-9 for s in spans) and any(abs(p[1] - s[1]) < 1e-9 for s in spans)
               for p in coarse), "a piece starts and ends where a sentence does"
    assert [round(p[0], 1) for p in coarse] == [0.0, 20.0, 40.0]
    assert coarse[-1][1] == pytest.approx(59.5), "the short tail joins the last piece"
    # Speech without a pause (a minute the VAD saw as one span) is cut into equal parts.
    assert pieces([(0.0, 60.0)], PIECE_S) == [(0.0, 15.0), (15.0, 30.0), (30.0, 45.0), (45.0, 60.0)]
    assert pieces([], PIECE_S) == []


def test_a_switch_is_placed_at_the_pause_where_the_languages_change() -> None:
    spans = _spans(0.0, 100.0)
    switch = 52.0  # a sentence starts at 52 s: English before, German from there

    def detect(start: float, length: float) -> dict[str, Any]:
        end = start + length
        english = max(0.0, min(end, switch) - start)
        german = max(0.0, end - max(start, switch))
        p = english / (english + german)
        # Whisper on a few seconds names a neighbour language too: Dutch must never be chosen.
        return _answer(sorted([("en", p * 0.8), ("de", (1 - p) * 0.8), ("nl", 0.15)], key=lambda x: -x[1]))

    stretches = find_stretches(spans, ("de", "en"), 100.0, detect)
    assert [s.language for s in stretches] == ["en", "de"]
    assert stretches[0].start_s == 0.0 and stretches[-1].end_s == 100.0
    assert stretches[0].end_s == stretches[1].start_s == pytest.approx(51.75), "the middle of the pause before 52 s"
    assert language_at(stretches, 10.0) == "en" and language_at(stretches, 80.0) == "de"
    assert language_at(stretches, 500.0) == "de"


def test_pieces_that_say_nothing_follow_their_neighbours_and_one_language_gives_one_stretch() -> None:
    spans = _spans(0.0, 90.0)
    answers = iter([_answer([("en", 0.9)]), _answer([("ja", 0.9)], speech_s=0.5), _answer([("en", 0.8)]),
                    _answer([("zh", 0.99)])] + [_answer([("en", 0.9)])] * 20)
    stretches = find_stretches(spans, ("en", "de"), 90.0, lambda start, length: next(answers))
    assert stretches == [Stretch(0.0, 90.0, "en")], "music, silence and unrelated languages do not cut a stretch"


def test_the_languages_heard_are_the_confident_voting_windows_and_both_ends_are_heard_first() -> None:
    windows = (
        {"start": 0.0, **_answer([("en", 0.98)])},
        {"start": 120.0, **_answer([("de", 0.95)])},
        {"start": 60.0, **_answer([("fr", 0.4), ("en", 0.3)])},  # unsure: does not make a third language
        {"start": 30.0, **_answer([("ja", 0.99)], speech_s=1.0)},  # too little speech to vote
    )
    assert heard_languages(LanguageVote("en", 0.6, windows)) == ("en", "de")
    assert heard_languages(LanguageVote("en", 0.9, windows[:1])) == ("en",)
    assert hearing_order(5) == [0, 4, 2, 1, 3] and hearing_order(2) == [0, 1] and hearing_order(1) == [0]
    assert sorted(hearing_order(7)) == list(range(7))


def test_seconds_per_language_and_translation_keeps_the_target_language_cues() -> None:
    segments = [{"start": 0.0, "end": 4.0, "language": "en"}, {"start": 5.0, "end": 15.0, "language": "de"},
                {"start": 16.0, "end": 18.5, "language": "en"}]
    assert speech_by_language(segments, "de") == [{"language": "de", "seconds": 10.0}, {"language": "en", "seconds": 6.5}]
    assert speech_by_language([{"start": 0.0, "end": 3.0}], "fr") == [{"language": "fr", "seconds": 3.0}]
    cues = [{"text": "Hello", "language": "en"}, {"text": "Guten Tag", "language": "de"}, {"text": "Bye", "language": "en"}]
    assert translation_runs(cues, "de", "en") == [("de", [1])]
    # The main language is the target: only the other language's cues are sent.
    assert translation_runs(cues, "en", "en") == [("de", [1])]
    assert translation_runs([{"text": "one language"}], "en", "en") == []
    assert translation_runs([{"text": "one language"}] * 2, "ja", "en") == [("ja", [0, 1])]
    texts, fallback = spliced([c["text"] for c in cues], [1], ["Good day"], [0])
    assert texts == ["Hello", "Good day", "Bye"] and fallback == [1], "fallback indexes count every cue"


def test_three_languages_each_sent_as_itself_in_the_order_of_its_first_cue() -> None:
    cues = [{"text": "Guten Tag", "language": "de"}, {"text": "Bonjour", "language": "fr"},
            {"text": "Hello", "language": "en"}, {"text": "Tschüss", "language": "de"}, {"text": "Merci", "language": "fr"}]
    runs = translation_runs(cues, "de", "en")
    assert runs == [("de", [0, 3]), ("fr", [1, 4])]
    sent = [i for _, indexes in runs for i in indexes]
    texts, fallback = spliced([c["text"] for c in cues], sent, ["Good day", "Bye", "Good morning", "Thanks"], [2])
    assert texts == ["Good day", "Good morning", "Hello", "Bye", "Thanks"] and fallback == [1]


def test_a_recording_with_under_a_minute_of_speech_is_searched_in_shorter_pieces() -> None:
    assert coarse_piece_s(_spans(0.0, 200.0)) == PIECE_S
    assert coarse_piece_s(_spans(0.0, 12.0)) == 6.0
    spans = _spans(0.0, 36.0)  # 9 sentences: English until 20 s, then German
    switch = 20.0

    def detect(start: float, length: float) -> dict[str, Any]:
        english = max(0.0, min(start + length, switch) - start)
        p = english / length
        return _answer(sorted([("en", p), ("de", 1 - p)], key=lambda x: -x[1]), speech_s=length)

    stretches = find_stretches(spans, ("en", "de"), 36.0, detect)
    assert [s.language for s in stretches] == ["en", "de"]
    assert stretches[0].end_s == pytest.approx(19.75), "the pause before the first German sentence"


# ------------------------------------------------------------------- recordings of one or two vote windows (30-90 s)

def _reading(switch: float, first: str, second: str, neighbour: tuple[str, float] = ("nl", 0.1)) -> Any:
    """A detector for a reading in ``first`` until ``switch`` s, then ``second``: a mixed stretch is named after its
    larger part, as Whisper names one language for a window holding two; ``neighbour`` is always named too."""
    calls: list[tuple[float, float]] = []

    def detect(start: float, length: float) -> dict[str, Any]:
        calls.append((start, length))
        before = max(0.0, min(start + length, switch) - start) / length
        top = sorted([(first, before * 0.9), (second, (1 - before) * 0.9), neighbour], key=lambda x: -x[1])
        return {**_answer(top, speech_s=length), "language": first if before >= 0.5 else second,
                "language_probability": max(before, 1 - before) * 0.9}
    return detect, calls


def test_a_reading_of_one_vote_window_is_heard_piece_by_piece_and_split_where_it_switches() -> None:
    spans = _spans(0.0, 60.0)  # 15 sentences; the vote's one window heard English
    detect, calls = _reading(31.0, "en", "de")
    stretches = piece_switch(spans, "en", 60.0, detect)
    assert [s.language for s in stretches] == ["en", "de"]
    assert stretches[0].end_s == pytest.approx(31.75), "the pause before the first German sentence (32 s)"
    coarse = pieces(spans, coarse_piece_s(spans))
    assert len(calls) == len(set(calls)), "each piece heard once: the stretches reuse the pieces' answers"
    assert calls[:len(coarse)] == [(a, b - a) for a, b in coarse]


def test_a_one_language_reading_costs_one_pass_per_piece_and_an_unsure_piece_makes_no_switch() -> None:
    spans = _spans(0.0, 45.0)
    count = len(pieces(spans, coarse_piece_s(spans)))
    detect, calls = _reading(999.0, "en", "de", neighbour=("cy", 0.05))
    assert piece_switch(spans, "en", 45.0, detect) == [] and len(calls) == count

    def doubtful(start: float, length: float) -> dict[str, Any]:
        # The last piece sounds German to Whisper, but not surely: below CONFIDENT it names no second language.
        return _answer([("de", 0.6), ("en", 0.3)] if start > 30.0 else [("en", 0.95)])
    assert piece_switch(spans, "en", 45.0, doubtful) == []


def test_speech_left_after_a_stretchs_last_segment_is_transcribed_again_only_when_there_is_enough() -> None:
    spans = [(0.5, 9.0), (10.5, 18.0), (19.0, 30.5)]  # three sentences; Whisper wrote the first two
    assert left_unwritten(spans, 18.1, 32.6)
    assert not left_unwritten(spans, 28.0, 32.6), "2.5 s left: a word or two"
    assert not left_unwritten(spans, 18.1, 21.0), "the rest lies past the stretch's end"


# ----------------------------------------------------------------------------- short recordings (one vote window)

def _segment(start: float, end: float, text: str, word_probability: float = 0.9) -> dict[str, Any]:
    return {"start": start, "end": end, "text": text, "word_probability": word_probability}


GERMAN_LINE = "Er griff auch alles an, was ins Wasser kam, selbst ein großer Dinosaurier."
ENGLISH_LINE = "And so my fellow Americans, ask not what your country can do for you."


def _heard(answers: dict[tuple[float, float], dict[str, Any]], calls: list[tuple[float, float]]) -> Any:
    def detect(start: float, length: float) -> dict[str, Any]:
        calls.append((start, round(start + length, 3)))
        return answers[(start, round(start + length, 3))]
    return detect


def test_a_short_recording_without_suspects_is_heard_no_more() -> None:
    segments = [_segment(0.0, 4.8, ENGLISH_LINE), _segment(5.4, 9.5, ENGLISH_LINE, 0.76)]
    assert suspect_regions([(0.0, 10.0)], segments, "en") == []

    def detect(start: float, length: float) -> dict[str, Any]:
        raise AssertionError("no encoder pass for a recording without suspects")

    assert short_switch([(0.0, 10.0)], segments, "en", ["en", "de"], 10.0, detect) == []


def test_speech_left_unwritten_is_heard_and_becomes_a_stretch_in_its_language() -> None:
    # Held to German, Whisper wrote nothing for the first 10.5 s of speech (English) and wrote the German after it.
    segments = [_segment(11.6, 18.5, GERMAN_LINE)]
    assert suspect_regions([(1.1, 19.4)], segments, "de") == [(1.1, 11.6)]
    calls: list[tuple[float, float]] = []
    detect = _heard({(1.1, 11.6): _answer([("en", 0.97)])}, calls)
    stretches = short_switch([(1.1, 19.4)], segments, "de", ["de", "en", "nn"], 19.4, detect)
    assert stretches == [Stretch(0.0, 11.6, "en"), Stretch(11.6, 19.4, "de")] and len(calls) == 1


def test_unsure_words_and_text_in_another_language_are_suspect() -> None:
    segments = [_segment(0.0, 4.5, "Your shokobombongs are pretty good.", 0.39),  # German "translated" into English
                _segment(5.0, 12.1, "Europe and Asia are also described as your Asia.", 0.52),
                _segment(13.1, 16.8, ENGLISH_LINE), _segment(18.0, 21.5, ENGLISH_LINE), _segment(22.4, 25.8, ENGLISH_LINE)]
    assert suspect_regions([(0.0, 26.6)], segments, "en") == [(0.0, 12.1)]
    # Held to German, an English sentence written in English is suspect however sure Whisper was of its words.
    assert suspect_regions([(0.0, 10.0)], [_segment(0.5, 9.0, ENGLISH_LINE, 0.95)], "de") == [(0.5, 9.0)]
    detect = _heard({(0.0, 12.1): _answer([("de", 0.93)])}, [])
    assert short_switch([(0.0, 26.6)], segments, "en", ["en", "de"], 26.6, detect) == [
        Stretch(0.0, 12.6, "de"), Stretch(12.6, 26.6, "en")], "halfway through the pause between 12.1 and 13.1 s"


def test_when_the_suspect_region_is_the_transcript_language_the_written_segments_are_heard() -> None:
    # Held to German, Whisper wrote the English half in English and left the German half unwritten: two regions.
    segments = [_segment(0.0, 10.4, ENGLISH_LINE, 0.86)]
    assert suspect_regions([(0.0, 19.7)], segments, "de") == [(0.0, 10.4), (10.4, 19.7)]
    detect = _heard({(0.0, 10.4): _answer([("en", 0.95)]), (10.4, 19.7): _answer([("de", 0.98)])}, [])
    assert short_switch([(0.0, 19.7)], segments, "de", ["de", "en"], 19.7, detect) == [
        Stretch(0.0, 10.4, "en"), Stretch(10.4, 19.7, "de")]
    # Only German left unwritten, heard as German: then the sure segments Whisper wrote are heard too (one pass more).
    sure = [_segment(0.0, 10.4, GERMAN_LINE, 0.86)]
    calls: list[tuple[float, float]] = []
    detect = _heard({(10.4, 19.7): _answer([("de", 0.98)]), (0.0, 10.4): _answer([("de", 0.99)])}, calls)
    assert short_switch([(0.0, 19.7)], sure, "de", ["de", "en"], 19.7, detect) == [] and len(calls) == 2


def test_an_unsure_neighbour_or_unnamed_language_makes_no_stretch() -> None:
    segments = [_segment(11.6, 18.5, GERMAN_LINE)]
    for answer in (_answer([("en", 0.6), ("de", 0.3)]),  # not sure enough
                   _answer([("nl", 0.9)]),  # a neighbour the opening did not name
                   _answer([("en", 0.95)], speech_s=1.0)):  # too little speech
        detect = _heard({(1.1, 11.6): answer}, [])
        assert short_switch([(1.1, 19.4)], segments, "de", ["de", "en"], 19.4, detect) == []
