"""Open a finished video's subtitles for editing and save the person's revision next to it.

Saving is the person's own write, so it is guarded the way the engine guards its own:
the new content is recorded as the person's revision *before* the file is replaced
(a later run then sends its version to review, whatever the job's policy), each file
is replaced atomically, and the replacement is fenced twice: no stage of the video
may be running (an engine could be writing the same file), and the file must still
hold what the editor opened (an edit made elsewhere in between is never lost).

The saved words then replace the video's cues in the dialogue search index, under the
languages its render stage named, so dialogue search finds what the files now say.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from functools import partial
from typing import Any, Sequence

from app.atomic_write import atomic_write, sha256_file
from app.engine.dialogue_index import Cue, PassageEmbedder, index_dialogue
from app.errors import Code, SidecarError
from app.media.cue_edits import EditCue, read_cues, render_edited, speakers_by_time
from app.media.naming import normalise_language
from app.media.subtitles import speaker_name, speakers_of_ass, speakers_of_text
from app.store import Store
from app.store.search_writes import SearchIndexWriter

log = logging.getLogger(__name__)

EDITABLE_ROLES = ("transcript", "translation", "bilingual", "transcript_text")
LANGUAGES_STAGE = "render"
"""The video and audio pipelines' stage whose output names the transcript's and translation's languages."""
TRANSCRIBE_STAGE = "transcribe"
"""The stage whose output labels each cue with its speakers (when the job asked for labels)."""


@dataclass(frozen=True)
class SubtitleDocument:
    item_id: int
    video: Path
    files: dict[str, Path]  # role → the file next to the video
    hashes: dict[str, str | None]  # role → its content when opened (None: it is gone)
    cues: tuple[EditCue, ...]
    #: Cue numbers (from 1) the translation left untranslated → why (:mod:`app.media.translation_quality`).
    doubtful: dict[int, str] = field(default_factory=dict)
    #: Why there is no translation (its item result and detail), when the job asked for one and got none.
    untranslated: tuple[str, dict[str, Any]] | None = None

    @property
    def has_translation(self) -> bool:
        return "translation" in self.files


def open_subtitles(store: Store, video: Path) -> SubtitleDocument:
    """The cues of ``video`` as the files next to it hold them now."""
    found = store.edits.placed_files(str(video))
    if found is None:
        raise SidecarError(f"Sidecar has not written subtitles for {video.name}", code=Code.NO_SUBTITLES)
    item_id, placed = found
    files = {role: Path(path) for role, path in placed.items() if role in EDITABLE_ROLES}
    if "transcript" not in files or not files["transcript"].is_file():
        raise SidecarError(f"the transcript of {video.name} is no longer next to it", code=Code.NO_SUBTITLES)
    hashes = {role: sha256_file(path) for role, path in files.items()}
    translation = files.get("translation")
    cues = read_cues(files["transcript"].read_bytes(),
                     translation.read_bytes() if translation is not None and translation.is_file() else None)
    speakers = _speakers(store, item_id, files, cues)
    if speakers is not None:
        cues = [replace(cue, speaker=name) for cue, name in zip(cues, speakers)]
    doubtful = store.edits.doubtful_cues(item_id) if translation is not None else {}
    untranslated = store.edits.untranslated(item_id) if translation is None else None
    return SubtitleDocument(item_id, video, files, hashes, tuple(cues), doubtful, untranslated)


def _speakers(store: Store, item_id: int, files: dict[str, Path], cues: Sequence[EditCue]) -> list[str | None] | None:
    """Each cue's speaker: as the files name them (the bilingual ASS's styles, else the text's labels, which keep a
    person's renames), else as the transcription labelled them; None without speaker labels."""
    bilingual, text = files.get("bilingual"), files.get("transcript_text")
    if bilingual is not None and bilingual.is_file() and (spans := speakers_of_ass(bilingual.read_bytes())):
        return speakers_by_time(cues, spans)
    if text is not None and text.is_file() and (named := speakers_of_text(text.read_bytes(), len(cues))):
        return named
    labelled = (store.stages.succeeded_output(item_id, TRANSCRIBE_STAGE) or {}).get("cues") or []
    spans = [(int(c["start_ms"]), int(c["end_ms"]), speaker_name(c["speakers"][0])) for c in labelled if c.get("speakers")]
    return speakers_by_time(cues, spans) if spans else None


def _check_unchanged(target: Path, opened: str | None) -> None:
    if sha256_file(target) != opened:
        raise SidecarError(f"{target.name} changed on disk after it was opened here; open it again to see that change "
                           "(nothing was saved over it)", code=Code.CHANGED_ON_DISK)


def save_subtitles(store: Store, document: SubtitleDocument, cues: Sequence[EditCue]) -> SubtitleDocument:
    """Write the edited cues to every file the video has; returns the document as now saved."""
    if store.edits.media_busy(str(document.video)):
        raise SidecarError(f"Sidecar is working on {document.video.name} right now; save again when it is done",
                           code=Code.ITEM_BUSY, transient=True)
    rendered = render_edited(cues, [role for role in EDITABLE_ROLES if role in document.files])
    changed = {role: data for role, data in rendered.items()
               if hashlib.sha256(data).hexdigest() != document.hashes.get(role)}
    for role in changed:  # all checked first, so one file changed elsewhere saves none rather than some
        _check_unchanged(document.files[role], document.hashes.get(role))
    for role, data in changed.items():
        target = document.files[role]
        sha = hashlib.sha256(data).hexdigest()
        opened = document.hashes.get(role)

        store.edits.record(document.item_id, str(target), sha)
        atomic_write(target, data, f"edit-{sha[:16]}",
                     before_replace=partial(_check_unchanged, target, opened))
        log.info("saved the person's edit of %s", target)
    return open_subtitles(store, document.video)


def edited_dialogue(document: SubtitleDocument, source_lang: str | None, target_lang: str | None) -> list[Cue]:
    """The document's cues as dialogue search indexes them: the transcript, and the translation where it differs.

    Like the place stage, a translated line equal to its original (a fallback) is not
    indexed again under the target language. Without a known source language nothing is.
    """
    if not source_lang:
        return []
    source = normalise_language(source_lang)
    cues: list[Cue] = [(c.start_ms / 1000, c.end_ms / 1000, c.original, source) for c in document.cues]
    if target_lang and document.has_translation:
        target = normalise_language(target_lang)
        cues += [(c.start_ms / 1000, c.end_ms / 1000, c.translation, target) for c in document.cues
                 if c.translation and c.translation != c.original]
    return cues


def reindex_dialogue(store: Store, document: SubtitleDocument, embed: PassageEmbedder) -> int:
    """Replace the video's cues in the dialogue index with the saved ``document``'s; returns how many were indexed."""
    languages = store.stages.succeeded_output(document.item_id, LANGUAGES_STAGE) or {}
    cues = edited_dialogue(document, languages.get("source_lang"), languages.get("target_lang"))
    if not cues:
        log.info("%s: no language known for its subtitles; the dialogue index keeps its earlier cues", document.video.name)
        return 0
    sha256 = store.jobs.item_source(document.item_id).sha256
    if not sha256:
        return 0
    return index_dialogue(SearchIndexWriter(store.db.write), document.video, sha256, cues, embed)
