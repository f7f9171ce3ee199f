"""An item's facts are typed, and each is a field of the stage output that finds it out."""

from __future__ import annotations

import dataclasses

from app.pipelines import outputs
from app.store.records import ITEM_FACTS, AudioStreamFact, ItemFacts, LanguageShare


def test_every_fact_is_a_field_of_a_stage_output() -> None:
    fields_of_outputs = {f.name for cls in vars(outputs).values()
                         if isinstance(cls, type) and issubclass(cls, outputs.StageOutput) and dataclasses.is_dataclass(cls)
                         for f in dataclasses.fields(cls)}
    assert set(ITEM_FACTS) <= fields_of_outputs, set(ITEM_FACTS) - fields_of_outputs


def test_facts_read_from_what_the_outputs_write() -> None:
    transcript = outputs.TranscriptOutput(language="de", language_probability=0.5,
                                          languages=[{"language": "de", "seconds": 40.0}, {"language": "en", "seconds": 3.5}],
                                          speakers=2)
    audio = outputs.AudioOutput("a.f32", audio_stream={"index": 3, "track": 2, "tracks": 2, "language": "ger",
                                                       "title": None, "reason": "language"})
    written = {**audio.written(), **transcript.written()}
    facts = ItemFacts.read({key: written[key] for key in ITEM_FACTS if key in written})
    assert facts == ItemFacts(AudioStreamFact(3, 2, 2, "ger", None, "language"), "de", 0.5,
                              (LanguageShare("de", 40.0), LanguageShare("en", 3.5)), (), 2)
    assert ItemFacts.read(facts.to_json()) == facts  # status --json prints what reads back the same
    assert ItemFacts().to_json() == dict.fromkeys(ITEM_FACTS)
