"""One input of a batched model call that failed alone, and how it crosses the model host's pipe.

A batched call (OCR of 32 images, CLIP of 32 images) must not fail as a whole because
one file is corrupt: the runtime answers that input with an :class:`ItemFailed` in its
place and the others with their results, and the stage turns it back into the error
(:meth:`ItemFailed.error`) that fails only that item. Anything else a runtime raises
(a runtime error, the device out of memory) still fails the whole call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

from app.errors import Code, SidecarError, error_for

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class ItemFailed:
    """A picklable stand-in for the :class:`SidecarError` one input raised (its code, message and transience)."""

    code: Code
    message: str
    transient: bool = False

    @classmethod
    def of(cls, exc: SidecarError) -> ItemFailed:
        return cls(exc.code, exc.message, exc.transient)

    def error(self) -> SidecarError:
        """The error again, as the class that declares its code (as a failed single call would raise it)."""
        return error_for(self.code, self.message, self.transient)


def each(inputs: Sequence[T], fn: Callable[[T], R]) -> list[R | ItemFailed]:
    """``fn`` of every input in order; a :class:`SidecarError` it raises becomes that input's :class:`ItemFailed`."""
    out: list[R | ItemFailed] = []
    for value in inputs:
        try:
            out.append(fn(value))
        except SidecarError as exc:
            out.append(ItemFailed.of(exc))
    return out


__all__ = ["ItemFailed", "each"]
