"""The engine's pure functions the windows call on the GUI thread: they only compute.

Each takes plain values and returns plain values, touching no store, file or model, so a
view may call it while the person types (an example file name under a naming preset, a
cue split in the editor, a language's name for a label, a work window's text). They are
reached here, not in the engine's modules, so the windows import the engine only through
their facade (see :mod:`app.gui.facade.records` for the records).
"""

from __future__ import annotations

from app.engine.background import morning_after
from app.engine.work_hours import window_text
from app.media.cue_edits import merge_cues, rename_speaker, shift_cues, split_cue
from app.media.languages import english_name, language_of
from app.media.naming import example_names, normalise_language

__all__ = [
    "english_name", "example_names", "language_of", "merge_cues", "morning_after", "normalise_language",
    "rename_speaker", "shift_cues", "split_cue", "window_text",
]
