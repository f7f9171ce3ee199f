"""How to host one model runtime: the value the engine, the GPU gate and the model hosts share.

It lives in ``app.ml`` (not beside the stage protocol in ``app.engine``) so the model
layer never imports the engine: dependencies point down only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ModelSpec:
    """A model runtime to host in a child process.

    ``runtime`` is ``"module:Class"`` importable in the child; ``params`` are the
    keyword arguments of its constructor. Equal specs share one resident process.
    """

    runtime: str
    params: tuple[tuple[str, Any], ...] = ()
    memory_mb: int = 0

    @property
    def key(self) -> str:
        args = ",".join(f"{k}={v}" for k, v in self.params)
        return f"{self.runtime}({args})"

    def on_cpu(self) -> ModelSpec | None:
        """The same model on the CPU, for the retry after the device ran out of memory; None when it runs there already.

        Runtimes that may run on a GPU take a ``device`` parameter (CTranslate2 also a
        ``compute_type``: ``int8`` is its CPU type). The CPU copy reserves no device memory.
        """
        params = dict(self.params)
        if params.get("device", "cpu") == "cpu":
            return None
        params["device"] = "cpu"
        if "compute_type" in params:
            params["compute_type"] = "int8"
        return ModelSpec.of(self.runtime, memory_mb=0, **params)

    @classmethod
    def of(cls, runtime: str, memory_mb: int = 0, **params: Any) -> ModelSpec:
        return cls(runtime, tuple(sorted(params.items())), memory_mb)
