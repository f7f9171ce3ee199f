"""Craft rules where cues are cut (issue 37): per-language limits, breaks, timing, clean-up, flags."""

from __future__ import annotations

import pytest

from app.media.craft import (
    RELAXED,
    break_score,
    char_count,
    collapse_repeats,
    gap_ms,
    reading_speed,
    remove_sound_tags,
    rules_for,
    script_language,
)
from app.media.cues import Cue, CueOptions, build_cues, craft_cues, over_limits, wrap_text
from app.media.translation_timing import rebreak


def _words(start: float, text: str, step: float = 0.3) -> dict:
    words, t = [], start
    for w in text.split():
        words.append({"start": t, "end": t + step * 0.9, "word": " " + w})
        t += step
    return {"start": start, "end": t, "text": text, "words": words}


def _chars(start: float, text: str, step: float = 0.25) -> dict:
    """A CJK segment with a word per character (as Whisper times Chinese and Japanese)."""
    words = [{"start": start + i * step, "end": start + (i + 1) * step, "word": ch} for i, ch in enumerate(text)]
    return {"start": start, "end": start + len(text) * step, "text": text, "words": words}


@pytest.mark.parametrize(("language", "line", "cps", "min_ms"), [
    ("en", 42, 20, 860), ("de", 42, 17, 860), ("fr", 42, 17, 860), ("zh", 16, 9, 860),
    ("ja", 13, 4, 520), ("ko", 16, 12, 860), ("zh-CN", 16, 9, 860),
])
def test_netflix_values_per_language(language: str, line: int, cps: int, min_ms: int) -> None:
    rules = rules_for(language)
    assert (rules.line_chars, rules.cps, rules.min_ms, rules.max_ms, rules.max_lines) == (line, cps, min_ms, 7000, 2)


def test_relaxed_and_custom_profiles_loosen_or_set_the_limits() -> None:
    relaxed = rules_for("en", RELAXED)
    assert relaxed.line_chars > 42 and relaxed.cps > 20
    custom = rules_for("zh", "custom", custom={"line_chars": 84, "cps": 34})
    assert (custom.line_chars, custom.cps) == (32, 18)  # Chinese keeps its share of the Latin numbers


def test_two_frame_gap_follows_the_frame_rate() -> None:
    assert gap_ms(25) == 80 and gap_ms(50) == 40 and gap_ms(24) == 84
    assert gap_ms(None) * 23.976 / 1000 >= 2 and gap_ms(None) * 30 / 1000 >= 2


def test_script_picks_the_cjk_language_and_characters_are_counted_not_columns() -> None:
    assert script_language("今日はいい天気") == "ja" and script_language("今天天气很好") == "zh"
    assert script_language("안녕하세요") == "ko" and script_language("Hello") is None
    assert char_count("中文字幕") == 4 and char_count("e\u0301t\u00e9") == 3
    assert reading_speed("abc de\nfg", 1000) == 8.0  # spaces count, the line break does not


def test_chinese_lines_hold_16_characters_and_japanese_13() -> None:
    zh = "这是一个很长的中文句子，用来检查字幕是否按照每行十六个字换行。"
    lines = wrap_text(zh, language="zh").split("\n")
    assert len(lines) == 2 and all(char_count(line) <= 16 for line in lines) and "".join(lines) == zh
    ja = "今日はとてもいい天気なので、公園まで散歩に行きましょう。"
    lines = wrap_text(ja).split("\n")  # the script says Japanese; 27 characters need a third line, never a cut
    assert len(lines) == 3 and all(char_count(line) <= 13 for line in lines) and "".join(lines) == ja
    assert not any(line.startswith(("。", "、", "ょ")) for line in lines)


def test_cjk_cues_are_cut_to_their_language_limits() -> None:
    text = "今天我们来讨论一下这个问题然后再决定下一步应该怎么做才能让大家都满意"
    cues = build_cues([_chars(0.0, text)], duration_s=20, language="zh")
    assert "".join(c.text.replace("\n", "") for c in cues) == text
    for cue in cues:
        assert len(cue.lines) <= 2 and all(char_count(line) <= 16 for line in cue.lines)


def test_line_breaks_after_punctuation_before_conjunctions_never_after_an_article() -> None:
    assert break_score("He left.", "Then", "en") > break_score("He left", "then", "en")
    assert break_score("I stayed", "because it rained", "en") > 0
    assert break_score("I stayed", "because it rained", "en", conjunctions=False) == 0  # cuts between cues: punctuation only
    assert break_score("I saw the", "dog", "en") < 0 and break_score("ich sah den", "Hund", "de") < 0
    top, bottom = wrap_text("We walked along the river for an hour, and then we sat down on the bank").split("\n")
    assert top.endswith(",") or bottom.startswith("and")
    for line in wrap_text("She put the old wooden box down on the kitchen table very carefully").split("\n")[:-1]:
        assert line.split()[-1].lower() not in {"the", "a", "an"}


def test_cues_keep_two_frames_apart_and_close_short_gaps() -> None:
    segments = [_words(0.0, "First line here."), _words(0.92, "Second right after."), _words(3.0, "Third later on.")]
    close = build_cues([_words(0.0, "One two three."), _words(1.3, "Four five six.")], duration_s=10)
    assert 84 <= close[1].start_ms - close[0].end_ms < 100  # a 400 ms gap is bridged to two frames (centiseconds)
    cues = build_cues(segments, duration_s=10)
    gaps = [b.start_ms - a.end_ms for a, b in zip(cues, cues[1:])]
    assert 84 <= gaps[0] < 100  # the words leave 50 ms: the first cue gives up two frames (centiseconds)
    assert gaps[1] > 500  # a real pause stays


def test_short_cue_gets_five_sixths_of_a_second_and_reading_time_where_there_is_room() -> None:
    (short,) = build_cues([_words(2.0, "Yes.", 0.2)], duration_s=10)
    assert short.end_ms - short.start_ms >= 834
    long_text = "This sentence has quite a lot of characters to read quickly."
    (cue,) = build_cues([_words(0.0, long_text, 0.15)], duration_s=10)
    assert reading_speed(cue.text, cue.end_ms - cue.start_ms) <= 20


def test_translation_keeps_source_timing_is_rebroken_and_flagged_over_reading_speed() -> None:
    cues = [Cue(0, 2000, "Hi."), Cue(2100, 6000, "How are you today?")]
    texts = ["Hallo, das ist eine viel zu lange Übersetzung für zwei Sekunden auf dem Schirm.", "Wie geht es dir heute?"]
    assert over_limits(cues, texts, "de") == [0]
    broken = rebreak(texts[0], "de")
    assert broken.replace("\n", " ") == texts[0] and all(char_count(line) <= 42 for line in broken.split("\n"))
    assert over_limits(cues, ["你好，今天过得怎么样？我们一起去吃饭吧", "好"], "zh") == [0]


def test_sound_tags_are_kept_or_removed() -> None:
    assert remove_sound_tags("[music] Hello there ♪ (applause)") == "Hello there"
    assert remove_sound_tags("(and I mean it, every word)") == "(and I mean it, every word)"  # speech in parentheses
    segments = [_words(0.0, "[Music]"), _words(3.0, "Hello there. (applause)")]
    kept = build_cues(segments, duration_s=10)
    removed = build_cues(segments, duration_s=10, options=CueOptions(keep_sound_tags=False))
    assert "[Music]" in kept[0].text and [c.text for c in removed] == ["Hello there."]


def test_a_repeated_phrase_is_kept_once_and_noted() -> None:
    assert collapse_repeats("Thank you. Thank you. Thank you. Bye") == ("Thank you. Bye", True)
    assert collapse_repeats("好的好的好的") == ("好的", True)
    assert collapse_repeats("no no, I said no") == ("no no, I said no", False)
    built = craft_cues([_words(0.0, "Hello."), _words(3.0, "Thank you thank you thank you thank you.")], duration_s=10)
    assert [c.text for c in built.cues] == ["Hello.", "Thank you."] and built.repeats == [1]


def test_a_cue_never_ends_on_an_article_even_where_whisper_ended_its_segment() -> None:
    text = ("The committee finally showed the need of a national government with power enough "
            "to handle all the national problems of the day")
    cues = build_cues([_words(0.0, text, 0.28)], duration_s=30, language="en")
    assert len(cues) > 1 and " ".join(c.flat_text for c in cues) == text
    assert all(c.flat_text.split()[-1].lower() not in {"the", "a", "an"} for c in cues)
    # Whisper cut after "a": the two segments run on, and the cut moves to a better place.
    joined = build_cues([_words(0.0, "The report showed the need of a"), _words(2.15, "national government at last.")],
                        duration_s=10, language="en")
    assert all(c.flat_text.split()[-1].lower() != "a" for c in joined)


def test_a_fast_cue_borrows_reading_time_from_a_slow_neighbour() -> None:
    slow = _words(0.0, "Well.", 2.5)  # a word held for long: time to spare
    fast = _words(2.6, "and then everybody laughed", 0.09)  # 26 characters need 1.3 s; 1 s is left
    cues = build_cues([slow, fast], duration_s=3.6, language="en")
    assert reading_speed(cues[1].text, cues[1].end_ms - cues[1].start_ms) <= 20
    assert cues[1].start_ms < 2600 and cues[1].start_ms - cues[0].end_ms >= 84


def test_a_latin_line_kept_in_a_chinese_file_keeps_latin_limits() -> None:
    """An English line the translation left as it was is broken at 42, not at Chinese's 16 (5 lines of English)."""
    from app.media.translation_timing import rebreak

    kept = rebreak("The yellow submarine travels slowly across the quiet ocean", "zh")
    assert kept.count("\n") == 1 and all(len(line) <= 42 for line in kept.split("\n"))
    assert all(len(line) <= 16 for line in rebreak("黄色潜水艇在安静的海洋上缓缓航行，穿过平静的海面。", "zh").split("\n"))


def test_a_translation_too_long_for_two_lines_becomes_two_cues_on_its_source_time() -> None:
    from app.media.translation_timing import flagged_sources, lay_out

    source = [Cue(1000, 7000, "We built the house, and then we painted every room in it.")]
    text = "Wir haben das Haus mit eigenen Händen gebaut, und danach jedes Zimmer darin frisch gestrichen."
    assert len(wrap_text(text, language="de").split("\n")) == 3  # 95 characters: three lines of 42
    laid = lay_out(source, [text], "de")
    assert [t.source for t in laid] == [0, 0] and not flagged_sources(laid)
    first, second = laid[0].cue, laid[1].cue
    assert first.flat_text.endswith("gebaut,")  # cut after the comma, not in the middle of a clause
    assert " ".join(t.cue.flat_text for t in laid) == text  # nothing cut
    assert all(len(t.cue.lines) <= 2 and all(char_count(line) <= 42 for line in t.cue.lines) for t in laid)
    assert first.start_ms == 1000 and second.end_ms == 7000  # the source's time, shared
    assert second.start_ms - first.end_ms >= 84 and min(c.end_ms - c.start_ms for c in (first, second)) >= 834
    # shared in proportion to characters: both parts read at about the same speed
    speeds = [reading_speed(c.text, c.end_ms - c.start_ms) for c in (first, second)]
    assert abs(speeds[0] - speeds[1]) < 1.5


def test_a_split_without_punctuation_falls_before_a_conjunction_never_after_an_article() -> None:
    from app.media.cues import split_to_fit

    text = ("She carried the heavy wooden box all the way down to the old harbour "
            "because her brother was waiting there for the morning boat")  # 128 characters
    parts = split_to_fit(text, rules_for("en"))
    assert len(parts) == 2 and parts[1].startswith("because") and " ".join(parts) == text
    assert all(part.split()[-1].lower() not in {"the", "a", "an", "her"} for part in parts)


def test_a_translation_too_fast_takes_the_silence_after_then_before_its_cue() -> None:
    from app.media.translation_timing import lay_out

    cues = [Cue(0, 1000, "Hi."), Cue(3000, 4500, "Good to see you."), Cue(4600, 6000, "Me too.")]
    texts = ["Hallo zusammen, schön!",  # 22 characters need 1.3 s at 17/s: the silence after gives it
             "Schön, dich zu sehen, wirklich!",  # 31 need 1.83 s; the next cue is 100 ms away: before it too
             "Ich auch."]
    laid = [t.cue for t in lay_out(cues, texts, "de")]
    assert (laid[0].start_ms, laid[0].end_ms) == (0, 1300)  # as long as it needs, no longer
    # up to two frames before the next cue (whole centiseconds), then started earlier, into the silence before
    assert (laid[1].start_ms, laid[1].end_ms) == (2680, 4510)
    assert all(reading_speed(c.text, c.end_ms - c.start_ms) <= 17 for c in laid)
    assert (laid[2].start_ms, laid[2].end_ms) == (4600, 6000)  # read in time: its source's timing


def test_a_translation_too_fast_takes_what_a_slow_touching_neighbour_spares() -> None:
    from app.media.translation_timing import lay_out

    cues = [Cue(0, 3000, "Well."), Cue(3090, 4500, "Then we all laughed.")]  # no silence between them
    texts = ["Nun.", "Dann lachten wir alle zusammen."]  # 31 characters need 1.83 s; the cue has 1.41
    first, second = [t.cue for t in lay_out(cues, texts, "de")]
    assert (first.end_ms, second.start_ms, second.end_ms) == (2580, 2670, 4500)  # the boundary moved, gap kept
    assert reading_speed(second.text, second.end_ms - second.start_ms) <= 17


def test_time_passes_down_a_run_of_touching_cues_and_no_cue_is_made_worse_to_save_another() -> None:
    from app.media.translation_timing import lay_out

    # A has time to spare, B just enough, C lacks 414 ms: B moves earlier whole, A gives C the time.
    cues = [Cue(0, 3000, "Well."), Cue(3090, 4500, "So that was that."), Cue(4590, 6000, "Then we all laughed.")]
    texts = ["Nun.", "Das war es dann also ja", "Dann lachten wir alle zusammen."]  # 4, 23, 31 characters
    a, b, c = [t.cue for t in lay_out(cues, texts, "de")]
    assert (a.end_ms, b.start_ms, b.end_ms, c.start_ms, c.end_ms) == (2630, 2720, 4080, 4170, 6000)
    assert all(reading_speed(x.text, x.end_ms - x.start_ms) <= 17 for x in (a, b, c))
    assert all(x.start_ms >= source.start_ms - 500 for x, source in zip((a, b, c), cues))  # never shown much early
    # Both too fast: B could be saved only by making A worse; A keeps its time and both are flagged.
    cues = [Cue(0, 1000, "Yes, yes."), Cue(1090, 2500, "I see it now.")]
    laid = lay_out(cues, ["Ja, ja, so ist es wohl.", "Jetzt sehe ich es endlich."], "de")  # 23 and 26 characters
    assert laid[0].cue.end_ms >= 1000 and all(t.flagged for t in laid)


def test_what_the_silence_cannot_give_is_flagged_and_never_past_the_media_or_7_seconds() -> None:
    from app.media.translation_timing import flagged_sources, lay_out

    words = "Das ist eine sehr lange Übersetzung eines kurzen Satzes"
    (one,) = lay_out([Cue(0, 1000, "Short.")], [words], "de", limit_ms=2000)
    assert one.flagged and one.cue.end_ms == 2000  # the media ends there
    (alone,) = lay_out([Cue(0, 1000, "Short.")], [words], "de")
    assert alone.flagged and alone.cue.end_ms == 1000  # no media end known: the last cue keeps its end
    long = " ".join([words] * 3)  # 3 × 55 characters: 10 s of reading in two cues
    laid = lay_out([Cue(0, 5000, "A long speech.")], [long], "de", limit_ms=60_000)
    assert all(t.cue.end_ms - t.cue.start_ms <= 7000 for t in laid)
    assert flagged_sources(laid) == [] and laid[-1].cue.end_ms - laid[0].cue.start_ms > 5000
    assert flagged_sources(lay_out([Cue(0, 1200, "Hm.")], [long], "de")) == [0]  # no room to split: one cue, told


def test_the_bilingual_file_shows_the_whole_original_under_each_part() -> None:
    import pysubs2

    from app.media.subtitles import render_bilingual_ass

    source = [Cue(1000, 7000, "We built the house, and then we painted every room in it.")]
    text = "Wir haben das Haus mit eigenen Händen gebaut, und danach jedes Zimmer darin frisch gestrichen."
    events = pysubs2.SSAFile.from_string(render_bilingual_ass(source, [text], language="de").decode("utf-8"))
    assert len(events) == 2
    assert all(e.text.endswith(r"{\rOriginal}We built the house, and then we painted every room in it.") for e in events)
    assert (events[0].start, events[1].end) == (1000, 7000)
