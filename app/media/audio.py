"""Extract a video's speech track once, as 16 kHz mono float32 (the ``extract_audio`` stage).

Whisper wants 16 kHz mono float32. Decoding a film's audio takes a while, so it is
done once, on the CPU (outside the GPU gate), into the item's workspace; the
transcribe stage then memory-maps the result. The file is raw little-endian float32
(``.f32``) rather than ``.npy`` because its length is unknown until decoding ends and
raw samples can be streamed to disk without holding a two-hour film in memory.

The file is on the player's timeline, not the audio stream's: sample ``n`` plays at
``n / 16000`` s after what a player shows as 0:00. Recordings rarely start their audio
there (a TV recorder's MPEG-TS starts at ~1.4 s, a remux may delay the audio by
seconds, packets go missing), so the audio is placed by its timestamps, with silence
for late starts and holes (:class:`_Timeline`). Cue times built from it then match
the picture with no time map to carry through the later stages.

:func:`load_audio` reads from an offset only: a transcription resumed after a
checkpoint at 41 min never touches the first 41 minutes again. It can read a window
too, which is how Whisper gets a film: a few minutes at a time. Each read is recorded
in :data:`READS` (per process) so tests can prove it.
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Callable

import numpy as np

from app.errors import Code, MediaError
from app.media.ffmpeg_reasons import ffmpeg_reason
from app.media.frame_rate import video_frame_rate
from app.atomic_write import fsync_dir

if TYPE_CHECKING:  # PyAV is imported where it decodes, not when this module loads
    import av

log = logging.getLogger(__name__)

SAMPLE_RATE = 16_000
_DTYPE = np.dtype("<f4")
#: Share of packets allowed to fail decoding before the file counts as corrupt.
_MAX_BAD_PACKET_SHARE = 0.5
#: Timestamp jumps larger than this inside the audio are holes, filled with silence (ffmpeg's ``min_hard_comp``).
_GAP_TOLERANCE_S = 0.1


@dataclass(frozen=True)
class AudioInfo:
    """What :func:`extract_audio` wrote."""

    path: Path
    samples: int
    duration_s: float  # of the extracted audio
    media_duration_s: float | None  # of the container (video may outlast audio)
    stream_index: int
    sample_rate: int = SAMPLE_RATE
    frame_rate: float | None = None  # the picture's constant rate (app.media.frame_rate); None: audio only or variable

    def to_dict(self) -> dict[str, object]:
        return {
            "path": str(self.path),
            "samples": self.samples,
            "duration_s": self.duration_s,
            "media_duration_s": self.media_duration_s,
            "stream_index": self.stream_index,
            "sample_rate": self.sample_rate,
            "frame_rate": self.frame_rate,
        }


@dataclass(frozen=True)
class AudioRead:
    """One :func:`load_audio` call: which samples were actually mapped."""

    path: str
    first_sample: int
    samples: int


#: Every read this process made, oldest first (tests assert on it; tiny records).
READS: list[AudioRead] = []


def _corrupt(src: Path, detail: str) -> MediaError:
    return MediaError(f"{src.name} cannot be read as media: {detail}", code=Code.CORRUPT_MEDIA)


def extract_audio(src: Path, dest: Path, stream_index: int | None = None,
                  progress: Callable[[float], None] | None = None) -> AudioInfo:
    """Decode one audio stream of ``src`` into ``dest`` (raw 16 kHz mono float32).

    ``stream_index`` is the container's index of the stream to decode
    (:mod:`app.media.audio_streams` chooses it); None decodes the first audio stream.

    Written to a hidden temp file beside ``dest`` (in the workspace), fsynced and
    renamed, so a crash never leaves a half file that a resume would trust.

    Raises ``MediaError`` with code ``no_audio_stream`` for a video without audio,
    ``corrupt_media`` for anything unreadable (truncated, not media, no decodable
    samples) and ``file_missing`` when ``src`` is gone. All are permanent: retrying
    does not help. ``progress`` hears the share of the media decoded so far after
    every packet: the engine's stall watchdog counts it as bytes read.
    """
    import av  # PyAV; imported here so modules that only read audio need not load FFmpeg

    src, dest = Path(src), Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        container = av.open(str(src), metadata_errors="ignore")
    except FileNotFoundError as exc:
        raise MediaError(f"{src} does not exist (moved or deleted?)", code=Code.FILE_MISSING) from exc
    except (av.FFmpegError, ValueError, OSError) as exc:
        raise _corrupt(src, ffmpeg_reason(exc)) from exc
    tmp = dest.parent / f".{dest.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    try:
        with container:
            if not container.streams.audio:
                raise MediaError(f"{src.name} has no audio stream, so there is no speech to transcribe", code=Code.NO_AUDIO_STREAM)
            stream = next((s for s in container.streams.audio if s.index == stream_index), container.streams.audio[0])
            decoded_index = stream.index  # read while the container is open (PyAV's stream is gone after)
            media_duration = container.duration / 1_000_000 if container.duration else None
            frame_rate = video_frame_rate(container)
            samples = _decode_to(container, stream, tmp, src, progress)
        if samples == 0:
            raise _corrupt(src, "its audio stream has no decodable samples")
        os.replace(tmp, dest)
        fsync_dir(dest.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return AudioInfo(
        path=dest,
        samples=samples,
        duration_s=samples / SAMPLE_RATE,
        media_duration_s=media_duration,
        stream_index=decoded_index,
        frame_rate=frame_rate,
    )


class _Timeline:
    """Writes resampled audio where the player shows it: silence before late starts and in holes.

    Sample ``n`` of the file is at ``n / SAMPLE_RATE`` seconds on the player's clock
    (0:00 = the presentation start, the earliest start among the container's streams),
    so every later time (segments, cues, resume offsets) needs no correction. Audio
    timed before 0:00 (an edit list cutting the audio's head) is dropped. Inside the
    stream, a frame whose timestamp runs more than :data:`_GAP_TOLERANCE_S` past the
    audio fed so far starts after a hole (missing packets, a recorder's dropout): the
    hole becomes silence. Smaller differences, at the start too (an Opus or AAC
    priming of a few milliseconds), are ignored: far below what a viewer notices, and
    a gapless stream starting within them is written exactly as a plain sequential
    decode, so files that were subtitled right before keep the very same cues. A timestamp
    past the container's end is damage, not a hole: that audio follows on without
    silence, so a broken file cannot make the workspace fill with hours of zeros.
    """

    def __init__(self, out: BinaryIO, origin_s: float, duration_s: float | None):
        import av

        self._av = av
        self._out = out
        self._origin = origin_s
        self._end = duration_s
        self._resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
        self._fed_s: float | None = None  # timeline position where the next fed frame would start
        self._skip = 0  # samples still to drop (audio before 0:00)
        self.samples = 0

    def add(self, frame: av.AudioFrame) -> None:
        at = None if frame.pts is None or frame.time_base is None else float(frame.pts * frame.time_base) - self._origin
        if at is not None and self._end is not None and at > self._end:
            at = None
        if self._fed_s is None:
            start = at if at is not None and abs(at) > _GAP_TOLERANCE_S else 0.0
            self._silence(round(start * SAMPLE_RATE))
            self._skip = max(0, round(-start * SAMPLE_RATE))
            self._fed_s = start
        elif at is not None and at - self._fed_s > _GAP_TOLERANCE_S:
            self.flush()  # the resampler's buffered tail belongs before the hole
            self._resampler = self._av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
            log.info("audio resumes at %.2f s after a %.2f s hole; filled with silence", at, at - self._fed_s)
            self._silence(round(at * SAMPLE_RATE) - self.samples)
            self._fed_s = at
        self._write(self._resampler.resample(frame))
        self._fed_s += frame.samples / frame.sample_rate

    def flush(self) -> None:
        self._write(self._resampler.resample(None))

    def _silence(self, count: int) -> None:
        if count > 0:
            self._out.write(np.zeros(count, dtype=_DTYPE).tobytes())
            self.samples += count

    def _write(self, frames: list) -> None:
        for frame in frames:
            data = frame.to_ndarray().reshape(-1).astype(_DTYPE, copy=False)
            if self._skip:
                dropped = min(self._skip, data.size)
                data, self._skip = data[dropped:], self._skip - dropped
            self._out.write(data.tobytes())
            self.samples += data.size


def _presentation_start(container: av.container.InputContainer, stream: av.AudioStream) -> float:
    """Seconds a player shows as 0:00: the container's start (its earliest stream), else the audio's own."""
    if container.start_time is not None:
        return container.start_time / 1_000_000
    if stream.start_time is not None and stream.time_base is not None:
        return float(stream.start_time * stream.time_base)
    return 0.0


def _decode_to(container: av.container.InputContainer, stream: av.AudioStream, tmp: Path, src: Path,
               progress: Callable[[float], None] | None = None) -> int:
    """Demux packet by packet so one damaged packet costs that packet, not the file."""
    import av

    packets = bad = 0
    with open(tmp, "wb") as out:
        duration = container.duration / 1_000_000 if container.duration else None
        timeline = _Timeline(out, _presentation_start(container, stream), duration)
        try:
            for packet in container.demux(stream):
                packets += 1
                try:
                    for frame in packet.decode():
                        timeline.add(frame)
                except av.error.InvalidDataError:
                    bad += 1
                if progress is not None:
                    progress(min(1.0, timeline.samples / SAMPLE_RATE / duration) if duration else 0.0)
            timeline.flush()
        except av.FFmpegError as exc:
            if timeline.samples == 0:
                raise _corrupt(src, ffmpeg_reason(exc)) from exc
            raise _corrupt(src, f"decoding stopped after {timeline.samples / SAMPLE_RATE:.1f} s: {ffmpeg_reason(exc)}") from exc
        if packets and bad / packets > _MAX_BAD_PACKET_SHARE:
            raise _corrupt(src, f"{bad} of {packets} audio packets are damaged")
        out.flush()
        os.fsync(out.fileno())
    return timeline.samples


def audio_duration(path: Path) -> float:
    """Seconds of audio in an extracted ``.f32`` file, without reading it."""
    return Path(path).stat().st_size // _DTYPE.itemsize / SAMPLE_RATE


def load_audio(path: Path | str, offset_s: float = 0.0, duration_s: float | None = None) -> np.ndarray:
    """Samples from ``offset_s`` on (to the end, or ``duration_s`` of them), memory-mapped: other audio is never read.

    Returns a read-only float32 array (a view on the file's pages); an offset at or
    past the end gives an empty array. Reading a film in windows keeps the pages it
    maps, and so the reader's memory, the same for any length.
    """
    path = Path(path)
    total = path.stat().st_size // _DTYPE.itemsize
    first = min(total, max(0, int(round(offset_s * SAMPLE_RATE))))
    count = total - first
    if duration_s is not None:
        count = min(count, max(0, int(round(duration_s * SAMPLE_RATE))))
    READS.append(AudioRead(str(path), first, count))
    if count == 0:
        return np.zeros(0, dtype=np.float32)
    return np.memmap(path, dtype=_DTYPE, mode="r", offset=first * _DTYPE.itemsize, shape=(count,))
