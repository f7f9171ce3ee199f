"""Model hosts: one child process per loaded model, spoken to over a pipe.

Native runtimes (CTranslate2, llama.cpp, onnxruntime) may crash or keep memory after
an in-process unload. Running each in a spawned child means a crash fails one call
(the engine retries the stage on a fresh process) and releasing a model is ending
its process.

A command that will load a model first thing (``sidecar run``) can start its host before it
knows the model (:func:`start_spare`): the child imports the runtime's libraries while the
engine imports its own, and the first :class:`ModelHost` of that runtime takes it, sending
``("load", runtime, params, core_cap)`` (the person's core cap, set after the spare was spawned).

Protocol (parent → child): ``("call", method, args, kwargs)``, ``("stop",)`` while a
streaming call runs, ``("exit",)``. Child → parent: ``("loaded", info)`` or
``("load_error", code, message)`` once, then per call any number of
``("event", payload)`` followed by ``("result", value)``, ``("stopped",)`` or
``("error", code, message, transient)``. A runtime method that returns a generator
streams: each yielded value is an event and the generator's return value is the result.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import multiprocessing
import multiprocessing.util
import os
import threading
import traceback
from multiprocessing.connection import Connection
from typing import Any, Callable, Sequence

from app.ml.cpu_share import core_cap, set_core_cap
from app.ml.spec import ModelSpec
from app.errors import Code, ModelCrashed, OutOfDeviceMemory, SidecarError, StageStopped, error_for

log = logging.getLogger(__name__)

_CTX = multiprocessing.get_context("spawn")


def _load_runtime(spec_runtime: str, params: dict[str, Any]) -> Any:
    module_name, _, class_name = spec_runtime.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(**params)


def _serve(conn: Connection, runtime: str, params: dict[str, Any]) -> None:
    """Child main loop: load once, then answer calls until told to exit or the pipe closes."""
    try:
        model = _load_runtime(runtime, params)
        info: dict[str, Any] = getattr(model, "info", dict)()
    except SidecarError as exc:
        conn.send(("load_error", exc.code, exc.message))
        return
    except Exception as exc:  # noqa: BLE001 - reported to the parent with its trace
        code = OutOfDeviceMemory.code if is_out_of_memory(exc) else Code.MODEL_LOAD_FAILED
        conn.send(("load_error", code, f"{exc}\n{traceback.format_exc()}"))
        return
    try:
        conn.send(("loaded", info))
        _answer_calls(conn, model)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        return  # the engine is gone (killed or closed): nothing left to answer


def _serve_spare(conn: Connection, preload: tuple[str, ...]) -> None:
    """A spare child: import ``preload`` now, then serve the model the parent names with ``("load", runtime, params, core_cap)``."""
    for name in preload:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # the load itself reports what is missing, typed
    try:
        message = conn.recv()
    except (EOFError, OSError):
        return  # never needed: the parent ended it (or is gone)
    if message[0] == "load":
        # Spawned before the engine read the settings, this child inherited no core cap:
        # the parent's, as it is now, comes with the load (a host spawned now inherits it).
        set_core_cap(message[3] or 0)
        _serve(conn, message[1], message[2])


def _answer_calls(conn: Connection, model: Any) -> None:
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message[0] == "exit":
            # Skip the runtime's destructors: the OS takes the memory back at once, which is
            # the whole point of releasing a model by ending its process. Only multiprocessing's
            # own exit work runs: a runtime may have made a named semaphore (faster-whisper builds
            # a tqdm progress bar, even a disabled one, and tqdm's lock is one), which only that
            # work unlinks; skipped, the engine's resource tracker prints "leaked semaphore
            # objects" on stderr at the end of every run.
            conn.close()
            multiprocessing.util._run_finalizers(0)  # type: ignore[attr-defined]  # private: see above
            os._exit(0)
        if message[0] != "call":
            continue
        _, method, args, kwargs = message
        try:
            value = getattr(model, method)(*args, **kwargs)
            if inspect.isgenerator(value):
                value = _stream(conn, value)
                if value is _STOPPED:
                    conn.send(("stopped",))
                    continue
            conn.send(("result", value))
        except SidecarError as exc:
            conn.send(("error", exc.code, exc.message, exc.transient))
        except Exception as exc:  # noqa: BLE001 - any runtime failure goes back to the parent, typed
            code = OutOfDeviceMemory.code if is_out_of_memory(exc) else Code.RUNTIME_ERROR
            conn.send(("error", code, f"{exc}\n{traceback.format_exc()}", True))


_STOPPED = object()

# How CTranslate2 ("CUDA failed with error out of memory"), PyTorch-style CUDA ("CUDA out of
# memory"), onnxruntime ("Failed to allocate memory", "CUDA_ERROR_OUT_OF_MEMORY"), llama.cpp
# ("cudaMalloc failed: out of memory") and cuBLAS word a failed device allocation.
_OOM_MARKERS = ("out of memory", "out_of_memory", "cudaerrormemoryallocation", "failed to allocate",
                "cublas_status_alloc_failed")


def is_out_of_memory(exc: BaseException) -> bool:
    """True when a runtime error is an allocation failure: the one test the engine's out-of-memory handling keys on.

    Loading and calling a model both answer such errors with ``gpu_out_of_memory``; the
    engine then releases every model, retries, and falls back to the CPU.
    """
    text = str(exc).lower()
    return isinstance(exc, MemoryError) or any(marker in text for marker in _OOM_MARKERS)


def _stream(conn: Connection, gen: Any) -> Any:
    while True:
        if conn.poll() and conn.recv()[0] == "stop":
            gen.close()
            return _STOPPED
        try:
            event = next(gen)
        except StopIteration as done:
            return done.value
        conn.send(("event", event))


class _Spare:
    """A model-host child started for ``runtime`` before its model is known (:func:`start_spare`)."""

    def __init__(self, runtime: str, preload: tuple[str, ...]):
        self.runtime = runtime
        self.conn, child = _CTX.Pipe()
        self.process = _CTX.Process(target=_serve_spare, args=(child, preload), daemon=True,
                                    name=f"model-host {runtime}")
        self.process.start()
        child.close()


_spare: _Spare | None = None
_spare_lock = threading.Lock()


def start_spare(runtime: str, preload: Sequence[str] = ()) -> int | None:
    """Start the host process of this process's first ``runtime`` model now, importing ``preload`` until it is named.

    For a command whose first model is known before its engine has even been imported
    (``sidecar run``: Whisper, issue 24): spawning an interpreter and importing
    faster-whisper (~0.5 s on two cores) then runs beside the engine's own imports instead
    of after them. The first :class:`ModelHost` for ``runtime`` takes it; :func:`end_spare`
    ends one nobody took. Returns the spare's process id.
    """
    global _spare
    with _spare_lock:
        if _spare is None:
            _spare = _Spare(runtime, tuple(preload))
        return _spare.process.pid


def _take_spare(runtime: str) -> _Spare | None:
    global _spare
    with _spare_lock:
        if _spare is None or _spare.runtime != runtime:
            return None
        spare, _spare = _spare, None
    if spare.process.is_alive():
        return spare
    spare.conn.close()
    return None


def end_spare() -> None:
    """End the spare host nobody took (the engine releases its models): its imports hold memory for nothing."""
    global _spare
    with _spare_lock:
        spare, _spare = _spare, None
    if spare is not None:
        spare.conn.close()  # the child's wait for its model ends: it exits
        spare.process.join(timeout=5)
        if spare.process.is_alive():
            spare.process.kill()
            spare.process.join(timeout=5)


class ModelHost:
    """The parent's handle on one child process hosting one model.

    ``thread_guard`` (like ``Database.thread_guard``) lets the GUI forbid model calls
    on its own thread: it is called at the start of every call and raises there.
    """

    thread_guard: Callable[[], None] | None = None

    def __init__(self, spec: ModelSpec):
        self.spec = spec
        self._lock = threading.Lock()
        spare = _take_spare(spec.runtime)
        if spare is not None:
            self._conn, self._process = spare.conn, spare.process
            self._conn.send(("load", spec.runtime, dict(spec.params), core_cap()))
        else:
            self._conn, child = _CTX.Pipe()
            self._process = _CTX.Process(
                target=_serve, args=(child, spec.runtime, dict(spec.params)), daemon=True,
                name=f"model-host {spec.runtime}"
            )
            self._process.start()
            child.close()
        reply = self._recv()
        if reply[0] == "load_error":
            self.close()
            raise error_for(reply[1], reply[2], transient=reply[1] == OutOfDeviceMemory.code)
        self.info: dict[str, Any] = reply[1] or {}
        log.info("model host %s started (pid %s)", spec.key, self._process.pid)

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    @property
    def pid(self) -> int | None:
        return self._process.pid

    def _recv(self) -> tuple:
        try:
            return self._conn.recv()
        except (EOFError, OSError) as exc:
            self._process.join(timeout=5)
            raise ModelCrashed(
                f"the model process for {self.spec.runtime} ended unexpectedly (exit code {self._process.exitcode})"
            ) from exc

    def call(self, method: str, *args: Any, on_event: Callable[[Any], bool] | None = None, **kwargs: Any) -> Any:
        """Run one call; one call at a time per host (a model instance is not re-entrant)."""
        if ModelHost.thread_guard is not None:
            ModelHost.thread_guard()
        with self._lock:
            try:
                self._conn.send(("call", method, args, kwargs))
            except (BrokenPipeError, OSError) as exc:
                raise ModelCrashed(f"the model process for {self.spec.runtime} is gone") from exc
            stop_sent = False
            while True:
                reply = self._recv()
                kind = reply[0]
                if kind == "event":
                    # Events already in flight when the caller said stop are dropped: the caller
                    # checkpointed up to the event it accepted last and resumes from there.
                    if stop_sent:
                        continue
                    if on_event is not None and on_event(reply[1]) is False:
                        self._conn.send(("stop",))
                        stop_sent = True
                elif kind == "result":
                    return reply[1]
                elif kind == "stopped":
                    raise StageStopped("stopped at a checkpoint")
                elif kind == "error":
                    raise error_for(reply[1], reply[2], transient=reply[3])

    def close(self, wait: bool = True) -> None:
        """End the process; this is how a model's memory is given back. ``wait=False`` kills it at once."""
        try:
            self._conn.send(("exit",))
        except (BrokenPipeError, OSError):
            pass
        self._process.join(timeout=10 if wait else 0)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=5)
        self._conn.close()
