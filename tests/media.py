"""Real media for tests, generated on the spot (no binary fixtures in the repository).

Speech comes from ``espeak-ng`` (English and German are intelligible to Whisper),
video tracks from FFmpeg's ``color`` source, containers and audio-only files (MP3,
FLAC, Opus…) from the ``ffmpeg`` CLI.
Everything is deterministic (fixed text, voices, rates, bit-exact flags) and built
lazily, once per test session, by :class:`MediaFactory` (the ``media`` fixture).

Recordings whose audio does not start at the picture's 0:00 are built with a known
timeline (:class:`TimedClip`): speech delayed in the container, a hole inside the
audio stream, an MPEG-TS as a recorder writes it. Where each sentence starts is
computed from how the file was built, never from what Sidecar extracts.

Broken inputs are real too: a video without an audio stream, an MP4 cut in half
(its index is at the end, so the rest is unreadable), a text file named ``.mkv``.
"""

from __future__ import annotations

import shutil
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: Distinct, numbered English sentences: each has one rare key word tests look for.
ENGLISH_SENTENCES = [
    "Sentence one. The yellow submarine travels slowly across the quiet ocean.",
    "Sentence two. My grandmother bakes chocolate cookies every Sunday afternoon.",
    "Sentence three. The library closes early because of the winter storm.",
    "Sentence four. Seven elephants walked through the dusty village at noon.",
    "Sentence five. Please remember to water the tomato plants in the garden.",
    "Sentence six. The train to London leaves from platform number nine.",
    "Sentence seven. Our teacher explained the history of ancient Egypt.",
    "Sentence eight. A small guitar was lying on the kitchen table.",
    "Sentence nine. The children built a snowman with a carrot nose.",
    "Sentence ten. Thank you for listening to this short recording.",
]
ENGLISH_KEY_WORDS = ["submarine", "chocolate", "library", "elephants", "tomato", "London", "Egypt", "guitar", "snowman"]

GERMAN_TEXT = (
    "Guten Morgen. Heute ist das Wetter sehr schön, und wir gehen zusammen in den Park. "
    "Am Nachmittag trinke ich gerne einen Kaffee mit Milch und lese die Zeitung. "
    "Morgen fahren wir mit dem Zug nach Berlin."
)
SHORT_ENGLISH_TEXT = "Hello there. This is a short test of the subtitle machine. The weather is lovely today."
#: Words of SHORT_ENGLISH_TEXT that Whisper base hears whatever the decoder's rounding. Not
#: "subtitle": the same clip decoded by faster-whisper and by Sidecar (samples within one
#: 16-bit step of each other) is heard as "on the subtitle" and as "of some title".
SHORT_ENGLISH_KEY_WORDS = ["hello", "short", "machine", "lovely"]

#: Short sentences with one key word each, spoken apart: each becomes its own cue.
TIMELINE_SENTENCES = [
    ("submarine", "The yellow submarine travels slowly across the ocean."),
    ("chocolate", "My grandmother bakes chocolate cookies on Sunday."),
    ("elephant", "Seven elephants walked through the dusty village."),
]
#: Silence between the timeline sentences (seconds).
TIMELINE_PAUSE_S = 1.2
#: One sentence per audio track of the multi-track clips, each with its own key word.
TRACK_SENTENCES = {
    "submarine": ("en-us", "The yellow submarine travels slowly across the quiet ocean."),
    "chocolate": ("en-us", "My grandmother bakes chocolate cookies every Sunday afternoon for the whole family."),
    "Milch": ("de", "Am Nachmittag lese ich die Zeitung und trinke einen Kaffee mit Milch."),
}

#: The AAC frame: sentence parts are padded to whole frames so a timestamp jump lands between two.
_AAC_FRAME = 1024

_BITEXACT = ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1"]


def _run(args: list[str]) -> None:
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{args[0]} failed ({proc.returncode}): {proc.stderr[-2000:]}")


def wav_duration(path: Path) -> float:
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / wav.getframerate()


def speak(text: str, voice: str, dest: Path, *, ssml: bool = False, speed: int = 150) -> Path:
    """Speech as a WAV file (espeak-ng, 22.05 kHz mono)."""
    args = ["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(dest)]
    if ssml:
        args.append("-m")
    _run(args + [text])
    return dest


def mux(audio: Path | None, dest: Path, *, seconds: float | None = None, audio_codec: str = "aac",
        frame_rate: str = "10") -> Path:
    """A small video (160x90 navy, 10 fps or ``frame_rate``, as FFmpeg writes a rate) with ``audio`` as its sound;
    no audio when None."""
    suffix = dest.suffix.lower()
    video_codec = ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "50k"] if suffix == ".webm" else [
        "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
    if suffix == ".webm":
        audio_codec = "libopus"
    args = ["ffmpeg", "-y", "-v", "error", "-threads", "1", "-f", "lavfi", "-i", f"color=c=navy:s=160x90:r={frame_rate}"]
    if audio is not None:
        args += ["-i", str(audio), "-map", "0:v", "-map", "1:a", "-c:a", audio_codec, "-b:a", "64k", "-shortest"]
    else:
        args += ["-an"]
    if seconds is not None:
        args += ["-t", f"{seconds:.3f}"]
    _run(args + video_codec + _BITEXACT + [str(dest)])
    return dest


#: Encoders for audio-only files, by extension (FFmpeg picks the container from the name).
AUDIO_CODECS = {".mp3": ["-c:a", "libmp3lame"], ".flac": ["-c:a", "flac"], ".opus": ["-c:a", "libopus"],
                ".ogg": ["-c:a", "libvorbis"], ".m4a": ["-c:a", "aac"], ".wav": ["-c:a", "pcm_s16le"]}


def encode_audio(wav: Path, dest: Path) -> Path:
    """``wav`` as an audio-only file in the format ``dest``'s extension names (64 kbit/s where lossy)."""
    _run(["ffmpeg", "-y", "-v", "error", "-threads", "1", "-i", str(wav), *AUDIO_CODECS[dest.suffix.lower()],
          "-b:a", "64k", *_BITEXACT, str(dest)])
    return dest


def silence_wav(dest: Path, seconds: float) -> Path:
    _run(["ffmpeg", "-y", "-v", "error", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", f"{seconds:.3f}",
          "-c:a", "pcm_s16le", *_BITEXACT, str(dest)])
    return dest


def speech_onset(samples: np.ndarray, rate: int, threshold: float = 0.02) -> float:
    """Seconds to the first sample louder than ``threshold`` (full scale 1.0): where speech starts."""
    loud = np.flatnonzero(np.abs(samples) > threshold)
    assert loud.size, "no speech in the samples"
    return float(loud[0]) / rate


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    """Mono 16-bit WAV as floats in [-1, 1], and its sample rate."""
    with wave.open(str(path), "rb") as wav:
        assert wav.getnchannels() == 1 and wav.getsampwidth() == 2
        data = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
        return data.astype(np.float32) / 32768.0, wav.getframerate()


def write_wav(dest: Path, samples: np.ndarray, rate: int) -> Path:
    with wave.open(str(dest), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes((np.clip(samples, -1.0, 1.0) * 32767).astype("<i2").tobytes())
    return dest


@dataclass(frozen=True)
class AudioTrack:
    """One audio stream of a multi-track clip: which :data:`TRACK_SENTENCES` entry it speaks, and its tags."""

    key: str
    language: str = ""  # the stream's language tag (``eng``, ``ger``); untagged when empty
    disposition: str = "0"  # ffmpeg's -disposition value: ``default``, ``comment``, ``default+comment``…
    title: str = ""


@dataclass(frozen=True)
class TimedClip:
    """A generated recording and where each of :data:`TIMELINE_SENTENCES` starts on the player's clock."""

    path: Path
    onsets: tuple[float, ...]  # seconds after what a player shows as 0:00, one per sentence


def media_duration(path: Path) -> float:
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", str(path)],
        capture_output=True, text=True, check=True,
    )
    return float(out.stdout.strip())


class MediaFactory:
    """Builds each clip on first use and returns the cached path afterwards."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self._cache: dict[str, Path] = {}

    wav_seconds = staticmethod(wav_duration)
    media_seconds = staticmethod(media_duration)

    def _once(self, key: str, build) -> Path:
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]

    # speech ---------------------------------------------------------------
    def english_long_wav(self) -> Path:
        """≥ 40 s of ten numbered English sentences with 0.8 s pauses between them."""

        def build() -> Path:
            ssml = "<speak>" + '<break time="800ms"/>'.join(ENGLISH_SENTENCES) + "</speak>"
            wav = speak(ssml, "en-us", self.root / "english_long.wav", ssml=True, speed=140)
            assert wav_duration(wav) >= 40.0, f"english clip only {wav_duration(wav):.1f} s"
            return wav

        return self._once("english_long_wav", build)

    def english_long(self, suffix: str = ".mp4") -> Path:
        """The long English clip as a video (``.mp4`` h264/aac, ``.mkv`` or ``.webm``)."""
        return self._once(f"english_long{suffix}", lambda: mux(self.english_long_wav(), self.root / f"english_long{suffix}"))

    def english_short(self, suffix: str = ".mp4") -> Path:
        def build() -> Path:
            wav = speak(SHORT_ENGLISH_TEXT, "en-us", self.root / "english_short.wav")
            return mux(wav, self.root / f"english_short{suffix}")

        return self._once(f"english_short{suffix}", build)

    def english_short_at(self, frame_rate: str) -> Path:
        """The short English speech as an MP4 whose picture runs at ``frame_rate`` (``25``, ``30000/1001``)."""

        def build() -> Path:
            self.english_short(".mp4")  # writes english_short.wav
            name = "english_short_" + frame_rate.replace("/", "_") + "fps.mp4"
            return mux(self.root / "english_short.wav", self.root / name, frame_rate=frame_rate)

        return self._once(f"english_short_at_{frame_rate}", build)

    def english_short_with_cover(self) -> Path:
        """The short English speech as an MP3 carrying a cover picture (a video stream that is not a video)."""

        def build() -> Path:
            self.english_short(".mp4")  # writes english_short.wav
            dest = self.root / "english_short_cover.mp3"
            _run(["ffmpeg", "-y", "-v", "error", "-threads", "1", "-i", str(self.root / "english_short.wav"),
                  "-f", "lavfi", "-i", "color=c=navy:s=64x64:d=0.1", "-frames:v", "1", "-map", "0:a", "-map", "1:v",
                  "-c:a", "libmp3lame", "-b:a", "64k", "-c:v", "mjpeg", "-disposition:v", "attached_pic",
                  *_BITEXACT, str(dest)])
            return dest

        return self._once("english_short_with_cover", build)

    def english_short_audio(self, suffix: str = ".mp3") -> Path:
        """The short English speech as an audio file (``.mp3``, ``.flac``, ``.opus``…), no video."""

        def build() -> Path:
            self.english_short(".mp4")  # writes english_short.wav
            return encode_audio(self.root / "english_short.wav", self.root / f"english_short_audio{suffix}")

        return self._once(f"english_short_audio{suffix}", build)

    def german_audio(self, suffix: str = ".flac") -> Path:
        def build() -> Path:
            self.german(".mkv")  # writes german.wav
            return encode_audio(self.root / "german.wav", self.root / f"german_audio{suffix}")

        return self._once(f"german_audio{suffix}", build)

    def german(self, suffix: str = ".mkv") -> Path:
        def build() -> Path:
            wav = speak(GERMAN_TEXT, "de", self.root / "german.wav")
            return mux(wav, self.root / f"german{suffix}")

        return self._once(f"german{suffix}", build)

    def silence(self, seconds: float = 8.0) -> Path:
        """A video whose audio track is pure digital silence."""
        return self._once(
            f"silence{seconds}",
            lambda: mux(silence_wav(self.root / "silence.wav", seconds), self.root / "silence.mp4"),
        )

    # real recordings' timelines ----------------------------------------------
    def _timeline_parts(self) -> tuple[list[np.ndarray], int, list[float]]:
        """The timeline sentences, each followed by its pause and padded to whole AAC frames,
        with the speech onset inside each part."""
        parts, onsets, rate = [], [], 0
        for i, (_, sentence) in enumerate(TIMELINE_SENTENCES):
            samples, rate = read_wav(speak(sentence, "en-us", self.root / f"timeline{i}.wav"))
            onsets.append(speech_onset(samples, rate))
            padded = -(-(samples.size + int(TIMELINE_PAUSE_S * rate)) // _AAC_FRAME) * _AAC_FRAME
            parts.append(np.pad(samples, (0, padded - samples.size)))
        return parts, rate, onsets

    def timeline_speech(self) -> TimedClip:
        """The three timeline sentences as one WAV starting at 0 s."""

        def build() -> TimedClip:
            parts, rate, onsets = self._timeline_parts()
            starts = np.cumsum([0] + [p.size for p in parts[:-1]]) / rate
            wav = write_wav(self.root / "timeline.wav", np.concatenate(parts), rate)
            return TimedClip(wav, tuple(float(s + o) for s, o in zip(starts, onsets)))

        return self._once("timeline_speech", build)

    def speech_at_zero(self) -> TimedClip:
        """The timeline sentences muxed at t=0 in an MP4, as every earlier test clip is."""
        speech = self.timeline_speech()
        return self._once("speech_at_zero", lambda: TimedClip(mux(speech.path, self.root / "at_zero.mp4"), speech.onsets))

    def delayed(self, suffix: str, seconds: float = 4.0) -> TimedClip:
        """The picture from 0:00, the audio stream starting ``seconds`` later (``-itsoffset``: an edit list
        in MP4, a later first timestamp in Matroska and MPEG-TS)."""
        speech = self.timeline_speech()

        def build() -> TimedClip:
            dest = self.root / f"delayed{seconds:g}{suffix}"
            _run(["ffmpeg", "-y", "-v", "error", "-threads", "1", "-f", "lavfi", "-i", "color=c=navy:s=160x90:r=10",
                  "-itsoffset", f"{seconds:.3f}", "-i", str(speech.path), "-map", "0:v", "-map", "1:a",
                  "-c:a", "aac", "-b:a", "64k", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                  "-t", f"{seconds + wav_duration(speech.path):.3f}", *_BITEXACT, str(dest)])
            return TimedClip(dest, tuple(t + seconds for t in speech.onsets))

        return self._once(f"delayed{seconds}{suffix}", build)

    def audio_hole(self, seconds: float = 3.0) -> TimedClip:
        """An MKV whose audio packets are missing for ``seconds`` after the first sentence: the
        timestamps jump (as after a recorder's dropout); no silent packets fill the hole."""
        speech = self.timeline_speech()

        def build() -> TimedClip:
            parts, rate, _ = self._timeline_parts()
            jump_at = parts[0].size / rate  # a whole number of AAC frames: the jump falls between two
            dest = self.root / "audio_hole.mkv"
            _run(["ffmpeg", "-y", "-v", "error", "-threads", "1", "-f", "lavfi", "-i", "color=c=navy:s=160x90:r=10",
                  "-i", str(speech.path), "-filter_complex",
                  f"[1:a]asetnsamples=n={_AAC_FRAME},asetpts='PTS+gte(T\\,{jump_at - 0.001:.6f})*{seconds:g}/TB'[a]",
                  "-map", "0:v", "-map", "[a]", "-c:a", "aac", "-b:a", "64k", "-c:v", "libx264", "-preset",
                  "ultrafast", "-pix_fmt", "yuv420p", "-t", f"{seconds + wav_duration(speech.path):.3f}",
                  *_BITEXACT, str(dest)])
            return TimedClip(dest, tuple(t + (seconds if t > jump_at else 0.0) for t in speech.onsets))

        return self._once(f"audio_hole{seconds}", build)

    def recorder_ts(self, audio_delay: float = 1.5) -> TimedClip:
        """An MPEG-TS as a DVB recorder writes it: MPEG-2 video and MP2 audio, timestamps from ~1.4 s
        (players show that as 0:00), the audio starting ``audio_delay`` after the picture."""
        speech = self.timeline_speech()

        def build() -> TimedClip:
            dest = self.root / "recorder.ts"
            _run(["ffmpeg", "-y", "-v", "error", "-threads", "1", "-f", "lavfi", "-i", "color=c=navy:s=160x90:r=25",
                  "-itsoffset", f"{audio_delay:.3f}", "-i", str(speech.path), "-map", "0:v", "-map", "1:a",
                  "-c:a", "mp2", "-b:a", "128k", "-ar", "48000", "-c:v", "mpeg2video", "-b:v", "200k",
                  "-t", f"{audio_delay + wav_duration(speech.path):.3f}", *_BITEXACT, "-f", "mpegts", str(dest)])
            return TimedClip(dest, tuple(t + audio_delay for t in speech.onsets))

        return self._once(f"recorder_ts{audio_delay}", build)

    # several audio tracks, languages ------------------------------------------
    def audio_tracks(self, name: str, *tracks: AudioTrack) -> Path:
        """An MKV whose audio streams speak ``tracks`` in order, tagged and flagged as given."""

        def build() -> Path:
            wavs = []
            for track in tracks:
                voice, text = TRACK_SENTENCES[track.key]
                wavs.append(self._once(f"track_{track.key}", lambda: speak(text, voice, self.root / f"track_{track.key}.wav")))
            args = ["ffmpeg", "-y", "-v", "error", "-threads", "1", "-f", "lavfi", "-i", "color=c=navy:s=160x90:r=10"]
            for wav in wavs:
                args += ["-i", str(wav)]
            args += ["-map", "0:v"] + [a for n in range(len(wavs)) for a in ("-map", f"{n + 1}:a")]
            for n, track in enumerate(tracks):
                args += [f"-disposition:a:{n}", track.disposition]
                if track.language:
                    args += [f"-metadata:s:a:{n}", f"language={track.language}"]
                if track.title:
                    args += [f"-metadata:s:a:{n}", f"title={track.title}"]
            dest = self.root / f"{name}.mkv"
            _run(args + ["-c:a", "aac", "-b:a", "64k", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                         "-t", f"{max(wav_duration(w) for w in wavs):.3f}", *_BITEXACT, str(dest)])
            return dest

        return self._once(f"audio_tracks_{name}", build)

    def foreign_intro(self) -> Path:
        """≥ 30 s of German speech, then ≥ 55 s of English: Whisper's first-30-s guess says German."""

        def build() -> Path:
            german, rate = read_wav(speak(" ".join([GERMAN_TEXT] * 3), "de", self.root / "german_intro.wav"))
            english, english_rate = read_wav(self.english_long_wav())
            assert rate == english_rate and german.size / rate >= 30.0
            wav = write_wav(self.root / "foreign_intro.wav", np.concatenate([german, english]), rate)
            return mux(wav, self.root / "foreign_intro.mkv")

        return self._once("foreign_intro", build)

    # broken ---------------------------------------------------------------
    def no_audio(self) -> Path:
        """A valid video without any audio stream."""
        return self._once("no_audio", lambda: mux(None, self.root / "no_audio.mp4", seconds=3.0))

    def truncated(self) -> Path:
        """An MP4 cut at 60 %: its index (moov, written last) is missing."""

        def build() -> Path:
            whole = self.english_short(".mp4")
            data = whole.read_bytes()
            dest = self.root / "truncated.mp4"
            dest.write_bytes(data[: int(len(data) * 0.6)])
            return dest

        return self._once("truncated", build)

    def text_as_mkv(self) -> Path:
        """A text file wearing a video extension."""

        def build() -> Path:
            dest = self.root / "not_a_video.mkv"
            dest.write_text("This is not a video. It is a shopping list: milk, eggs, bread.\n" * 20)
            return dest

        return self._once("text_as_mkv", build)

    def copy(self, src: Path, name: str) -> Path:
        """A copy under a new name (odd names: unicode, spaces, one character)."""
        dest = self.root / "copies" / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
        return dest
