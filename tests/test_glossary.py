"""The glossary's forms: what a person types, what a job stores, what the stages read."""

from app.media.glossary import GlossaryEntry, from_option, parse_entry, parse_lines, to_option


def test_a_line_is_a_term_or_a_term_with_its_rendering() -> None:
    assert parse_entry("ComfyUI") == GlossaryEntry("ComfyUI")
    assert parse_entry("  Bahnhof = station ") == GlossaryEntry("Bahnhof", "station")
    assert parse_entry("a=b=c") == GlossaryEntry("a", "b=c")
    assert parse_entry("Winterfell =") == GlossaryEntry("Winterfell")
    assert parse_entry("# names of the series") is None
    assert parse_entry("   ") is None


def test_a_file_keeps_one_entry_per_term_the_last_one() -> None:
    entries = parse_lines(["Jon Snow", "", "jon snow = Jon Schnee", "ComfyUI"])
    assert entries == (GlossaryEntry("jon snow", "Jon Schnee"), GlossaryEntry("ComfyUI"))


def test_the_job_option_round_trips_and_is_order_independent() -> None:
    a = to_option([GlossaryEntry("b"), GlossaryEntry("A", "x")])
    b = to_option([GlossaryEntry("A", "x"), GlossaryEntry("b")])
    assert a == b == [["A", "x"], ["b", None]]
    assert from_option(a) == (GlossaryEntry("A", "x"), GlossaryEntry("b"))
    assert from_option([]) == ()
    assert GlossaryEntry("ComfyUI").required_in_translation == "ComfyUI"
    assert GlossaryEntry("Bahnhof", "station").required_in_translation == "station"


def test_a_term_whisper_splits_or_cases_its_own_way_is_written_as_given() -> None:
    """Hotwords make Whisper expect "ComfyUI", yet it may still write "Comfy UI": the transcript says the term."""
    from app.media.glossary import respell_segment

    terms = (GlossaryEntry("ComfyUI"), GlossaryEntry("Will"), GlossaryEntry("Jon Snow"), GlossaryEntry("GPT4"))
    heard = {
        " Open Comfy UI and load it.": "Open ComfyUI and load it.",
        " In comfyui, you can": "In ComfyUI, you can",
        " the Comfy-UI window": "the ComfyUI window",
        " jon snow knows.": "Jon Snow knows.",
        " gpt 4 is out": "GPT4 is out",
        # left as heard: an ordinary word that is also a name, punctuation between words, a near miss
        " I will go.": "I will go.",
        " Comfy, UI": "Comfy, UI",
        " open confu i now": "open confu i now",
    }
    assert {text: respell_segment({"text": text}, terms)["text"] for text in heard} == heard
    assert respell_segment({"text": " Open Comfy UI."}, ())["text"] == " Open Comfy UI.", "no glossary: untouched"


def test_words_merged_into_one_term_keep_the_span_the_cue_is_timed_by() -> None:
    from app.media.glossary import respell_segment

    segment = {"start": 0.0, "end": 3.0, "text": " Open Comfy UI.",
               "words": [{"word": " Open", "start": 0.0, "end": 0.9}, {"word": " Comfy", "start": 1.0, "end": 1.6},
                         {"word": " UI.", "start": 1.7, "end": 2.4}]}
    out = respell_segment(segment, (GlossaryEntry("ComfyUI"),))
    assert out["text"] == "Open ComfyUI."
    assert out["words"] == [{"word": " Open", "start": 0.0, "end": 0.9}, {"word": " ComfyUI.", "start": 1.0, "end": 2.4}]
    assert segment["words"][1]["word"] == " Comfy", "the stored segment is not changed in place"
