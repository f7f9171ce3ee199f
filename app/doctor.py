"""``sidecar doctor``: what this machine can run, and whether each model actually loads.

:func:`collect_report` returns a JSON-able dict (``--json`` prints it as is);
:func:`format_report` renders it for people. Every check catches its own failure and
records it as ``{"ok": false, "error": ...}``: the doctor never crashes and never
needs a display or the network. Models are loaded in model-host child processes
(:mod:`app.ml.probes`), one at a time, so a runtime that crashes fails its line only.

Over 400 lines on purpose: a dozen small, independent checks and the one report they
fill; each check is a function of its own, and the report's shape reads in one place.
"""

from __future__ import annotations

import importlib.metadata
import logging
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

from app import __version__
from app.ml.catalogue import ROLE_PURPOSE, ROLES
from app.settings import SPECS, read_settings

log = logging.getLogger(__name__)

PROBE_TIMEOUT_S = 180.0

# Which probe proves each bundled model loads (runtime, params).
_BUNDLED_PROBES: dict[str, tuple[str, dict[str, Any]]] = {
    "whisper-base": ("app.ml.probes:WhisperProbe", {"data_dir": None}),  # data_dir filled in
    "gemma3-270m": ("app.ml.probes:LlamaProbe", {"data_dir": None}),
    "multilingual-e5-small": ("app.ml.probes:E5Probe", {}),
    "rapidocr-ppocr": ("app.ml.probes:RapidOcrProbe", {}),
}
_FORMAT_PROBES = {
    "ctranslate2-folder": "app.ml.probes:WhisperProbe",
    "gguf": "app.ml.probes:LlamaProbe",
    "onnx-folder": "app.ml.probes:OnnxFolderProbe",
    "rapidocr-folder": "app.ml.probes:OnnxFolderProbe",
}

def _tray_probe(conn: Any, platform_name: str | None, stderr_path: str) -> None:
    """Child side of :func:`check_tray`: start Qt, answer over the pipe.

    A spawned child, not ``sys.executable -c``: in a frozen build the executable is
    Sidecar itself, which takes no ``-c``. Qt's own complaints go to a file the parent
    reads when the child dies.
    """
    err = os.open(stderr_path, os.O_WRONLY | os.O_TRUNC)
    os.dup2(err, 2)
    if platform_name:
        os.environ["QT_QPA_PLATFORM"] = platform_name
    out: dict[str, Any] = {}
    try:
        import PySide6
        from PySide6.QtGui import QGuiApplication
        from PySide6.QtWidgets import QSystemTrayIcon

        out["pyside6"] = PySide6.__version__
        app = QGuiApplication(["sidecar-doctor"])
        out["platform"] = app.platformName()
        out["tray_available"] = bool(QSystemTrayIcon.isSystemTrayAvailable())
        out["ok"] = True
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        out.update(ok=False, error=f"{type(exc).__name__}: {exc}")
    conn.send(out)


def _check(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as exc:  # a failed check is a finding, not a crash
        log.debug("doctor check %s failed", getattr(fn, "__name__", fn), exc_info=True)
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


# --------------------------------------------------------------------------- checks


def check_python() -> dict[str, Any]:
    return {
        "ok": sys.version_info >= (3, 11),
        "version": platform.python_version(),
        "implementation": platform.python_implementation(),
        "executable": sys.executable,
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
    }


def check_sqlite() -> dict[str, Any]:
    """Which SQLite module can load sqlite-vec: the built-in one when it can load extensions, else sqlean."""
    import sqlite3

    import sqlite_vec

    builtin_can_load = hasattr(sqlite3.Connection, "enable_load_extension")
    attempts = []
    if builtin_can_load:
        attempts.append(("sqlite3", sqlite3))
    try:
        import sqlean

        attempts.append(("sqlean", sqlean))
    except ImportError as exc:
        sqlean_error: str | None = str(exc)
    else:
        sqlean_error = None
    errors = {}
    for name, module in attempts:
        try:
            conn = module.connect(":memory:")
            try:
                conn.enable_load_extension(True)
                sqlite_vec.load(conn)
                conn.enable_load_extension(False)
                vec_version = conn.execute("select vec_version()").fetchone()[0]
                sqlite_version = conn.execute("select sqlite_version()").fetchone()[0]
                try:
                    conn.execute("create virtual table t using fts5(x)")
                    fts5 = True
                except Exception:  # noqa: BLE001 - sqlite raises its own error types when fts5 is missing
                    fts5 = False
            finally:
                conn.close()
        except Exception as exc:  # noqa: BLE001 - a failed check is a finding, not a crash
            errors[name] = f"{type(exc).__name__}: {exc}"
            continue
        return {
            "ok": True,
            "module": name,
            "extension_loading": "built-in sqlite3" if name == "sqlite3" else "sqlean (built-in sqlite3 cannot load extensions)",
            "sqlite_version": sqlite_version,
            "builtin_sqlite_version": sqlite3.sqlite_version,
            "builtin_can_load_extensions": builtin_can_load,
            "sqlite_vec_version": vec_version,
            "sqlite_vec_path": sqlite_vec.loadable_path(),
            "fts5": fts5,
        }
    if sqlean_error:
        errors["sqlean"] = sqlean_error
    return {
        "ok": False,
        "builtin_sqlite_version": sqlite3.sqlite_version,
        "builtin_can_load_extensions": builtin_can_load,
        "error": "sqlite-vec could not be loaded: " + "; ".join(f"{k}: {v}" for k, v in errors.items()),
    }


def check_gpu() -> dict[str, Any]:
    """NVIDIA devices through NVML; no driver means an empty list, not an error."""
    try:
        import pynvml
    except ImportError as exc:
        return {"ok": True, "devices": [], "note": f"nvidia-ml-py is not installed ({exc})"}
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # noqa: BLE001 - NVMLError_LibraryNotFound / DriverNotLoaded on machines without NVIDIA
        return {"ok": True, "devices": [], "note": f"no NVIDIA driver ({exc})"}
    try:
        devices = []

        def text(value: Any) -> str:
            return value.decode() if isinstance(value, bytes) else str(value)

        driver = text(pynvml.nvmlSystemGetDriverVersion())
        try:
            cuda = pynvml.nvmlSystemGetCudaDriverVersion()
            cuda_version = f"{cuda // 1000}.{cuda % 1000 // 10}"
        except Exception:  # noqa: BLE001 - an old driver lacks the call: the version stays unknown
            cuda_version = None
        for index in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(index)
            memory = pynvml.nvmlDeviceGetMemoryInfo(handle)
            devices.append(
                {
                    "index": index,
                    "name": text(pynvml.nvmlDeviceGetName(handle)),
                    "total_mb": memory.total // 2**20,
                    "free_mb": memory.free // 2**20,
                    "used_mb": memory.used // 2**20,
                }
            )
        return {"ok": True, "devices": devices, "driver_version": driver, "cuda_driver_version": cuda_version}
    finally:
        try:
            pynvml.nvmlShutdown()
        except Exception:  # noqa: BLE001 - shutting NVML down cannot change the finding
            pass


def check_onnxruntime() -> dict[str, Any]:
    import onnxruntime as ort

    return {
        "ok": True,
        "version": ort.__version__,
        "providers": list(ort.get_available_providers()),
        "device": ort.get_device(),
        "package": "onnxruntime-gpu" if _version("onnxruntime-gpu") else "onnxruntime",
    }


def check_ctranslate2() -> dict[str, Any]:
    import ctranslate2

    from app.ml.cuda_libraries import find_wheel_libraries
    from app.ml.whisper_runtime import CUBLAS_LIBRARY, cuda_usable

    cuda_devices = ctranslate2.get_cuda_device_count()
    usable = cuda_usable()
    return {
        "cuda_libraries": {name: str(path) for name, path in find_wheel_libraries().items()},  # the `gpu` extra's
        "whisper_device": "cuda" if usable else "cpu",
        "ok": True,
        "version": ctranslate2.__version__,
        "faster_whisper_version": _version("faster-whisper"),
        "compute_types": {
            "cpu": sorted(ctranslate2.get_supported_compute_types("cpu")),
            **({"cuda": sorted(ctranslate2.get_supported_compute_types("cuda"))} if cuda_devices > 0 else {}),
        },
        "cuda_devices": cuda_devices,
        **({"note": f"a CUDA device is present but {CUBLAS_LIBRARY} (cuBLAS for CUDA 12) cannot be loaded: Whisper runs on "
                    "the CPU. Install Sidecar's gpu extra (pip install 'sidecar[gpu]': cuBLAS and cuDNN for CUDA 12 from "
                    "PyPI, loaded from their package folders) to transcribe on the GPU"} if cuda_devices > 0 and not usable else {}),
    }


def check_llama_cpp() -> dict[str, Any]:
    import llama_cpp

    result: dict[str, Any] = {"ok": True, "version": getattr(llama_cpp, "__version__", _version("llama-cpp-python"))}
    supports = getattr(llama_cpp, "llama_supports_gpu_offload", None)
    result["gpu_offload"] = bool(supports()) if supports else None
    system_info = getattr(llama_cpp, "llama_print_system_info", None)
    if system_info:
        info = system_info()
        result["system_info"] = (info.decode(errors="replace") if isinstance(info, bytes) else str(info)).strip()
    return result


def check_ffmpeg() -> dict[str, Any]:
    path = shutil.which("ffmpeg")
    if not path:
        return {"ok": True, "available": False, "required": False, "note": "not needed: audio is read through PyAV"}
    try:
        first = subprocess.run([path, "-version"], capture_output=True, text=True, timeout=10).stdout.splitlines()
    except (OSError, subprocess.SubprocessError) as exc:
        return {"ok": True, "available": False, "required": False, "path": path, "error": str(exc)}
    return {"ok": True, "available": True, "required": False, "path": path, "version": first[0] if first else ""}


def check_data_dir(data_dir: Path) -> dict[str, Any]:
    data_dir = Path(data_dir)
    existing = data_dir
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    usage = shutil.disk_usage(existing)
    writable = False
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".doctor-", delete=True):
            writable = True
    except OSError:
        writable = False
    return {
        "ok": writable,
        "path": str(data_dir),
        "exists": data_dir.exists(),
        "writable": writable,
        "free_bytes": usage.free,
        "total_bytes": usage.total,
        **({} if writable else {"error": f"cannot write in {existing}"}),
    }


def check_tray(timeout_s: float = 30.0) -> dict[str, Any]:
    """Ask Qt in a child process; offscreen unless a display is there, so no display is ever needed."""
    import multiprocessing

    has_display = not sys.platform.startswith("linux") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    with tempfile.NamedTemporaryFile(prefix="sidecar-tray-", suffix=".log", delete=False) as log_file:
        stderr_path = log_file.name
    try:
        process = ctx.Process(target=_tray_probe, args=(child, None if has_display else "offscreen", stderr_path),
                              daemon=True, name="doctor-tray")
        process.start()
        child.close()
        result: dict[str, Any] | None = None
        try:
            if parent.poll(timeout_s):
                result = parent.recv()
        except EOFError:
            result = None
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)
        if result is None:
            if process.exitcode is None or process.exitcode == -9:
                return {"ok": False, "tray_available": False, "error": f"Qt did not start within {timeout_s:.0f} s"}
            tail = Path(stderr_path).read_text(errors="replace").strip().splitlines()[-3:]
            return {"ok": False, "tray_available": False, "error": f"Qt exited with {process.exitcode}: {' | '.join(tail)}"}
    finally:
        parent.close()
        Path(stderr_path).unlink(missing_ok=True)
    result.setdefault("tray_available", False)
    result["display"] = has_display
    if result.get("ok") and not result["tray_available"]:
        result["note"] = "no system tray here; Sidecar works without one"
    return result


# --------------------------------------------------------------------------- models


def _probe(runtime: str, params: dict[str, Any], timeout_s: float) -> dict[str, Any]:
    """Load one model in a model-host child, run its ``check``, end the child."""
    from app.ml.clients import ProbeClient
    from app.ml.host import ModelHost
    from app.ml.spec import ModelSpec

    outcome: dict[str, Any] = {}
    holder: dict[str, Any] = {}

    def work() -> None:
        start = time.perf_counter()
        try:
            host = ModelHost(ModelSpec.of(runtime, **params))
            holder["host"] = host
            try:
                outcome["info"] = host.info
                outcome["check"] = ProbeClient(host).check()
            finally:
                host.close()
            outcome["loadable"] = True
        except Exception as exc:  # noqa: BLE001 - any load failure is the finding
            code = getattr(exc, "code", type(exc).__name__)
            message = str(getattr(exc, "message", exc)).strip().splitlines()
            outcome.update(loadable=False, error=f"{code}: {message[0] if message else ''}")
        outcome["seconds"] = round(time.perf_counter() - start, 2)

    thread = threading.Thread(target=work, name=f"doctor probe {runtime}", daemon=True)
    thread.start()
    thread.join(timeout_s)
    if thread.is_alive():
        host = holder.get("host")
        if host is not None and host.alive:
            host._process.kill()  # the doctor gives up on a hung runtime
        return {"loadable": False, "error": f"timed_out: no answer within {timeout_s:.0f} s", "seconds": timeout_s}
    return outcome


def check_models(data_dir: Path, probe: bool = True, timeout_s: float = PROBE_TIMEOUT_S) -> dict[str, Any]:
    from app.ml.model_choice import models_list

    rows = models_list(data_dir)
    for row in rows:
        row["loadable"] = None
        if not probe or not row["installed"]:
            continue
        if row["source"] == "bundled":
            if row["name"] not in _BUNDLED_PROBES:
                continue
            runtime, params = _BUNDLED_PROBES[row["name"]]
            params = {k: (str(data_dir) if k == "data_dir" else v) for k, v in params.items()}
        elif row["active"] and row["format"] in _FORMAT_PROBES:
            runtime, params = _FORMAT_PROBES[row["format"]], {"path": row["path"]}
        else:
            continue
        result = _probe(runtime, params, timeout_s)
        row["loadable"] = result.pop("loadable", False)
        row["probe"] = result
    active = {row["role"]: row["name"] for row in rows if row["active"]}
    problems = [
        f"{row['name']} ({row['role']}) is installed but does not load: {row['probe'].get('error')}"
        for row in rows
        if row["loadable"] is False
    ]
    problems += [
        f"{row['name']} is selected for {row['role']} but is not installed" for row in rows if row["active"] and not row["installed"]
    ]
    return {"ok": not problems, "active": active, "models": rows, "problems": problems}


def check_settings(data_dir: Path) -> dict[str, Any]:
    """The values in settings.json that their setting does not take (each is replaced by its default), with their code."""
    _, bad = read_settings(Path(data_dir))
    invalid = [{"setting": b.name, "value": b.value, "default": SPECS[b.name].default if b.name in SPECS else None,
                "code": b.code} for b in bad]
    return {"ok": not invalid, "invalid": invalid,
            **({"error": "; ".join(f"{b.name}={b.value!r} is not a value it takes ({b.code})" for b in bad)} if bad else {})}


def check_translation(data_dir: Path) -> dict[str, Any]:
    """Where new jobs' translations come from, and whether that is only the bundled placeholder.

    The model rows alone mislead twice: a translation server in the settings wins over
    the model marked in use, and the bundled model marked in use is a placeholder whose
    lines the quality check refuses (so "loadable" does not mean "translates").
    """
    from app.ml.model_choice import placeholder_in_use, placeholder_note
    from app.ml.opus_mt import installed_translators, translator_note
    from app.settings import load_settings

    settings = load_settings(data_dir)
    endpoint = settings.translation_endpoint.strip()
    placeholder = placeholder_in_use(data_dir, endpoint)
    return {
        "ok": True,
        "endpoint": endpoint or None,
        "placeholder": placeholder.name if placeholder else None,
        "translators": [p.pair for p in installed_translators(data_dir)],
        "note": placeholder_note(data_dir, endpoint) or translator_note(data_dir, settings.target_lang, endpoint),
    }


# --------------------------------------------------------------------------- report


def collect_report(data_dir: Path, *, probe_models: bool = True, probe_timeout_s: float = PROBE_TIMEOUT_S) -> dict[str, Any]:
    """Run every check; never raises. ``probe_models=False`` skips loading models (fast)."""
    start = time.perf_counter()
    data_dir = Path(data_dir)
    gpu = _check(check_gpu)
    report: dict[str, Any] = {
        "sidecar_version": __version__,
        "generated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": _check(check_python),
        "sqlite": _check(check_sqlite),
        "gpu": gpu.get("devices", []) if isinstance(gpu, dict) else [],
        "gpu_status": {k: v for k, v in gpu.items() if k != "devices"},
        "onnxruntime": _check(check_onnxruntime),
        "ctranslate2": _check(check_ctranslate2),
        "llama_cpp": _check(check_llama_cpp),
        "ffmpeg": _check(check_ffmpeg),
        "data_dir": _check(lambda: check_data_dir(data_dir)),
        "settings": _check(lambda: check_settings(data_dir)),
        "tray": _check(check_tray),
    }
    models = _check(lambda: check_models(data_dir, probe=probe_models, timeout_s=probe_timeout_s))
    report["models"] = models.get("models", [])
    report["active_models"] = models.get("active", {})
    problems = []
    for key in ("python", "sqlite", "gpu_status", "onnxruntime", "ctranslate2", "llama_cpp", "data_dir", "settings"):
        section = report[key]
        if isinstance(section, dict) and section.get("ok") is False:
            problems.append(f"{key}: {section.get('error', 'failed')}")
    if "error" in models:
        problems.append(f"models: {models['error']}")
    problems += models.get("problems", [])
    report["problems"] = problems
    roles_without_model = sorted(set(ROLES) - set(report["active_models"]))
    report["notes"] = [
        f"no {role} model is installed: {ROLE_PURPOSE.get(role, role)} is off until you install one (sidecar models)"
        for role in roles_without_model
    ]
    translation = _check(lambda: check_translation(data_dir))
    report["translation"] = translation
    for section in (report["ctranslate2"], translation):
        if isinstance(section, dict) and section.get("note"):
            report["notes"].append(section["note"])
    report["ok"] = not problems
    report["duration_s"] = round(time.perf_counter() - start, 2)
    return report


def _mb(value: int | None) -> str:
    return "?" if value is None else f"{value / 2**20:,.0f} MB" if value < 10 * 2**30 else f"{value / 2**30:,.1f} GB"


def format_report(report: dict[str, Any]) -> str:
    """The report as aligned lines for a terminal."""
    lines = [f"Sidecar {report.get('sidecar_version', '?')} doctor (took {report.get('duration_s', '?')} s)", ""]

    def row(label: str, text: str) -> None:
        lines.append(f"{label:<13}{text}")

    def failed(section: Any) -> str | None:
        if isinstance(section, dict) and section.get("ok") is False and "error" in section:
            return f"FAILED: {section['error']}"
        return None

    py = report.get("python", {})
    row("Python", failed(py) or f"{py.get('version')} ({py.get('implementation')}) {py.get('executable')}")
    sq = report.get("sqlite", {})
    row(
        "SQLite",
        failed(sq)
        or f"{sq.get('sqlite_version')} via {sq.get('extension_loading')}; sqlite-vec {sq.get('sqlite_vec_version')}"
        f" ({sq.get('sqlite_vec_path')}); FTS5 {'yes' if sq.get('fts5') else 'NO'}",
    )
    gpus = report.get("gpu", [])
    if gpus:
        for device in gpus:
            row("GPU", f"{device['index']}: {device['name']}, {device['free_mb']:,} MB free of {device['total_mb']:,} MB")
    else:
        row("GPU", f"none ({report.get('gpu_status', {}).get('note', 'no CUDA device')}); models run on the CPU")
    ort = report.get("onnxruntime", {})
    row("onnxruntime", failed(ort) or f"{ort.get('version')} providers: {', '.join(ort.get('providers', []))}")
    ct = report.get("ctranslate2", {})
    if failed(ct):
        row("CTranslate2", failed(ct) or "")
    else:
        types = "; ".join(f"{dev}: {', '.join(t)}" for dev, t in ct.get("compute_types", {}).items())
        row("CTranslate2", f"{ct.get('version')} (faster-whisper {ct.get('faster_whisper_version')}); {types}")
        libraries = ct.get("cuda_libraries") or {}
        row("CUDA libs", ", ".join(f"{name} ({path})" for name, path in libraries.items())
            or "none from the gpu extra (pip install 'sidecar[gpu]')")
        row("Whisper on", str(ct.get("whisper_device", "cpu")))
    ll = report.get("llama_cpp", {})
    row("llama.cpp", failed(ll) or f"{ll.get('version')}; GPU offload {'yes' if ll.get('gpu_offload') else 'no'}")
    if ll.get("system_info"):
        row("", ll["system_info"][:160])
    ff = report.get("ffmpeg", {})
    row("ffmpeg", f"{ff.get('version') or ff.get('path')} (optional)" if ff.get("available") else "not found (optional)")
    dd = report.get("data_dir", {})
    row(
        "Data dir",
        failed(dd)
        or f"{dd.get('path')} ({'writable' if dd.get('writable') else 'NOT writable'}, {_mb(dd.get('free_bytes'))} free)",
    )
    row("Settings", failed(report.get("settings", {})) or "settings.json holds only values its settings take")
    tray = report.get("tray", {})
    row(
        "Tray",
        failed(tray)
        or f"{'available' if tray.get('tray_available') else 'not available'}"
        f" (Qt {tray.get('pyside6')}, platform {tray.get('platform')})",
    )
    tr = report.get("translation", {})
    if tr.get("endpoint"):
        row("Translation", f"OpenAI-compatible server at {tr['endpoint']} (wins over the translation model below)")
    elif tr.get("placeholder"):
        row("Translation", f"{tr['placeholder']}: a PLACEHOLDER, most translations are refused (see Notes)")
    elif "translators" in tr:
        row("Translation", "OPUS-MT " + (", ".join(tr["translators"]) or "— none installed (see Notes)"))
    lines += ["", "Models (* = in use)"]
    for model in report.get("models", []):
        mark = "*" if model.get("active") else " "
        if not model.get("installed"):
            state = "partial download" if model.get("partial_download") else "not installed"
        elif model.get("loadable") is True:
            probe = model.get("probe", {})
            state = f"loadable ({probe.get('seconds')} s)"
        elif model.get("loadable") is False:
            state = f"DOES NOT LOAD: {model.get('probe', {}).get('error')}"
        else:
            state = "installed"
        if model.get("placeholder"):
            state += ", placeholder"
        lines.append(f"  {mark} {model['role']:<15}{model['name']:<28}{model['source']:<9}{state}")
    notes = report.get("notes", [])
    if notes:
        lines += ["", "Notes:"] + [f"  - {n}" for n in notes]
    problems = report.get("problems", [])
    lines += ["", "Problems: " + ("none" if not problems else "")]
    lines += [f"  - {p}" for p in problems]
    return "\n".join(lines)
