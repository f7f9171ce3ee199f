"""The frame rate a video's subtitle gaps are counted in (issue 37: "2 frames at the video's frame rate").

Read from the header the extract stage opens anyway (:func:`app.media.audio.extract_audio`),
so it costs no second open and no ``ffprobe`` process. FFmpeg gives two rates per stream:
``avg_frame_rate`` (frames over duration) and ``r_frame_rate`` (the lowest rate that
represents every timestamp). A constant-rate video has both equal, or only one of them
set; when both are set and disagree the video's rate varies, and no single frame length
holds for it. Then, and when neither is usable (0/0, absent, a cover picture's 90000/1),
the rate is None and the craft rules use their default (:data:`app.media.craft.DEFAULT_FPS`),
whose 84 ms gaps are two frames or more at every common rate.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

#: Rates outside this range are a container's time base, not a picture rate (a timestamp-only MKV says 1000).
_PLAUSIBLE = (1.0, 240.0)
#: avg and r rates further apart than this share are a variable rate (a constant one differs by rounding only).
_VARIABLE = 0.002


def _usable(rate: Fraction | None) -> float | None:
    if rate is None or rate.denominator == 0 or rate <= 0:
        return None
    value = float(rate)
    return value if _PLAUSIBLE[0] <= value <= _PLAUSIBLE[1] else None


def stream_frame_rate(average: Fraction | None, base: Fraction | None) -> float | None:
    """One video stream's constant frame rate from its average and base (``r_frame_rate``) rates; None: unknown or variable."""
    avg, real = _usable(average), _usable(base)
    if avg and real and abs(avg - real) > _VARIABLE * real:
        return None
    return avg or real


def video_frame_rate(container: Any) -> float | None:
    """The frame rate of an open PyAV container's first picture stream (not a cover image); None: audio only,
    or no constant rate."""
    import av.stream

    for stream in container.streams.video:
        if stream.disposition & (av.stream.Disposition.attached_pic | av.stream.Disposition.still_image):
            continue
        return stream_frame_rate(stream.average_rate, stream.base_rate)
    return None


__all__ = ["stream_frame_rate", "video_frame_rate"]
