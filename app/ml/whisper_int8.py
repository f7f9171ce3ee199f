"""Re-save a CTranslate2 Whisper ``model.bin`` with int8 weights: what the CPU runs, loaded without quantizing.

The bundled Whisper base ships as float16 (145 MB). On the CPU Sidecar runs it with
``compute_type="int8"``, and CTranslate2 then quantizes the linear and embedding weight
matrices at load time with the same per-row rule as its converter
(``ModelSpec._quantize``: scale = 127 / max |row|, round to nearest). Doing that once at
build time gives the same transcript on the CPU (a test checks it, segment by segment),
halves the download, and spares every model load the quantizing (~0.4 s on two cores
idle, over 1 s busy: a fresh engine's first transcription waits for it). The packaged
app ships the result (``packaging/build``); from source it is written once into the
data dir (:func:`app.ml.bundled.whisper_base_int8_dir`). With a GPU the int8 weights run as ``int8_float16``. The
encoder's two convolutions are left in float16, as the runtime leaves them (quantizing
them changed punctuation and timings); layer norms, biases and position encodings stay
as they are.

File format (CTranslate2 binary version 6, ``ModelSpec._serialize``): version, spec
name, revision, then each variable as name, rank, dims, dtype id, byte count, bytes,
then the aliases.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DTYPES = ("float32", "int8", "int16", "int32", "float16", "bfloat16")
SUPPORTED_VERSION = 6


@dataclass
class Variable:
    name: str
    shape: tuple[int, ...]
    dtype: str
    data: bytes


class _Reader:
    def __init__(self, data: bytes):
        self.data = data
        self.offset = 0

    def take(self, fmt: str) -> int:
        (value,) = struct.unpack_from(fmt, self.data, self.offset)
        self.offset += struct.calcsize(fmt)
        return value

    def string(self) -> str:
        length = self.take("H")
        text = self.data[self.offset:self.offset + length - 1].decode("utf-8")
        self.offset += length
        return text

    def raw(self, n: int) -> bytes:
        chunk = self.data[self.offset:self.offset + n]
        self.offset += n
        return chunk


def read_model(data: bytes) -> tuple[str, int, list[Variable], list[tuple[str, str]]]:
    reader = _Reader(data)
    version = reader.take("I")
    if version != SUPPORTED_VERSION:
        raise ValueError(f"CTranslate2 model binary version {version}; this tool reads version {SUPPORTED_VERSION}")
    spec, revision = reader.string(), reader.take("I")
    variables = []
    for _ in range(reader.take("I")):
        name = reader.string()
        shape = tuple(reader.take("I") for _ in range(reader.take("B")))
        dtype = DTYPES[reader.take("B")]
        variables.append(Variable(name, shape, dtype, reader.raw(reader.take("I"))))
    aliases = [(reader.string(), reader.string()) for _ in range(reader.take("I"))]
    if reader.offset != len(data):
        raise ValueError("trailing bytes after the aliases: not a CTranslate2 model.bin")
    return spec, revision, variables, aliases


def quantize_int8(variable: Variable) -> list[Variable]:
    """The weight as int8 plus its per-row ``weight_scale`` (float32), as CTranslate2's converter does."""
    value = np.frombuffer(variable.data, dtype=np.dtype(variable.dtype)).astype(np.float32).reshape(variable.shape)
    rows = value.reshape(value.shape[0], -1)
    amax = np.amax(np.abs(rows), axis=1)
    amax[amax == 0] = 127.0
    amax = np.maximum(amax, np.float32(127) / np.finfo(np.float32).max)
    scale = (127.0 / amax).astype(np.float32)
    quantized = np.rint(rows * scale[:, None]).astype(np.int8).reshape(variable.shape)
    prefix = variable.name.rsplit("/", 1)[0]
    return [Variable(variable.name, variable.shape, "int8", quantized.tobytes()),
            Variable(f"{prefix}/weight_scale", scale.shape, "float32", scale.tobytes())]


def write_model(spec: str, revision: int, variables: list[Variable], aliases: list[tuple[str, str]]) -> bytes:
    out = bytearray()

    def string(text: str) -> None:
        encoded = text.encode("utf-8")
        out.extend(struct.pack("H", len(encoded) + 1) + encoded + b"\0")

    out.extend(struct.pack("I", SUPPORTED_VERSION))
    string(spec)
    out.extend(struct.pack("I", revision))
    out.extend(struct.pack("I", len(variables)))
    for variable in sorted(variables, key=lambda v: v.name):
        string(variable.name)
        out.extend(struct.pack("B", len(variable.shape)))
        for dim in variable.shape:
            out.extend(struct.pack("I", dim))
        out.extend(struct.pack("B", DTYPES.index(variable.dtype)) + struct.pack("I", len(variable.data)))
        out.extend(variable.data)
    out.extend(struct.pack("I", len(aliases)))
    for alias, target in aliases:
        string(alias)
        string(target)
    return bytes(out)


def quantize_model_bin(data: bytes) -> bytes:
    spec, revision, variables, aliases = read_model(data)
    converted: list[Variable] = []
    for variable in variables:
        key = variable.name.rsplit("/", 1)[-1]
        layer = variable.name.rsplit("/", 2)[-2]
        quantize = key == "weight" and variable.dtype in ("float16", "float32") and not layer.startswith("conv")
        converted += quantize_int8(variable) if quantize else [variable]
    return write_model(spec, revision, converted, aliases)


def write_int8_model(files: dict[str, Path | tuple[Path, ...]], target: Path) -> Path:
    """A loadable model folder: the int8 ``model.bin`` beside the original config and tokenizer files."""
    target.mkdir(parents=True, exist_ok=True)
    for name, source in files.items():
        parts = source if isinstance(source, tuple) else (source,)
        data = b"".join(part.read_bytes() for part in parts)
        (target / name).write_bytes(quantize_model_bin(data) if name == "model.bin" else data)
    return target

