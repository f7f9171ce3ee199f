"""The Whisper host's VAD and log-mel in pieces give faster-whisper's own numbers, in a fraction of the memory (issue 24).

On the ten real recordings of tests/data/real_speech (and a 300-s window joined from them,
the most one transcription call hands faster-whisper): every speech probability and every
log-mel value is equal, so the speech chunks, the encoder's input and the transcript are
the same; the numpy memory a 300-s window needs falls to a piece's.
"""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path
from typing import Any, Callable

import faster_whisper.vad
import numpy as np
import pytest
from faster_whisper import WhisperModel
from faster_whisper.feature_extractor import FeatureExtractor
from faster_whisper.utils import get_assets_path
from faster_whisper.vad import SileroVADModel

from app.media.audio import SAMPLE_RATE, extract_audio, load_audio
from app.ml.bundled import whisper_base_dir
from app.paths import data_dir
from app.ml.whisper_runtime import (FEATURE_FRAMES, VAD_ROWS, WINDOW_S, FeaturesInPieces, VadInPieces, WhisperRuntime,
                                    _segment_dict)
from app.pipelines.video import BEAM_SIZE

REAL_SPEECH = Path(__file__).resolve().parent / "data" / "real_speech"


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    """Each real recording as the transcribe stage reads it (16 kHz mono float32), and a full window joined from them."""
    root = tmp_path_factory.mktemp("real")
    audio = {src.stem: np.array(load_audio(extract_audio(src, root / f"{src.stem}.f32").path))
             for src in sorted(REAL_SPEECH.glob("*.opus"))}
    assert len(audio) == 10
    joined = np.concatenate([audio[name] for name in sorted(audio)] * 2)
    assert len(joined) >= WINDOW_S * SAMPLE_RATE
    return {**audio, "window": joined[: int(WINDOW_S * SAMPLE_RATE)]}


def _silero() -> SileroVADModel:
    """A Silero VAD model of faster-whisper's own class (not the process's cached one, which a runtime may have replaced)."""
    return SileroVADModel(os.path.join(get_assets_path(), "silero_vad_v6.onnx"))


def _vad_input(audio: np.ndarray) -> np.ndarray:
    """The audio as ``get_speech_timestamps`` hands it to the model: padded to whole rows of 512 (a whole row when even)."""
    return np.pad(audio, (0, 512 - len(audio) % 512))


def _numpy_peak_mb(work: Callable[[], Any]) -> float:
    """The most memory numpy held at once while ``work`` ran, beyond what was held before (numpy reports to tracemalloc)."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def test_log_mel_in_pieces_is_faster_whispers_value_for_value(recordings: dict[str, np.ndarray]) -> None:
    extractor = FeatureExtractor()
    pieces = FeaturesInPieces(extractor)
    for name, audio in recordings.items():
        for cut in (audio, audio[7:], audio[: len(audio) // 3]):  # lengths that end anywhere in a frame
            expected, found = extractor(cut), pieces(cut)
            assert found.shape == expected.shape and np.array_equal(found, expected), name
    assert len(recordings["en_ljspeech_2min"]) // 160 > 4 * FEATURE_FRAMES, "the long recording spans several pieces"
    assert pieces.nb_max_frames == extractor.nb_max_frames == 3000, "faster-whisper reads the extractor's fields through it"


def test_vad_in_pieces_is_silero_value_for_value(recordings: dict[str, np.ndarray]) -> None:
    silero = _silero()
    pieces = VadInPieces(silero.session)
    for name, audio in recordings.items():
        # a piece exactly full; one row over, its end (12 samples of padding) in the last 64 samples, which are zeroed
        for cut in (audio, audio[: 512 * VAD_ROWS], audio[: 512 * VAD_ROWS + 500]):
            padded = _vad_input(cut)
            expected = silero(padded.copy())  # faster-whisper's call zeroes part of its input in place
            found = pieces(padded.copy())
            assert found.shape == expected.shape and np.array_equal(found, expected), name


def test_a_full_window_needs_a_pieces_memory(recordings: dict[str, np.ndarray]) -> None:
    """A 300-s window: the log-mel's numpy peak falls from ~310 MB to ~80 MB, the VAD's from ~24 MB to ~5 MB."""
    window = recordings["window"]
    extractor = FeatureExtractor()
    whole, cut = _numpy_peak_mb(lambda: extractor(window)), _numpy_peak_mb(lambda: FeaturesInPieces(extractor)(window))
    assert whole > 250 and cut < 100, (whole, cut)
    padded, silero = _vad_input(window), _silero()
    whole = _numpy_peak_mb(lambda: silero(padded))
    cut = _numpy_peak_mb(lambda: VadInPieces(silero.session)(padded))
    assert whole > 20 and cut < 8, (whole, cut)


def test_the_runtimes_transcript_is_faster_whispers_own(recordings: dict[str, np.ndarray], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """40 s of a real recording (two pieces of each) through the runtime the model host loads, against plain faster-whisper.

    The reference runs first with Silero's own VAD; loading the runtime then puts its pieces in place (``monkeypatch``
    gives this process its VAD back afterwards)."""
    speech = recordings["en_ljspeech_2min"][: 40 * SAMPLE_RATE]
    assert len(speech) // 160 > FEATURE_FRAMES and len(speech) // 512 > VAD_ROWS
    audio_file = tmp_path / "speech.f32"
    speech.astype("<f4").tofile(audio_file)
    # This process's cached VAD may be a runtime's (tests that load Whisper in-process): the reference gets Silero's own.
    silero = _silero()
    monkeypatch.setattr(faster_whisper.vad, "get_vad_model", lambda: silero)
    plain = WhisperModel(str(whisper_base_dir(data_dir())), device="cpu", compute_type="int8", cpu_threads=2,
                         local_files_only=True)
    segments, _ = plain.transcribe(speech, language="en", beam_size=BEAM_SIZE, vad_filter=True, word_timestamps=True,
                                   condition_on_previous_text=False)
    expected = [_segment_dict(segment, 0.0) for segment in segments]
    runtime = WhisperRuntime(device="cpu", compute_type="int8", cpu_threads=2, beam_size=BEAM_SIZE)
    assert isinstance(runtime._model.feature_extractor, FeaturesInPieces)
    assert isinstance(faster_whisper.vad.get_vad_model(), VadInPieces), "faster-whisper finds the VAD in pieces"
    events = list(runtime.transcribe(str(audio_file), 0.0, "en"))
    assert len(expected) >= 4 and [e for e in events if e["type"] == "segment"] == expected
