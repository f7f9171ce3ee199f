"""Typed errors with stable codes.

Every failure that reaches a person or the store carries a lower_snake ``code`` that
never changes between releases (tests, the CLI's JSON and the GUI key on it) and a
human message. ``transient`` decides whether the scheduler retries with backoff or
fails the stage at once. :data:`EXPLANATIONS` gives each code a sentence and what to do
about it, the one place the GUI and the CLI's ``status`` take those words from.
"""

from __future__ import annotations

from dataclasses import dataclass


class SidecarError(Exception):
    """Base of all errors Sidecar reports; ``code`` is stable, ``message`` is for people."""

    code: str = "internal_error"
    transient: bool = False

    def __init__(self, message: str | None = None, *, code: str | None = None, transient: bool | None = None):
        if code is not None:
            self.code = code
        if transient is not None:
            self.transient = transient
        self.message = message or self.code.replace("_", " ")
        super().__init__(self.message)


class MediaError(SidecarError):
    """The person's file cannot be used as it is; retrying will not help."""

    code = "corrupt_media"


class TransientError(SidecarError):
    """Something outside the file went wrong (a crashed runtime, a busy disk); worth a retry."""

    code = "transient_error"
    transient = True


class ModelCrashed(TransientError):
    """A model runtime's child process died; the stage is retried on a fresh process."""

    code = "model_crashed"


class OutOfDeviceMemory(TransientError):
    """A model ran out of GPU memory: the engine releases every model and retries, then falls back to the CPU."""

    code = "gpu_out_of_memory"


class OutOfMemory(SidecarError):
    """A model ran out of memory on the GPU and again on the CPU: the file needs more memory than is free."""

    code = "out_of_memory"


class LeaseLost(SidecarError):
    """This worker no longer owns the stage (expired, reclaimed or cancelled): stop, write nothing."""

    code = "lease_lost"


class StageStopped(SidecarError):
    """The stage stopped at a checkpoint because its job was paused or the engine is shutting down."""

    code = "stopped"


class TargetChanged(SidecarError):
    """The source file changed while it was processed; nothing is placed."""

    code = "target_changed"


class ReviewConflict(SidecarError):
    """A review decision was already recorded by someone else."""

    code = "review_conflict"


class NotFound(SidecarError):
    """A job, item or review the caller named does not exist."""

    code = "not_found"


class NeedsReview(SidecarError):
    """A placement's outcome is unknown or contested; a person decides (SPEC §6)."""

    code = "manual_review"


class ItemNotChangeable(SidecarError):
    """A per-item choice (the queue's audio track) cannot be applied now.

    ``item_skipped``: the file was skipped, so nothing is planned to redo (add it again).
    ``item_in_review``: one of its subtitles is being placed or awaits a decision in Review.
    """

    code = "item_in_review"


class CrashLoop(SidecarError):
    """The engine process itself died on this file again and again: the item is set aside so the queue goes on."""

    code = "crash_loop"


class InvalidPathMap(SidecarError):
    """A ``--path-map`` argument that is not ``ABSOLUTE_PREFIX=ABSOLUTE_PREFIX``, or clashes with another."""

    code = "invalid_path_map"


class WorkerRefused(SidecarError):
    """``sidecar worker`` will not start: a mapping's folder is missing or does not show the library's files."""

    code = "worker_refused"


class MappingUnavailable(TransientError):
    """The mount a mapping points at vanished while a worker held a stage: the claim is given back, not failed."""

    code = "mapping_unavailable"


class NotMapped(SidecarError):
    """No ``--path-map`` of this worker covers the item's path: the stage is left for another machine."""

    code = "not_mapped"


class DatabaseUnusable(SidecarError):
    """The database URL names no backend Sidecar speaks, or its schema is newer than this Sidecar."""

    code = "bad_database_url"


class DatabaseUnavailable(TransientError):
    """The library's database server cannot be reached now (a cut connection, a restart, a partition).

    Transient: the engine keeps running and tries again; a claim it held while cut off is
    left to expire, so another machine (or this one, once reconnected) runs the stage.
    """

    code = "database_unavailable"


class DowngradeRefused(SidecarError):
    """A schema downgrade was asked for: the library database only moves forward.

    Going back would drop tables and columns that stage outputs, fences and other
    machines' leases live in; an older Sidecar opens a copy of the library instead.
    """

    code = "downgrade_refused"


class ModelError(SidecarError):
    """A model-manager request that cannot be done as asked; ``code`` says why."""

    code = "model_error"


# ------------------------------------------------------------------ words for people


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


_TRANSLATION_MODEL = ("Install a translation model in Settings → Models (or `sidecar models`), or set an "
                      "OpenAI-compatible translation server in Settings → Output; then add the folder again: "
                      "the stored transcript is reused, only the translation runs.")
_RETRY = "Sidecar retries it by itself; if it keeps failing, use Retry item later."
_REPORT = "This is a bug in Sidecar: retry the item, and if it fails again send the log (Log tab) with a report."

#: Every stable code a person can meet (item errors, skips, item results, job, model and
#: download errors), in one table so the GUI and ``status`` say the same thing.
EXPLANATIONS: dict[str, Explanation] = {
    # items: the file itself
    "corrupt_media": Explanation("The file cannot be read as media.",
                                 "Check that it plays in a media player; re-encode or replace it, then retry the item."),
    "no_audio_stream": Explanation("The video has no sound track, so there is no speech to subtitle.",
                                   "Nothing to do unless the wrong file was added."),
    "file_missing": Explanation("The file was moved or deleted before Sidecar finished it.",
                                "Put it back and retry the item, or add its new folder."),
    "folder_missing": Explanation("The folder is gone (moved, deleted or on a drive that is not connected).",
                                  "Reconnect the drive or restore the folder, then resume or add it again."),
    "image_too_large": Explanation("The image has more pixels than Sidecar decodes.",
                                   "Scale it down if it should be searchable; nothing else is affected."),
    "unsupported_media": Explanation("No pipeline of this Sidecar handles this kind of file.", _REPORT),
    "target_changed": Explanation("The file changed while Sidecar worked on it, so nothing was written.",
                                  "Add the folder again once the file stops changing."),
    "crash_loop": Explanation("Sidecar itself crashed on this file several times, so it was set aside.",
                              "Check the file plays; send the crash report (Log tab) with a bug report."),
    # items: writing next to the file
    "disk_full": Explanation("The disk holding the folder is full.", "Free some space; Sidecar retries by itself."),
    "permission_denied": Explanation("Sidecar may not write into the file's folder.",
                                     "Give your user write permission on the folder, then retry the item."),
    "write_failed": Explanation("Writing a file next to the media failed.", _RETRY),
    "invalid_name": Explanation("The output name made from the file's name is not allowed here.",
                                "Rename the media file, then add it again."),
    "name_too_long": Explanation("The output name would be longer than the file system allows.",
                                 "Shorten the media file's name, then add it again."),
    "workspace_damaged": Explanation("A file Sidecar prepared in its workspace was damaged before it was placed.",
                                     "Retry the item; check the disk holding Sidecar's data if it happens again."),
    "target_contested": Explanation("Someone else changed the subtitle file while Sidecar was writing it.",
                                    "Decide in the Review tab which version to keep."),
    "manual_review": Explanation("Whether a file was written is unknown or contested.",
                                 "Decide in the Review tab."),
    "person_edited": Explanation("The subtitle file holds your edit from Sidecar's editor; this run made a new version.",
                                 "Decide in the Review tab: Applied keeps your edit, Not applied writes Sidecar's."),
    "skipped_by_review": Explanation("Skipped by a review decision.", note=True),
    # items: models at work
    "model_crashed": Explanation("The model process stopped unexpectedly.", _RETRY),
    "gpu_out_of_memory": Explanation("The graphics card ran out of memory.",
                                     "Sidecar released its models and retries; close other GPU programs if it repeats."),
    "transient_error": Explanation("A temporary problem interrupted the work.", _RETRY),
    "internal_error": Explanation("Sidecar hit an unexpected error.", _REPORT),
    "prompt_too_long": Explanation("A subtitle batch did not fit the translation model's context.",
                                   "Choose a translation model with a larger context in Settings → Models."),
    "endpoint_unavailable": Explanation("The translation server could not be reached or was busy.",
                                        "Check that the server in Settings → Output is running; Sidecar retries."),
    "endpoint_error": Explanation("The translation server refused the request.",
                                  "Check the server address and model name in Settings → Output."),
    "translation_failed": Explanation(
        "Most lines could not be translated, so no translated subtitles were written (only the transcript).",
        _TRANSLATION_MODEL, counted="not translated"),
    # items: outcomes that are not problems
    "translation_fallback": Explanation("A few lines kept their original text; the rest is translated.",
                                        "Check the lines listed; a better translation model fixes them "
                                        "(Settings → Models).", note=True),
    "no_speech": Explanation("No speech was heard, so no subtitles were written.", note=True),
    "already_subtitled": Explanation("A subtitle in the target language is already next to the file.", note=True),
    "embedded_subtitles": Explanation("The video already carries subtitles in the target language.", note=True),
    "out_of_memory": Explanation("The computer ran out of memory for this file, on the graphics card and then on the CPU too.",
                                 "Close other programs or choose a smaller model in Settings → Models, then retry."),
    "raw_no_preview": Explanation("This camera raw file carries no preview picture to index.",
                                  "Export a JPEG of it from your photo software; Sidecar never decodes whole raw files."),
    "item_skipped": Explanation("This file was skipped, so there is nothing to change for it.",
                                "Add its folder again with --redo to process it anyway."),
    "item_in_review": Explanation("A file of this item is waiting for your decision in Review.",
                                  "Decide it in Review first, then change the item."),
    # the subtitle editor
    "no_subtitles": Explanation("Sidecar has not written subtitles for this file, or they are no longer next to it.",
                                "Run a job on its folder first; the subtitles Sidecar writes open here."),
    "changed_on_disk": Explanation("The subtitle file changed on disk after it was opened; nothing was saved over it.",
                                   "Open it again to see that change, then edit."),
    "item_busy": Explanation("Sidecar is working on this file right now.", "Save again when it is done."),
    # jobs and scanning
    "scan_interrupted": Explanation("Adding the folder was interrupted before every file was listed.",
                                    "Add the folder again."),
    "unreadable_file": Explanation("A file could not be read while the folder was added.",
                                   "Check its permissions, then add the folder again."),
    "unreadable_folder": Explanation("A folder could not be read while it was added.",
                                     "Check its permissions, then add the folder again."),
    "symlink_loop": Explanation("A folder link leads back into a folder already scanned; it was scanned once.",
                                note=True),
    "file_vanished": Explanation("A file disappeared while the folder was added.", "Add the folder again if needed."),
    "watch_overlaps": Explanation("The folder lies inside (or holds) a folder already watched.",
                                  "Watch only one of the two folders."),
    "already_watched": Explanation("That folder is already watched.", note=True),
    "watch_missing": Explanation("No such watched folder.", "Check the list of watched folders in Settings."),
    "review_conflict": Explanation("Someone else decided this review first.",
                                   "Look at the decision now shown and decide again if needed."),
    "not_found": Explanation("The job, item or review no longer exists.", "Refresh the list."),
    "stopped": Explanation("The work stopped at a checkpoint (paused or closing) and resumes later.", note=True),
    "lease_lost": Explanation("Another worker took over this step.", note=True),
    "cancelled": Explanation("Cancelled.", note=True),
    "invalid_path_map": Explanation("A --path-map is not LIBRARY_PREFIX=LOCAL_PREFIX with two absolute paths.",
                                    "Write it as /mnt/nas/media=D:\\Media (quote it in the shell)."),
    "worker_refused": Explanation("The worker did not start: a mapped folder is missing or does not show the library's files.",
                                  "Mount the share, or fix the --path-map so its local side shows the same files."),
    "mapping_unavailable": Explanation("A worker's mapped folder disappeared while it worked; the step was given back.",
                                       "Another machine (or this one, once the folder is back) takes it over.", note=True),
    "not_mapped": Explanation("No --path-map of the worker covers this file; it was left for another machine.",
                              note=True),
    "engine_starting": Explanation("The engine is still starting.", "Try again in a moment."),
    "gui_thread_blocked": Explanation("The window called the engine on its own thread.", _REPORT),
    "invalid_argument": Explanation("The request is not valid.", "Check the command's options (`--help`)."),
    "invalid_setting": Explanation("A setting has a value Sidecar does not know.", "Fix it in Settings."),
    "glossary_unreadable": Explanation("The glossary file could not be read as text.",
                                       "Give a UTF-8 text file with one `term` or `term = translation` a line."),
    "no_media_kinds": Explanation("This Sidecar has no media pipelines registered.", _REPORT),
    "no_visual_model": Explanation("Searching by image needs a visual (CLIP) model.",
                                   "Install one in Settings → Models (or `sidecar models`)."),
    "bad_database_url": Explanation("The library database cannot be opened from that URL.",
                                    "Use postgresql+psycopg://user@host:port/db or sqlite:///absolute/path (--database-url, "
                                    "SIDECAR_DATABASE_URL or the database_url setting)."),
    "database_unavailable": Explanation("The library database's server cannot be reached.",
                                        "Check the network and that PostgreSQL runs; Sidecar reconnects by itself."),
    "downgrade_refused": Explanation("The library database cannot be moved back to an older schema.",
                                     "Open a backup of the library with the older Sidecar instead."),
    "database_too_new": Explanation("This library was written by a newer Sidecar.", "Update Sidecar."),
    "resource_missing": Explanation("A file of the installation is missing.", "Reinstall Sidecar."),
    # models and downloads
    "bundled_model_missing": Explanation("A model that ships with Sidecar is missing.", "Reinstall Sidecar."),
    "bundled_model": Explanation("That model ships with Sidecar and needs no install.", note=True),
    "checksum_mismatch": Explanation("A downloaded model does not match its published checksum.",
                                     "Install it again; the damaged download was not used."),
    "download_failed": Explanation("The model download failed.", "Check the connection and install again; "
                                   "the download resumes where it stopped."),
    "download_cancelled": Explanation("The download was cancelled; what was fetched is kept for a resume.", note=True),
    "not_enough_disk": Explanation("There is not enough free disk space for the model.",
                                   "Free space on the disk holding Sidecar's data, then install again."),
    "not_downloadable": Explanation("That model cannot be downloaded by Sidecar.",
                                    "Register a local copy with `sidecar models register`."),
    "install_in_progress": Explanation("That model is already being installed.", "Wait for it to finish."),
    "model_error": Explanation("The model request cannot be done as asked.", "See the message for why."),
    "model_missing": Explanation("The chosen model's files are missing.",
                                 "Install the model again, or choose another in Settings → Models."),
    "model_not_installed": Explanation("That model is not installed.", "Install it first (Settings → Models)."),
    "model_invalid": Explanation("A model gave answers of the wrong shape.", "Reinstall the model."),
    "model_load_failed": Explanation("A model could not be loaded.", "Reinstall the model, or choose another."),
    "model_path_missing": Explanation("No model file at that path.", "Check the path and register it again."),
    "model_name_taken": Explanation("That model name is already used.", "Choose another name."),
    "model_state_corrupt": Explanation("The file recording the model choices cannot be read.",
                                       "Move it aside; the choices are then reset."),
    "invalid_model": Explanation("That file is not a usable model.", "Check the file, or download it again."),
    "invalid_model_name": Explanation("That is not a valid model name.",
                                      "Use letters, digits, '.', '_' and '-', at most 64."),
    "unknown_model": Explanation("No model of that name.", "See the list in Settings → Models (or `sidecar models`)."),
    "unknown_role": Explanation("No model role of that name.", "Use a role listed by `sidecar models`."),
    "role_not_selectable": Explanation("Sidecar always uses its bundled model for that role.", note=True),
    "catalogue_missing": Explanation("The model catalogue is missing from the installation.", "Reinstall Sidecar."),
    "catalogue_invalid": Explanation("The model catalogue of the installation is damaged.", "Reinstall Sidecar."),
}


def explain(code: str | None) -> Explanation | None:
    """The table's entry for ``code``; None for no code, or a code this table does not know."""
    return EXPLANATIONS.get(code) if code else None
