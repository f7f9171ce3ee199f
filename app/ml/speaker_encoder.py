"""A voice's fingerprint: the GE2E speaker encoder (Resemblyzer's weights) in NumPy.

Why this model: speaker labels must run offline, on the CPU, without torch, from weights a
person can get with a checksum. Of the speaker-embedding models, the only weights a package
registry ships are Resemblyzer's (``resemblyzer/pretrained.pt`` inside its PyPI wheel,
Apache-2.0; Wan et al., "Generalized End-to-End Loss for Speaker Verification", 2018): a
3-layer LSTM over 40 mel bands, 1.6 s at a time, whose last state becomes a 256-number
voice vector. The model is small (1.4 M weights), so a plain NumPy LSTM runs it at about
100x real time on one core, with no runtime to add. The wheel stays as downloaded and
verified (its sha256 is PyPI's); the checkpoint inside is read by
:mod:`app.ml.torch_checkpoint`, which runs none of its code.

The features are Resemblyzer's: a power mel spectrogram (not log), 25 ms Hann windows
every 10 ms, of speech raised to -30 dBFS.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
from faster_whisper.feature_extractor import FeatureExtractor

from app.errors import Code, ModelError
from app.ml.torch_checkpoint import read_legacy_checkpoint

SAMPLE_RATE = 16000
N_FFT = 400  # 25 ms
HOP = 160  # 10 ms
N_MELS = 40
#: Frames the encoder hears at once (1.6 s), as it was trained.
WINDOW_FRAMES = 160
TARGET_DBFS = -30.0
#: Where the checkpoint sits inside the Resemblyzer wheel.
CHECKPOINT = "resemblyzer/pretrained.pt"
_LAYERS = 3


def mel_power(samples: np.ndarray) -> np.ndarray:
    """``(frames, 40)`` power mel spectrogram, centred frames with reflected edges (librosa's convention)."""
    padded = np.pad(samples.astype(np.float32), N_FFT // 2, mode="reflect") if samples.size > N_FFT // 2 else \
        np.pad(samples.astype(np.float32), N_FFT // 2)
    count = 1 + (padded.size - N_FFT) // HOP
    frames = np.lib.stride_tricks.as_strided(padded, shape=(count, N_FFT), strides=(padded.strides[0] * HOP, padded.strides[0]))
    window = np.hanning(N_FFT + 1)[:-1].astype(np.float32)  # periodic Hann
    power = np.abs(np.fft.rfft(frames * window, axis=1)) ** 2
    return (power @ _MEL_FILTERS.T).astype(np.float32)


_MEL_FILTERS = FeatureExtractor.get_mel_filters(SAMPLE_RATE, N_FFT, n_mels=N_MELS).astype(np.float32)


def louder(samples: np.ndarray) -> np.ndarray:
    """Raise quiet speech to -30 dBFS (never lower it), as the encoder's training audio was."""
    rms = float(np.sqrt(np.mean(np.square(samples, dtype=np.float64)))) if samples.size else 0.0
    if rms <= 0:
        return samples
    gain_db = TARGET_DBFS - 20 * np.log10(rms)
    return samples * np.float32(10 ** (gain_db / 20)) if gain_db > 0 else samples


class SpeakerEncoder:
    """Voice vectors for 1.6 s stretches of 16 kHz audio."""

    window_samples = WINDOW_FRAMES * HOP

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        try:
            self._layers = [
                (weights[f"lstm.weight_ih_l{k}"].T.copy(), weights[f"lstm.weight_hh_l{k}"].T.copy(),
                 weights[f"lstm.bias_ih_l{k}"] + weights[f"lstm.bias_hh_l{k}"])
                for k in range(_LAYERS)
            ]
            self._linear = (weights["linear.weight"].T.copy(), weights["linear.bias"])
        except KeyError as exc:
            raise ModelError(f"the speaker model lacks {exc}", code=Code.BAD_PACKAGE) from exc

    @classmethod
    def from_wheel(cls, wheel: Path) -> SpeakerEncoder:
        """Load from the Resemblyzer wheel as downloaded (``bad_package`` when it holds no such checkpoint)."""
        try:
            with zipfile.ZipFile(wheel) as archive:
                data = archive.read(CHECKPOINT)
        except (OSError, KeyError, zipfile.BadZipFile) as exc:
            raise ModelError(f"{wheel.name} holds no speaker model: {exc}", code=Code.BAD_PACKAGE) from exc
        checkpoint = read_legacy_checkpoint(data)
        return cls(checkpoint["model_state"])

    def embed_mels(self, mels: np.ndarray) -> np.ndarray:
        """``(n, frames, 40)`` mel windows -> ``(n, 256)`` unit vectors (the LSTM's last state, through the head)."""
        x = mels.astype(np.float32)
        n, steps, _ = x.shape
        for w_ih, w_hh, bias in self._layers:
            inputs = x @ w_ih + bias  # every step's input part at once
            h = np.zeros((n, w_hh.shape[0]), np.float32)
            c = np.zeros_like(h)
            out = np.empty((n, steps, h.shape[1]), np.float32)
            for t in range(steps):
                gates = inputs[:, t] + h @ w_hh
                i, f, g, o = np.split(gates, 4, axis=1)  # torch's order: input, forget, cell, output
                c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
                h = _sigmoid(o) * np.tanh(c)
                out[:, t] = h
            x = out
        w, b = self._linear
        raw = np.maximum(x[:, -1] @ w + b, 0.0)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        return raw / np.maximum(norms, 1e-9)

    def embed_windows(self, samples: np.ndarray, starts: list[int]) -> np.ndarray:
        """Voice vectors of the 1.6 s windows that begin at sample offsets ``starts``."""
        if not starts:
            return np.zeros((0, 256), np.float32)
        mel = mel_power(louder(samples))
        frame_starts = [min(s // HOP, max(0, mel.shape[0] - WINDOW_FRAMES)) for s in starts]
        if mel.shape[0] < WINDOW_FRAMES:
            mel = np.pad(mel, ((0, WINDOW_FRAMES - mel.shape[0]), (0, 0)))
        windows = np.stack([mel[f:f + WINDOW_FRAMES] for f in frame_starts])
        return np.concatenate([self.embed_mels(windows[k:k + 64]) for k in range(0, len(windows), 64)])


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (np.tanh(0.5 * x) + 1.0)
