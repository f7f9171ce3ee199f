"""Every stable code Sidecar records or reports, declared once with the words that explain it.

A code is a lower_snake string that never changes between releases: it is stored in
the library database (items, stages, jobs), printed in the CLI's JSON and keyed on by
the GUI and tests. :class:`Code` is the registry: each member is the string itself (a
``StrEnum``, so it compares equal to, stores and serialises as that string) and carries
its :class:`Explanation`, the sentence a person reads and what they can do about it.

**Adding a code is one declaration here** (a member and its words, one entry): the
errors (``SidecarError(..., code=Code.STALLED)``), the CLI's ``status``, the JSON and
the GUI all read it from this table, and ``tests/test_status_words.py`` fails on a code
used in app/ that is not declared.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Mapping

from app.translate_marks import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Explanation:
    """What a code means in a sentence a person reads, and what they can do about it.

    ``note`` marks codes that report an outcome rather than a problem (a skip, a
    video without speech): the GUI and ``status`` show those apart from errors.
    ``counted`` is how a job's label counts items that finished with this problem
    ("finished — 2 not translated").
    """

    sentence: str
    advice: str = ""
    note: bool = False
    counted: str = ""


_TRANSLATION_MODEL = QT_TRANSLATE_NOOP("Code", "Install a translation model in Settings → Models (or `sidecar models`), or set an "
                                        "OpenAI-compatible translation server in Settings → Output; then choose Translate "
                                        "again on the job (or `sidecar translate-again`): the stored transcript is reused, "
                                        "only the translation runs.")
_RETRY = QT_TRANSLATE_NOOP("Code", "Sidecar retries it by itself; if it keeps failing, use Retry item later.")
_REPORT = QT_TRANSLATE_NOOP("Code", "This is a bug in Sidecar: retry the item, and if it fails again send the log (Log tab) with a report.")

WHAT_TO_DO = QT_TRANSLATE_NOOP("Code", "What to do: {advice}")
"""How an explanation's advice is introduced, wherever it is shown."""
UNTRANSLATED_LINES = QT_TRANSLATE_NOOP("Code", "{count} of {cues} lines kept their original text: {lines}")
"""A translation's note listing the lines that kept their original text."""
NOTED_LINES = QT_TRANSLATE_NOOP("Code", "Lines: {lines}")
"""The lines an item's note refers to (the lines over the reading speed)."""
WAITING_FOR_PAIR = QT_TRANSLATE_NOOP("Code", "waiting for the {pair} translator (install {install})")
"""What an item waiting for a translator waits for: the pair, and the directions to install (one, or two via English)."""
#: Why a line kept its original text (the reasons of app/media/translation_quality.py), as a person reads them.
LINE_REASONS: Mapping[str, str] = {
    "untranslated": QT_TRANSLATE_NOOP("Code", "came back untranslated"),
    "language": QT_TRANSLATE_NOOP("Code", "in another language"),
    "unfaithful": QT_TRANSLATE_NOOP("Code", "says something else"),
    "misaligned": QT_TRANSLATE_NOOP("Code", "fits another line"),
    "repeated": QT_TRANSLATE_NOOP("Code", "repeats another line"),
    "glossary": QT_TRANSLATE_NOOP("Code", "a glossary term not as given"),
    "no_answer": QT_TRANSLATE_NOOP("Code", "no answer for it"),
    "looped": QT_TRANSLATE_NOOP("Code", "repeats itself"),
    "part_untranslated": QT_TRANSLATE_NOOP("Code", "partly left untranslated"),
}
UNREACHABLE_SERVER = QT_TRANSLATE_NOOP("Code", "The translation server {server} could not be reached, after several "
                                                "tries; the transcript was written, the translation was not.")
"""A translation that did not happen because its server stayed out of reach (the item's detail names it)."""

_UNEXPLAINED = Explanation("")
"""Codes recorded before they had words; :func:`explain` knows nothing of them (they show their message)."""


class Code(StrEnum):
    """Every stable code a person can meet (item errors, skips, item results, job, model and download errors)."""

    explanation: Explanation

    def __new__(cls, value: str, explanation: Explanation) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.explanation = explanation
        return member

    # items: the file itself
    CORRUPT_MEDIA = "corrupt_media", Explanation(
        QT_TRANSLATE_NOOP("Code", "The file cannot be read as media."),
        QT_TRANSLATE_NOOP("Code", "Check that it plays in a media player; re-encode or replace it, then retry the item."))
    NO_AUDIO_STREAM = "no_audio_stream", Explanation(
        QT_TRANSLATE_NOOP("Code", "The video has no sound track, so there is no speech to subtitle."),
        QT_TRANSLATE_NOOP("Code", "Nothing to do unless the wrong file was added."))
    FILE_MISSING = "file_missing", Explanation(
        QT_TRANSLATE_NOOP("Code", "The file was moved or deleted before Sidecar finished it."),
        QT_TRANSLATE_NOOP("Code", "Put it back and retry the item, or add its new folder."))
    FOLDER_MISSING = "folder_missing", Explanation(
        QT_TRANSLATE_NOOP("Code", "The folder is gone (moved, deleted or on a drive that is not connected)."),
        QT_TRANSLATE_NOOP("Code", "Reconnect the drive or restore the folder, then resume or add it again."))
    IMAGE_TOO_LARGE = "image_too_large", Explanation(
        QT_TRANSLATE_NOOP("Code", "The image has more pixels than Sidecar decodes."),
        QT_TRANSLATE_NOOP("Code", "Scale it down if it should be searchable; nothing else is affected."))
    UNSUPPORTED_MEDIA = "unsupported_media", Explanation(
        QT_TRANSLATE_NOOP("Code", "No pipeline of this Sidecar handles this kind of file."),
        _REPORT)
    TARGET_CHANGED = "target_changed", Explanation(
        QT_TRANSLATE_NOOP("Code", "The file changed while Sidecar worked on it, so nothing was written."),
        QT_TRANSLATE_NOOP("Code", "Add the folder again once the file stops changing."))
    NOT_A_REGULAR_FILE = "not_a_regular_file", Explanation(
        QT_TRANSLATE_NOOP("Code", "This is a pipe, socket or device (or a link to one), not a media file; it was left out."),
        QT_TRANSLATE_NOOP("Code", "Nothing to do: Sidecar never reads such entries."), note=True)
    EMPTY_FILE = "empty_file", Explanation(
        QT_TRANSLATE_NOOP("Code", "The file is empty (0 bytes), so there is nothing to process."),
        QT_TRANSLATE_NOOP("Code", "Replace it with the complete file, then add the folder again."))
    DANGLING_LINK = "dangling_link", Explanation(
        QT_TRANSLATE_NOOP("Code", "A link points at a file that does not exist; it was left out."),
        QT_TRANSLATE_NOOP("Code", "Fix or remove the link if the file should be processed."))
    STALLED = "stalled", Explanation(
        QT_TRANSLATE_NOOP("Code", "A step made no progress for too long, so it was stopped and the queue went on."),
        QT_TRANSLATE_NOOP("Code", "Check that the file plays and its disk answers, then retry the item."))
    CRASH_LOOP = "crash_loop", Explanation(
        QT_TRANSLATE_NOOP("Code", "Sidecar itself crashed on this file several times, so it was set aside."),
        QT_TRANSLATE_NOOP("Code", "Check the file plays; send the crash report (Log tab) with a bug report."))
    # items: writing next to the file
    DISK_FULL = "disk_full", Explanation(
        QT_TRANSLATE_NOOP("Code", "The disk holding the folder is full."),
        QT_TRANSLATE_NOOP("Code", "Free some space; Sidecar retries by itself."))
    PERMISSION_DENIED = "permission_denied", Explanation(
        QT_TRANSLATE_NOOP("Code", "Sidecar may not write into the file's folder."),
        QT_TRANSLATE_NOOP("Code", "Give your user write permission on the folder, then retry the item."))
    WRITE_FAILED = "write_failed", Explanation(
        QT_TRANSLATE_NOOP("Code", "Writing a file next to the media failed."),
        _RETRY)
    INVALID_NAME = "invalid_name", Explanation(
        QT_TRANSLATE_NOOP("Code", "The file's name, or the output name made from it, is not allowed on this system "
                                  "(Windows refuses <>:\"|?* and names like CON)."),
        QT_TRANSLATE_NOOP("Code", "Rename the media file, then add it again."))
    NAME_TOO_LONG = "name_too_long", Explanation(
        QT_TRANSLATE_NOOP("Code", "The output name would be longer than the file system allows."),
        QT_TRANSLATE_NOOP("Code", "Shorten the media file's name, then add it again."))
    WORKSPACE_DAMAGED = "workspace_damaged", Explanation(
        QT_TRANSLATE_NOOP("Code", "A file Sidecar prepared in its workspace was damaged before it was placed."),
        QT_TRANSLATE_NOOP("Code", "Retry the item; check the disk holding Sidecar's data if it happens again."))
    TARGET_CONTESTED = "target_contested", Explanation(
        QT_TRANSLATE_NOOP("Code", "Someone else changed the subtitle file while Sidecar was writing it."),
        QT_TRANSLATE_NOOP("Code", "Decide in the Review tab which version to keep."))
    MANUAL_REVIEW = "manual_review", Explanation(
        QT_TRANSLATE_NOOP("Code", "Whether a file was written is unknown or contested."),
        QT_TRANSLATE_NOOP("Code", "Decide in the Review tab."))
    PERSON_EDITED = "person_edited", Explanation(
        QT_TRANSLATE_NOOP("Code", "The subtitle file holds your edit from Sidecar's editor; this run made a new version."),
        QT_TRANSLATE_NOOP("Code", "Decide in the Review tab: Applied keeps your edit, Not applied writes Sidecar's."))
    SKIPPED_BY_REVIEW = "skipped_by_review", Explanation(
        QT_TRANSLATE_NOOP("Code", "Skipped by a review decision."),
        note=True)
    # items: models at work
    MODEL_CRASHED = "model_crashed", Explanation(
        QT_TRANSLATE_NOOP("Code", "The model process stopped unexpectedly."),
        _RETRY)
    GPU_OUT_OF_MEMORY = "gpu_out_of_memory", Explanation(
        QT_TRANSLATE_NOOP("Code", "The graphics card ran out of memory."),
        QT_TRANSLATE_NOOP("Code", "Sidecar released its models and retries; close other GPU programs if it repeats."))
    TRANSIENT_ERROR = "transient_error", Explanation(
        QT_TRANSLATE_NOOP("Code", "A temporary problem interrupted the work."),
        _RETRY)
    INTERNAL_ERROR = "internal_error", Explanation(
        QT_TRANSLATE_NOOP("Code", "Sidecar hit an unexpected error."),
        _REPORT)
    PROMPT_TOO_LONG = "prompt_too_long", Explanation(
        QT_TRANSLATE_NOOP("Code", "A subtitle batch did not fit the translation model's context."),
        QT_TRANSLATE_NOOP("Code", "Choose a translation model with a larger context in Settings → Models."))
    ENDPOINT_UNAVAILABLE = "endpoint_unavailable", Explanation(
        QT_TRANSLATE_NOOP("Code", "The translation server could not be reached or was busy."),
        QT_TRANSLATE_NOOP("Code", "Check that the server in Settings → Output is running; Sidecar retries."))
    ENDPOINT_ERROR = "endpoint_error", Explanation(
        QT_TRANSLATE_NOOP("Code", "The translation server refused the request."),
        QT_TRANSLATE_NOOP("Code", "Check the server address and model name in Settings → Output."))
    TRANSLATION_FAILED = "translation_failed", Explanation(
        QT_TRANSLATE_NOOP("Code", "Most lines could not be translated, so no translated subtitles were written (only the "
                                  "transcript)."),
        _TRANSLATION_MODEL,
        counted="not translated")
    WAITING_FOR_TRANSLATOR = "waiting_for_translator", Explanation(
        QT_TRANSLATE_NOOP("Code", "The transcript is written; the translation waits for its translator to be installed."),
        QT_TRANSLATE_NOOP("Code", "Install the translator named (Settings → Models, or `sidecar models install`); "
                                  "the item is then translated by itself."),
        counted="waiting for a translator")
    TRANSLATION_DOUBTFUL = "translation_doubtful", Explanation(
        QT_TRANSLATE_NOOP("Code", "The translation was written, but a tenth or more of its lines failed the quality "
                                  "check and kept their original text."),
        QT_TRANSLATE_NOOP("Code", "Check the lines listed (the subtitle editor marks them); a better translation "
                                  "model fixes them (Settings → Models)."),
        counted="translation to check")
    # items: outcomes that are not problems
    TRANSLATION_FALLBACK = "translation_fallback", Explanation(
        QT_TRANSLATE_NOOP("Code", "A few lines kept their original text; the rest is translated."),
        QT_TRANSLATE_NOOP("Code", "Check the lines listed; a better translation model fixes them (Settings → Models)."),
        note=True)
    #: An item note: the item's ``over_reading_speed`` fact lists the cues (flagged, never cut).
    OVER_READING_SPEED = "over_reading_speed", Explanation(
        QT_TRANSLATE_NOOP("Code", "Some translated lines read faster than the reading speed allows; they are kept whole, "
                                  "not cut."),
        QT_TRANSLATE_NOOP("Code", "Shorten them in the subtitle editor if you like, or choose the relaxed subtitle "
                                  "rules in Settings → Output."),
        note=True)
    NO_SPEECH = "no_speech", Explanation(
        QT_TRANSLATE_NOOP("Code", "No speech was heard, so no subtitles were written."),
        note=True)
    ALREADY_SUBTITLED = "already_subtitled", Explanation(
        QT_TRANSLATE_NOOP("Code", "A subtitle in the target language is already next to the file."),
        note=True)
    EMBEDDED_SUBTITLES = "embedded_subtitles", Explanation(
        QT_TRANSLATE_NOOP("Code", "The video already carries subtitles in the target language."),
        note=True)
    OUT_OF_MEMORY = "out_of_memory", Explanation(
        QT_TRANSLATE_NOOP("Code", "The computer ran out of memory for this file, on the graphics card and then on the CPU too."),
        QT_TRANSLATE_NOOP("Code", "Close other programs or choose a smaller model in Settings → Models, then retry."))
    RAW_NO_PREVIEW = "raw_no_preview", Explanation(
        QT_TRANSLATE_NOOP("Code", "This camera raw file carries no preview picture to index."),
        QT_TRANSLATE_NOOP("Code", "Export a JPEG of it from your photo software; Sidecar never decodes whole raw files."))
    ITEM_SKIPPED = "item_skipped", Explanation(
        QT_TRANSLATE_NOOP("Code", "This file was skipped, so there is nothing to change for it."),
        QT_TRANSLATE_NOOP("Code", "Add its folder again with --redo to process it anyway."))
    ITEM_IN_REVIEW = "item_in_review", Explanation(
        QT_TRANSLATE_NOOP("Code", "A file of this item is waiting for your decision in Review."),
        QT_TRANSLATE_NOOP("Code", "Decide it in Review first, then change the item."))
    # the subtitle editor
    NO_SUBTITLES = "no_subtitles", Explanation(
        QT_TRANSLATE_NOOP("Code", "Sidecar has not written subtitles for this file, or they are no longer next to it."),
        QT_TRANSLATE_NOOP("Code", "Run a job on its folder first; the subtitles Sidecar writes open here."))
    CHANGED_ON_DISK = "changed_on_disk", Explanation(
        QT_TRANSLATE_NOOP("Code", "The subtitle file changed on disk after it was opened; nothing was saved over it."),
        QT_TRANSLATE_NOOP("Code", "Open it again to see that change, then edit."))
    ITEM_BUSY = "item_busy", Explanation(
        QT_TRANSLATE_NOOP("Code", "Sidecar is working on this file right now."),
        QT_TRANSLATE_NOOP("Code", "Save again when it is done."))
    # jobs and scanning
    SCAN_INTERRUPTED = "scan_interrupted", Explanation(
        QT_TRANSLATE_NOOP("Code", "Adding the folder was interrupted before every file was listed."),
        QT_TRANSLATE_NOOP("Code", "Add the folder again."))
    UNREADABLE_FILE = "unreadable_file", Explanation(
        QT_TRANSLATE_NOOP("Code", "The file could not be read (no permission, or a disk error)."),
        QT_TRANSLATE_NOOP("Code", "Check its permissions, then retry the item or add the folder again."))
    UNREADABLE_FOLDER = "unreadable_folder", Explanation(
        QT_TRANSLATE_NOOP("Code", "A folder could not be read while it was added."),
        QT_TRANSLATE_NOOP("Code", "Check its permissions, then add the folder again."))
    SYMLINK_LOOP = "symlink_loop", Explanation(
        QT_TRANSLATE_NOOP("Code", "A folder link leads back into a folder already scanned; it was scanned once."),
        note=True)
    FILE_VANISHED = "file_vanished", Explanation(
        QT_TRANSLATE_NOOP("Code", "A file disappeared while the folder was added."),
        QT_TRANSLATE_NOOP("Code", "Add the folder again if needed."))
    WATCH_OVERLAPS = "watch_overlaps", Explanation(
        QT_TRANSLATE_NOOP("Code", "The folder lies inside (or holds) a folder already watched."),
        QT_TRANSLATE_NOOP("Code", "Watch only one of the two folders."))
    ALREADY_WATCHED = "already_watched", Explanation(
        QT_TRANSLATE_NOOP("Code", "That folder is already watched."),
        note=True)
    WATCH_MISSING = "watch_missing", Explanation(
        QT_TRANSLATE_NOOP("Code", "No such watched folder."),
        QT_TRANSLATE_NOOP("Code", "Check the list of watched folders in Settings."))
    REVIEW_CONFLICT = "review_conflict", Explanation(
        QT_TRANSLATE_NOOP("Code", "Someone else decided this review first."),
        QT_TRANSLATE_NOOP("Code", "Look at the decision now shown and decide again if needed."))
    NOT_FOUND = "not_found", Explanation(
        QT_TRANSLATE_NOOP("Code", "The job, item or review no longer exists."),
        QT_TRANSLATE_NOOP("Code", "Refresh the list."))
    STOPPED = "stopped", Explanation(
        QT_TRANSLATE_NOOP("Code", "The work stopped at a checkpoint (paused or closing) and resumes later."),
        note=True)
    LEASE_LOST = "lease_lost", Explanation(
        QT_TRANSLATE_NOOP("Code", "Another worker took over this step."),
        note=True)
    CANCELLED = "cancelled", Explanation(
        QT_TRANSLATE_NOOP("Code", "Cancelled."),
        note=True)
    INVALID_PATH_MAP = "invalid_path_map", Explanation(
        QT_TRANSLATE_NOOP("Code", "A --path-map is not LIBRARY_PREFIX=LOCAL_PREFIX with two absolute paths."),
        QT_TRANSLATE_NOOP("Code", "Write it as /mnt/nas/media=D:\\Media (quote it in the shell)."))
    WORKER_REFUSED = "worker_refused", Explanation(
        QT_TRANSLATE_NOOP("Code", "The worker did not start: a mapped folder is missing or does not show the library's files."),
        QT_TRANSLATE_NOOP("Code", "Mount the share, or fix the --path-map so its local side shows the same files."))
    MAPPING_UNAVAILABLE = "mapping_unavailable", Explanation(
        QT_TRANSLATE_NOOP("Code", "A worker's mapped folder disappeared while it worked; the step was given back."),
        QT_TRANSLATE_NOOP("Code", "Another machine (or this one, once the folder is back) takes it over."),
        note=True)
    NOT_MAPPED = "not_mapped", Explanation(
        QT_TRANSLATE_NOOP("Code", "No --path-map of the worker covers this file; it was left for another machine."),
        note=True)
    ENGINE_STARTING = "engine_starting", Explanation(
        QT_TRANSLATE_NOOP("Code", "The engine is still starting."),
        QT_TRANSLATE_NOOP("Code", "Try again in a moment."))
    GUI_THREAD_BLOCKED = "gui_thread_blocked", Explanation(
        QT_TRANSLATE_NOOP("Code", "The window called the engine on its own thread."),
        _REPORT)
    INVALID_ARGUMENT = "invalid_argument", Explanation(
        QT_TRANSLATE_NOOP("Code", "The request is not valid."),
        QT_TRANSLATE_NOOP("Code", "Check the command's options (`--help`)."))
    GLOSSARY_UNREADABLE = "glossary_unreadable", Explanation(
        QT_TRANSLATE_NOOP("Code", "The glossary file could not be read as text."),
        QT_TRANSLATE_NOOP("Code", "Give a UTF-8 text file with one `term` or `term = translation` a line."))
    INVALID_SETTING = "invalid_setting", Explanation(
        QT_TRANSLATE_NOOP("Code", "A setting has a value Sidecar does not know."),
        QT_TRANSLATE_NOOP("Code", "Fix it in Settings."))
    NO_MEDIA_KINDS = "no_media_kinds", Explanation(
        QT_TRANSLATE_NOOP("Code", "This Sidecar has no media pipelines registered."),
        _REPORT)
    NO_VISUAL_MODEL = "no_visual_model", Explanation(
        QT_TRANSLATE_NOOP("Code", "Searching by image needs a visual (CLIP) model."),
        QT_TRANSLATE_NOOP("Code", "Install one in Settings → Models (or `sidecar models`)."))
    BAD_DATABASE_URL = "bad_database_url", Explanation(
        QT_TRANSLATE_NOOP("Code", "The library database cannot be opened from that URL."),
        QT_TRANSLATE_NOOP("Code", "Use postgresql+psycopg://user@host:port/db or sqlite:///absolute/path (--database-url, "
                                  "SIDECAR_DATABASE_URL or the database_url setting)."))
    DATABASE_UNAVAILABLE = "database_unavailable", Explanation(
        QT_TRANSLATE_NOOP("Code", "The library database's server cannot be reached."),
        QT_TRANSLATE_NOOP("Code", "Check the network and that PostgreSQL runs; Sidecar reconnects by itself."))
    DOWNGRADE_REFUSED = "downgrade_refused", Explanation(
        QT_TRANSLATE_NOOP("Code", "The library database cannot be moved back to an older schema."),
        QT_TRANSLATE_NOOP("Code", "Open a backup of the library with the older Sidecar instead."))
    DATABASE_TOO_NEW = "database_too_new", Explanation(
        QT_TRANSLATE_NOOP("Code", "This library was written by a newer Sidecar."),
        QT_TRANSLATE_NOOP("Code", "Update Sidecar."))
    BAD_WORK_WINDOW = "bad_work_window", Explanation(
        QT_TRANSLATE_NOOP("Code", "A work schedule is not \"all\", \"off\" or a span like 22:00-07:00."),
        QT_TRANSLATE_NOOP("Code", "Correct it in Settings → Schedule & power."))
    RESOURCE_MISSING = "resource_missing", Explanation(
        QT_TRANSLATE_NOOP("Code", "A file of the installation is missing."),
        QT_TRANSLATE_NOOP("Code", "Reinstall Sidecar."))
    # models and downloads
    BUNDLED_MODEL_MISSING = "bundled_model_missing", Explanation(
        QT_TRANSLATE_NOOP("Code", "A model that ships with Sidecar is missing."),
        QT_TRANSLATE_NOOP("Code", "Reinstall Sidecar."))
    BUNDLED_MODEL = "bundled_model", Explanation(
        QT_TRANSLATE_NOOP("Code", "That model ships with Sidecar and needs no install."),
        note=True)
    CHECKSUM_MISMATCH = "checksum_mismatch", Explanation(
        QT_TRANSLATE_NOOP("Code", "A downloaded model does not match its published checksum."),
        QT_TRANSLATE_NOOP("Code", "Install it again; the damaged download was not used."))
    DOWNLOAD_FAILED = "download_failed", Explanation(
        QT_TRANSLATE_NOOP("Code", "The model download failed."),
        QT_TRANSLATE_NOOP("Code", "Check the connection and install again; the download resumes where it stopped."))
    DOWNLOAD_CANCELLED = "download_cancelled", Explanation(
        QT_TRANSLATE_NOOP("Code", "The download was cancelled; what was fetched is kept for a resume."),
        note=True)
    NOT_ENOUGH_DISK = "not_enough_disk", Explanation(
        QT_TRANSLATE_NOOP("Code", "There is not enough free disk space for the model."),
        QT_TRANSLATE_NOOP("Code", "Free space on the disk holding Sidecar's data, then install again."))
    NOT_DOWNLOADABLE = "not_downloadable", Explanation(
        QT_TRANSLATE_NOOP("Code", "That model cannot be downloaded by Sidecar."),
        QT_TRANSLATE_NOOP("Code", "Register a local copy with `sidecar models register`."))
    INSTALL_IN_PROGRESS = "install_in_progress", Explanation(
        QT_TRANSLATE_NOOP("Code", "That model is already being installed."),
        QT_TRANSLATE_NOOP("Code", "Wait for it to finish."))
    MODEL_ERROR = "model_error", Explanation(
        QT_TRANSLATE_NOOP("Code", "The model request cannot be done as asked."),
        QT_TRANSLATE_NOOP("Code", "See the message for why."))
    MODEL_MISSING = "model_missing", Explanation(
        QT_TRANSLATE_NOOP("Code", "The chosen model's files are missing."),
        QT_TRANSLATE_NOOP("Code", "Install the model again, or choose another in Settings → Models."))
    MODEL_NOT_INSTALLED = "model_not_installed", Explanation(
        QT_TRANSLATE_NOOP("Code", "That model is not installed."),
        QT_TRANSLATE_NOOP("Code", "Install it first (Settings → Models)."))
    MODEL_INVALID = "model_invalid", Explanation(
        QT_TRANSLATE_NOOP("Code", "A model gave answers of the wrong shape."),
        QT_TRANSLATE_NOOP("Code", "Reinstall the model."))
    MODEL_LOAD_FAILED = "model_load_failed", Explanation(
        QT_TRANSLATE_NOOP("Code", "A model could not be loaded."),
        QT_TRANSLATE_NOOP("Code", "Reinstall the model, or choose another."))
    MODEL_PATH_MISSING = "model_path_missing", Explanation(
        QT_TRANSLATE_NOOP("Code", "No model file at that path."),
        QT_TRANSLATE_NOOP("Code", "Check the path and register it again."))
    MODEL_NAME_TAKEN = "model_name_taken", Explanation(
        QT_TRANSLATE_NOOP("Code", "That model name is already used."),
        QT_TRANSLATE_NOOP("Code", "Choose another name."))
    MODEL_STATE_CORRUPT = "model_state_corrupt", Explanation(
        QT_TRANSLATE_NOOP("Code", "The file recording the model choices cannot be read."),
        QT_TRANSLATE_NOOP("Code", "Move it aside; the choices are then reset."))
    INVALID_MODEL = "invalid_model", Explanation(
        QT_TRANSLATE_NOOP("Code", "That file is not a usable model."),
        QT_TRANSLATE_NOOP("Code", "Check the file, or download it again."))
    BAD_PACKAGE = "bad_package", Explanation(
        QT_TRANSLATE_NOOP("Code", "That file is not a translation package Sidecar can install; nothing was changed."),
        QT_TRANSLATE_NOOP("Code", "Download the package again from the link Settings → Models gives."))
    INVALID_MODEL_NAME = "invalid_model_name", Explanation(
        QT_TRANSLATE_NOOP("Code", "That is not a valid model name."),
        QT_TRANSLATE_NOOP("Code", "Use letters, digits, '.', '_' and '-', at most 64."))
    UNKNOWN_MODEL = "unknown_model", Explanation(
        QT_TRANSLATE_NOOP("Code", "No model of that name."),
        QT_TRANSLATE_NOOP("Code", "See the list in Settings → Models (or `sidecar models`)."))
    UNKNOWN_ROLE = "unknown_role", Explanation(
        QT_TRANSLATE_NOOP("Code", "No model role of that name."),
        QT_TRANSLATE_NOOP("Code", "Use a role listed by `sidecar models`."))
    ROLE_NOT_SELECTABLE = "role_not_selectable", Explanation(
        QT_TRANSLATE_NOOP("Code", "Sidecar always uses its bundled model for that role."),
        note=True)
    CATALOGUE_MISSING = "catalogue_missing", Explanation(
        QT_TRANSLATE_NOOP("Code", "The model catalogue is missing from the installation."),
        QT_TRANSLATE_NOOP("Code", "Reinstall Sidecar."))
    CATALOGUE_INVALID = "catalogue_invalid", Explanation(
        QT_TRANSLATE_NOOP("Code", "The model catalogue of the installation is damaged."),
        QT_TRANSLATE_NOOP("Code", "Reinstall Sidecar."))
    NO_FILE = "no_file", Explanation(
        QT_TRANSLATE_NOOP("Code", "The request carried no file in the field the endpoint reads."),
        QT_TRANSLATE_NOOP("Code", "Send the audio as the multipart field `audio_file`."))
    EMPTY_UPLOAD = "empty_upload", Explanation(
        QT_TRANSLATE_NOOP("Code", "The uploaded file is empty (0 bytes)."),
        QT_TRANSLATE_NOOP("Code", "Check that the client read the audio before sending it."))
    NOT_AUDIO = "not_audio", Explanation(
        QT_TRANSLATE_NOOP("Code", "The uploaded file holds no audio Sidecar can decode."),
        QT_TRANSLATE_NOOP("Code", "Send a media file with an audio track, or raw 16 kHz mono s16le PCM with encode=false."))
    UPLOAD_TOO_LARGE = "upload_too_large", Explanation(
        QT_TRANSLATE_NOOP("Code", "The upload is larger than the server's limit."),
        QT_TRANSLATE_NOOP("Code", "Raise serve_upload_limit_mb in the settings, or send the audio track alone."))
    UNAUTHORIZED = "unauthorized", Explanation(
        QT_TRANSLATE_NOOP("Code", "The request's token is missing or wrong."),
        QT_TRANSLATE_NOOP("Code", "Send `Authorization: Bearer <serve_token>` (or the token as the URL's password)."))
    UNKNOWN_OUTPUT = "unknown_output", Explanation(
        QT_TRANSLATE_NOOP("Code", "The requested output format is not one Sidecar writes."),
        QT_TRANSLATE_NOOP("Code", "Ask for srt, vtt, txt, json or tsv."))
    OUTSIDE_LIBRARY = "outside_library", Explanation(
        QT_TRANSLATE_NOOP("Code", "The path is not inside a folder added to the library or watched."),
        QT_TRANSLATE_NOOP("Code", "Add or watch the folder, or fix the server path map (serve_path_map)."))
    REFRESH_FAILED = "media_server_refresh_failed", Explanation(
        QT_TRANSLATE_NOOP("Code", "The subtitle was placed, but the media server did not take the request to refresh the item."),
        QT_TRANSLATE_NOOP("Code", "Check the server's address and token in the settings; its next library scan finds the subtitle."),
        note=True)
    # recorded without words so far (a later change gives them theirs)
    FILE_REMOVED = "file_removed", _UNEXPLAINED
    SUPERSEDED = "superseded", _UNEXPLAINED
    RUNTIME_ERROR = "runtime_error", _UNEXPLAINED
    GPU_FALLBACK_CPU = "gpu_fallback_cpu", _UNEXPLAINED

    @classmethod
    def of(cls, value: str) -> Code | None:
        """The member whose string is ``value``; None for a string no member has."""
        member = cls._value2member_map_.get(value)
        return member if isinstance(member, Code) else None


#: Item results a later run may do better, once a translator is installed or reachable: a stage output carrying
#: one is never taken from the results cache, so adding the folder again or "Translate again" redoes that work
#: instead of reporting the item done with nothing written. An item waiting for its translator goes on by itself once
#: the package is installed (:meth:`app.engine.library.Library.resume_waiting`); "Translate again" also takes it.
REDONE_RESULTS: frozenset[str] = frozenset({Code.TRANSLATION_FAILED, Code.WAITING_FOR_TRANSLATOR})


#: The words of every code that has them, in one table so the GUI and ``status`` say the same thing.
EXPLANATIONS: Mapping[str, Explanation] = {code: code.explanation for code in Code if code.explanation.sentence}


def explain(code: str | None) -> Explanation | None:
    """The table's entry for ``code``; None for no code, or a code this table does not know."""
    return EXPLANATIONS.get(code) if code else None
