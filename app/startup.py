"""What every Sidecar process does first, before the CLI or the GUI: a frozen app needs it most.

A windowed Windows build, or a Linux launcher started from a desktop entry, may run with
``sys.stdout``/``sys.stderr`` set to None; the first ``print`` or logging handler would
then raise. The bundled OpenSSL of a frozen build looks for CA certificates where the
build machine had them; on another distribution model downloads would fail their TLS
checks, so certifi's bundle is used when the default places hold none. On Windows the
native runtimes load their DLLs by name at import (CTranslate2's, onnxruntime's,
llama.cpp's ``llama.dll``), which only works when their folders inside the bundle are
DLL search directories, in every process, model-host children included. onnxruntime
(OCR, e5, CLIP) writes a telemetry device id and event database under
``~/.cache/Microsoft/DeveloperTools`` at import unless told not to; an offline app
writes nothing outside its data dir and the person's folders, so that is switched off.
"""

from __future__ import annotations

import logging
import os
import ssl
import sys
from pathlib import Path
from typing import Callable

log = logging.getLogger(__name__)


def ensure_stdio() -> None:
    """Give a process without a console somewhere harmless to write."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))


def ensure_ca_certificates() -> None:
    """Point OpenSSL at certifi's bundle when neither the environment nor the default paths have one."""
    if os.environ.get("SSL_CERT_FILE") or os.environ.get("SSL_CERT_DIR"):
        return
    paths = ssl.get_default_verify_paths()
    if (paths.cafile and Path(paths.cafile).is_file()) or (paths.capath and any(Path(paths.capath).glob("*"))):
        return
    try:
        import certifi
    except ImportError:
        return
    os.environ["SSL_CERT_FILE"] = certifi.where()


#: Folders inside a frozen Windows bundle whose DLLs the native runtimes load by name.
WINDOWS_DLL_FOLDERS = ("", "ctranslate2", "onnxruntime/capi", "llama_cpp/lib", "av.libs", "cv2")


def add_dll_directories(bundle: Path, add: Callable[[str], object]) -> list[Path]:
    """Make the runtimes' folders DLL search directories; returns those that exist and were added."""
    added = []
    for relative in WINDOWS_DLL_FOLDERS:
        folder = bundle / relative if relative else bundle
        if folder.is_dir():
            add(str(folder))
            added.append(folder)
    return added


def prepare_process() -> None:
    """Runs in every process of the app before anything else, the spawned model hosts included."""
    ensure_stdio()
    ensure_ca_certificates()
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")  # inherited by every model-host child
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle and sys.platform == "win32":
        add_dll_directories(Path(bundle), os.add_dll_directory)
