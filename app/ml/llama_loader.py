"""Opening a GGUF with llama.cpp, its native log routed into Python logging.

llama.cpp writes some lines to stderr even with ``verbose=False`` (e.g.
``llama_kv_cache_iswa: using full-size SWA cache``): llama-cpp-python's own callback
passes level-0 messages through. A person running ``sidecar doctor`` should see the
report, not llama.cpp's internals, so every native line goes to this module's logger
at DEBUG instead.
"""

from __future__ import annotations

import ctypes
import logging
from typing import Any

log = logging.getLogger(__name__)

_native_callback: Any = None  # kept alive: llama.cpp calls it for as long as the process runs


def route_native_log() -> None:
    global _native_callback
    if _native_callback is not None:
        return
    import llama_cpp

    @llama_cpp.llama_log_callback
    def forward(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
        log.debug("llama.cpp: %s", text.decode("utf-8", "replace").rstrip())

    _native_callback = forward
    llama_cpp.llama_log_set(_native_callback, ctypes.c_void_p(0))


def load_llama(model_path: str, **kwargs: Any) -> Any:
    """``llama_cpp.Llama`` on ``model_path``, quiet on stderr."""
    route_native_log()
    import llama_cpp

    return llama_cpp.Llama(model_path=model_path, verbose=False, **kwargs)
