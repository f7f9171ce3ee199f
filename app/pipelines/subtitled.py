"""The skip rules of the kinds that get subtitles (SPEC §1.3, §12): already subtitled in the job's target language.

A subtitle file beside the media counts by its name (language-aware,
:func:`app.media.naming.is_already_subtitled`). A video also counts when it carries a
text subtitle stream in the target language inside (job option ``embedded_subtitles``,
on by default); image-based streams are logged and never count. Each skip has a stable
code, shown with the item by ``status`` and the GUI. A job with the option ``redo``
(the editor's Re-translate) skips nothing: the person asked for that video again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from app.engine.job_options import JobOptions
from app.engine.kinds import Skip
from app.errors import Code
from app.media.languages import english_name
from app.media.naming import is_already_subtitled, normalise_language
from app.media.subtitle_streams import embedded_subtitle

ALREADY_SUBTITLED = Code.ALREADY_SUBTITLED
EMBEDDED_SUBTITLES = Code.EMBEDDED_SUBTITLES


def subtitled_beside(media: Path, sibling_names: Sequence[str], options: JobOptions) -> Skip | None:
    """Skip a file with a subtitle beside it in the job's target language (or one whose name tells no language)."""
    if options.redo:
        return None
    match = is_already_subtitled(media, sibling_names, options.target_lang)
    return Skip(ALREADY_SUBTITLED, f"already subtitled ({match})") if match else None


def subtitled_beside_or_inside(media: Path, sibling_names: Sequence[str], options: JobOptions) -> Skip | None:
    """:func:`subtitled_beside`, else a text subtitle stream in the target language inside the file."""
    beside = subtitled_beside(media, sibling_names, options)
    target = normalise_language(options.target_lang)
    if beside is not None or target == "und" or not options.embedded_subtitles or options.redo:
        return beside
    stream = embedded_subtitle(media, target)
    if stream is None:
        return None
    return Skip(EMBEDDED_SUBTITLES, f"the video already carries {english_name(target) or target} subtitles "
                                    f"({stream.describe()})")


__all__ = ["ALREADY_SUBTITLED", "EMBEDDED_SUBTITLES", "subtitled_beside", "subtitled_beside_or_inside"]
