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

    @classmethod
    def of(cls, runtime: str, memory_mb: int = 0, **params: Any) -> "ModelSpec":
        return cls(runtime, tuple(sorted(params.items())), memory_mb)
