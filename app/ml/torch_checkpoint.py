"""Reading a PyTorch checkpoint of the legacy format into NumPy arrays, without torch and without running its code.

Why: the one speaker-embedding model whose weights a package registry ships (Resemblyzer's
GE2E encoder, ``resemblyzer/pretrained.pt`` in its PyPI wheel, Apache-2.0) is a
``torch.save`` file of the pre-1.6 ("legacy") format. Sidecar runs without torch, and a
pickle must never be allowed to import what it names: the unpickler here resolves only the
handful of globals a state dict of tensors uses and refuses every other one.

The legacy layout is a run of pickles: a magic number, the protocol version, system facts,
the object itself (tensors point at storages by key), then the list of storage keys, then
each storage's raw bytes, an int64 element count first.
"""

from __future__ import annotations

import collections
import io
import pickle
import struct
from dataclasses import dataclass
from typing import IO, Any

import numpy as np

from app.errors import Code, ModelError

#: ``torch.serialization.MAGIC_NUMBER`` and the only protocol version torch ever wrote.
MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001
_STORAGE_DTYPES = {
    "FloatStorage": np.float32,
    "DoubleStorage": np.float64,
    "HalfStorage": np.float16,
    "LongStorage": np.int64,
    "IntStorage": np.int32,
    "ByteStorage": np.uint8,
    "BoolStorage": np.bool_,
}


@dataclass(frozen=True)
class _Storage:
    key: str
    dtype: Any


@dataclass(frozen=True)
class _TensorRef:
    storage: _Storage
    offset: int
    size: tuple[int, ...]
    stride: tuple[int, ...]


def _rebuild_tensor(storage: _Storage, offset: int, size: tuple[int, ...], stride: tuple[int, ...], *_: Any) -> _TensorRef:
    return _TensorRef(storage, int(offset), tuple(size), tuple(stride))


class _Unpickler(pickle.Unpickler):
    """Resolves tensors, storages and ordered dicts; anything else in the pickle is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "collections" and name == "OrderedDict":
            return collections.OrderedDict
        if module == "torch._utils" and name in ("_rebuild_tensor_v2", "_rebuild_tensor"):
            return _rebuild_tensor
        if module == "torch" and name in _STORAGE_DTYPES:
            return _STORAGE_DTYPES[name]
        raise ModelError(f"the checkpoint names {module}.{name}, which a weights file has no use for",
                         code=Code.BAD_PACKAGE)

    def persistent_load(self, pid: Any) -> Any:
        if not (isinstance(pid, tuple) and pid and pid[0] == "storage"):
            raise ModelError(f"the checkpoint holds an unknown reference {pid!r:.60}", code=Code.BAD_PACKAGE)
        _, dtype, key, _location, _count, *_ = pid
        return _Storage(str(key), dtype)


def read_legacy_checkpoint(data: bytes | IO[bytes]) -> Any:
    """The checkpoint's object with every tensor as a NumPy array (``bad_package`` when it is not such a file)."""
    stream = io.BytesIO(data) if isinstance(data, bytes) else data
    try:
        if _Unpickler(stream).load() != MAGIC_NUMBER or _Unpickler(stream).load() != PROTOCOL_VERSION:
            raise ModelError("not a legacy PyTorch checkpoint", code=Code.BAD_PACKAGE)
        _Unpickler(stream).load()  # system facts: a dict of plain values
        obj = _Unpickler(stream).load()
        keys = _Unpickler(stream).load()
        buffers: dict[str, bytes] = {}
        for key in keys:
            (count,) = struct.unpack("<q", stream.read(8))
            dtype = _dtype_of(obj, str(key))
            buffers[str(key)] = stream.read(count * np.dtype(dtype).itemsize)
    except (pickle.UnpicklingError, EOFError, struct.error, ValueError) as exc:
        raise ModelError(f"the checkpoint cannot be read: {exc}", code=Code.BAD_PACKAGE) from exc
    return _materialise(obj, buffers)


def _refs(obj: Any) -> list[_TensorRef]:
    if isinstance(obj, _TensorRef):
        return [obj]
    if isinstance(obj, dict):
        return [ref for value in obj.values() for ref in _refs(value)]
    if isinstance(obj, (list, tuple)):
        return [ref for value in obj for ref in _refs(value)]
    return []


def _dtype_of(obj: Any, key: str) -> Any:
    for ref in _refs(obj):
        if ref.storage.key == key:
            return ref.storage.dtype
    return np.uint8  # a storage no tensor uses: read past it byte by byte


def _materialise(obj: Any, buffers: dict[str, bytes]) -> Any:
    if isinstance(obj, _TensorRef):
        flat = np.frombuffer(buffers[obj.storage.key], dtype=obj.storage.dtype)
        item = flat.itemsize
        view = np.lib.stride_tricks.as_strided(flat[obj.offset:], shape=obj.size, strides=tuple(s * item for s in obj.stride))
        return np.array(view)  # a copy: the caller owns it and the buffer can go
    if isinstance(obj, dict):
        return type(obj)((k, _materialise(v, buffers)) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return type(obj)(_materialise(v, buffers) for v in obj)
    return obj
