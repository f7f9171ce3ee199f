"""CTranslate2's CUDA 12 libraries from the PyPI wheels of the ``gpu`` extra, for a machine with only a driver.

CTranslate2's wheels are built for CUDA 12 and load cuBLAS (and cuDNN 9) by name at the
first model call on the GPU. A machine with only an NVIDIA driver (or the CUDA 13 toolkit)
has neither, so Whisper stayed on the CPU unless the person installed cuBLAS 12 by hand
(issue 36). ``pip install sidecar[gpu]`` brings ``nvidia-cublas-cu12`` and
``nvidia-cudnn-cu12``, whose libraries sit in ``site-packages/nvidia/<name>/lib`` (``bin``
on Windows), a folder the loader does not search. Loading each file by its full path with
``RTLD_GLOBAL`` before CTranslate2 asks for it makes the later load by name find the
library already in the process (the loader matches the soname), so no ``LD_LIBRARY_PATH``
is needed and nothing is copied.
"""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path
from typing import Iterable

#: (folder under site-packages, file) in load order: cuBLASLt before the cuBLAS that needs it.
WHEEL_LIBRARIES: tuple[tuple[str, str], ...] = (
    (("nvidia/cublas/bin", "cublasLt64_12.dll"), ("nvidia/cublas/bin", "cublas64_12.dll"), ("nvidia/cudnn/bin", "cudnn64_9.dll"))
    if sys.platform == "win32" else
    (("nvidia/cublas/lib", "libcublasLt.so.12"), ("nvidia/cublas/lib", "libcublas.so.12"), ("nvidia/cudnn/lib", "libcudnn.so.9"))
)

_loaded: dict[str, str] | None = None


def find_wheel_libraries(roots: Iterable[str | Path] | None = None) -> dict[str, Path]:
    """Each of :data:`WHEEL_LIBRARIES` found under one of ``roots`` (default: ``sys.path``, the site-packages among them)."""
    found: dict[str, Path] = {}
    for root in (sys.path if roots is None else roots):
        for folder, name in WHEEL_LIBRARIES:
            path = Path(root or ".", folder, name)
            if name not in found and path.is_file():
                found[name] = path
    return found


def load_wheel_libraries(roots: Iterable[str | Path] | None = None) -> dict[str, str]:
    """Load the wheels' libraries found (once per process); file name → its path, or why it did not load."""
    global _loaded
    if _loaded is not None and roots is None:
        return _loaded
    result: dict[str, str] = {}
    for name, path in find_wheel_libraries(roots).items():
        try:
            ctypes.CDLL(str(path), mode=getattr(ctypes, "RTLD_GLOBAL", 0))
            result[name] = str(path)
        except OSError as exc:
            result[name] = f"not loaded: {exc}"
    if roots is None:
        _loaded = result
    return result
