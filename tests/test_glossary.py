"""The glossary's forms: what a person types, what a job stores, what the stages read."""

from app.media.glossary import GlossaryEntry, from_options, parse_entry, parse_lines, to_option


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
    assert from_options({"glossary": a}) == (GlossaryEntry("A", "x"), GlossaryEntry("b"))
    assert from_options({}) == ()
    assert GlossaryEntry("ComfyUI").required_in_translation == "ComfyUI"
    assert GlossaryEntry("Bahnhof", "station").required_in_translation == "station"
