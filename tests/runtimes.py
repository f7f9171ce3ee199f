"""Tiny model runtimes for model-host tests: they load nothing heavy, but they run in a real child process."""

from __future__ import annotations

import os


class EchoRuntime:
    def __init__(self, tag: str = "") -> None:
        self.tag = tag

    def info(self) -> dict[str, object]:
        return {"pid": os.getpid(), "tag": self.tag}

    def echo(self, value: object) -> object:
        return value

    def pid(self) -> int:
        return os.getpid()

    def count(self, n: int):  # noqa: ANN201 - a streaming generator
        for i in range(n):
            yield i
        return n

    def abort(self, *_: object) -> None:
        os.abort()

    def oom(self, *_: object) -> None:
        raise RuntimeError("CUDA failed with error out of memory")
