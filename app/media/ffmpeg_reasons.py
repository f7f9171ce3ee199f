"""FFmpeg's errors as a sentence a person can act on, never ``[Errno 1094995529]``.

PyAV raises FFmpeg's error codes as exceptions whose text starts with the raw number
(``AVERROR_INVALIDDATA`` is 1094995529, a four-letter tag) and ends with the file's path.
Neither means anything to the person reading the queue's Error column; the kind of error
does, so each kind FFmpeg reports for a file it cannot read gets its own words here.
"""

from __future__ import annotations

#: PyAV exception class name → what it says about the person's file.
REASONS = {
    "InvalidDataError": "its data is not valid media (the file is damaged, or not a video or audio file)",
    "EOFError": "the file ends before its media does (cut off while copying or downloading?)",
    "DecoderNotFoundError": "it is encoded in a format this Sidecar cannot decode",
    "DemuxerNotFoundError": "its container format is one this Sidecar cannot open",
    "PatchWelcomeError": "it uses a feature FFmpeg does not support yet",
    "PermissionError": "Sidecar is not allowed to read it",
    "IsADirectoryError": "it is a folder, not a file",
    "MemoryError": "decoding it needs more memory than is free",
}


def ffmpeg_reason(exc: BaseException) -> str:
    """Why FFmpeg could not read a file, in words: the kind's sentence, else FFmpeg's own text without number or path."""
    for kind in type(exc).__mro__:
        if kind.__name__ in REASONS and kind.__module__.startswith("av"):
            return REASONS[kind.__name__]
    text = getattr(exc, "strerror", None) or str(exc)
    return str(text).strip() or type(exc).__name__
