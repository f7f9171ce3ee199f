"""File names as people and JSON readers see them, whatever bytes the file system holds.

A name that is not valid UTF-8 reaches Python with each undecodable byte as a lone
surrogate (PEP 383): ``b'Caf\\xe9 talk.flac'`` is ``'Caf\\udce9 talk.flac'``. Such a string
cannot be printed to a strict UTF-8 stream, handed to Qt or written into JSON a
non-Python reader accepts, so what is shown uses :func:`readable` (each such byte is
U+FFFD, "�"), and ``--json`` adds the exact bytes beside it (:func:`with_name_bytes`,
documented in README "File names that are not UTF-8").

Where such a name must travel through something that holds only Unicode text — the
library database (app.store.byte_text), a Qt item role or signal — it travels as
:func:`escape` makes it, and :func:`unescape` gives back the exact name:

- a lone surrogate (one undecodable byte, ``U+DC80``–``U+DCFF``) becomes ``U+FDD0``
  followed by its code point as four lowercase hex digits (``Caf\\udce9`` →
  ``Caf\\ufdd0dce9``);
- ``U+FDD0`` itself (a Unicode noncharacter, reserved for such internal use and never
  found in real names) is doubled; everything else is unchanged.
"""

from __future__ import annotations

import base64
import logging
import os
import re
from typing import Any

MARK = "\ufdd0"
_NEEDS_ESCAPE = re.compile("[\ud800-\udfff\ufdd0]")
_ESCAPED = re.compile("\ufdd0(\ufdd0|[0-9a-f]{4})")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def escape(text: str) -> str:
    """A form of ``text`` any Unicode store holds: lone surrogates and the mark escaped, everything else unchanged."""
    if text.isascii() or not _NEEDS_ESCAPE.search(text):  # isascii first: every bound text passes here
        return text
    return _NEEDS_ESCAPE.sub(lambda m: MARK * 2 if m.group() == MARK else f"{MARK}{ord(m.group()):04x}", text)


def unescape(text: str) -> str:
    """The text :func:`escape` was given (a path with its undecodable bytes as surrogates again)."""
    if MARK not in text:
        return text
    return _ESCAPED.sub(lambda m: MARK if m.group(1) == MARK else chr(int(m.group(1), 16)), text)


def readable(text: str) -> str:
    """``text`` for people and for UTF-8 outputs: each undecodable byte of a name shown as U+FFFD (�)."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def one_line(text: str) -> str:
    """``text`` readable and on one line: a newline or carriage return inside a file name is shown as ``\\n``/``\\r``."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], readable(text))


class OneLineFormatter(logging.Formatter):
    """Log lines that stay one line each and print on any stream, whatever file names a message quotes.

    A traceback (when one is logged) still follows on its own lines; only the message is folded.
    """

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = one_line(record.message)
        return super().formatMessage(record)


def with_name_bytes(value: Any) -> Any:
    """A JSON-ready copy of ``value`` in which no string holds an undecodable byte.

    A field ``"path": "Caf\\udce9 talk.flac"`` becomes ``"path": "Caf� talk.flac"`` plus
    ``"path_bytes": "Q2Fm6SB0YWxrLmZsYWM="``, the base64 of the name's exact bytes
    (``os.fsencode`` of the original), so a script can still open the file. A string
    inside a list only gets the readable form.
    """
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            if isinstance(item, str) and _SURROGATE.search(item):
                out[key] = readable(item)
                out[f"{key}_bytes"] = base64.b64encode(os.fsencode(item)).decode("ascii")
            else:
                out[key] = with_name_bytes(item)
        return out
    if isinstance(value, (list, tuple)):
        return [with_name_bytes(item) for item in value]
    if isinstance(value, str):
        return readable(value)
    return value


__all__ = ["MARK", "OneLineFormatter", "escape", "one_line", "readable", "unescape", "with_name_bytes"]
