"""File names that are not valid UTF-8, stored losslessly in a database that only holds Unicode text.

A POSIX file name is bytes. Python hands an undecodable byte of a name (``Caf\\xe9
talk.flac`` from an old Samba share or zip archive) to us as a lone surrogate
(``'Caf\\udce9 talk.flac'``, PEP 383), which neither SQLite's driver nor PostgreSQL's
text type accept. Every text the store binds therefore passes :func:`escape`, and every
text column read passes :func:`unescape` (:class:`StoredText`), so the exact bytes come
back and ``os.fsencode`` of the path read opens the same file.

The stored form, documented in README ("File names that are not UTF-8"):

- a lone surrogate (one undecodable byte, ``U+DC80``–``U+DCFF``) is ``U+FDD0`` followed by
  its code point as four lowercase hex digits: ``Caf\\udce9`` is stored as ``Caf\\ufdd0dce9``;
- ``U+FDD0`` itself (a Unicode noncharacter, reserved for exactly such internal use and
  never found in real names) is doubled.

Everything else is stored unchanged, so every UTF-8 name of an existing library keeps
its stored text, and the mapping works per character: the stored form of a folder is a
prefix of the stored form of every path below it, which keeps ``LIKE 'folder/%'`` and
equality queries right without knowing about it.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Engine, Text, event
from sqlalchemy.types import TypeDecorator

MARK = "\ufdd0"
_NEEDS_ESCAPE = re.compile("[\ud800-\udfff\ufdd0]")
_ESCAPED = re.compile("\ufdd0(\ufdd0|[0-9a-f]{4})")


def escape(text: str) -> str:
    """The storable form of ``text``: lone surrogates and the mark escaped, everything else unchanged."""
    if not _NEEDS_ESCAPE.search(text):
        return text
    return _NEEDS_ESCAPE.sub(lambda m: MARK * 2 if m.group() == MARK else f"{MARK}{ord(m.group()):04x}", text)


def unescape(text: str) -> str:
    """The text :func:`escape` was given (a path with its undecodable bytes as surrogates again)."""
    if MARK not in text:
        return text
    return _ESCAPED.sub(lambda m: MARK if m.group(1) == MARK else chr(int(m.group(1), 16)), text)


def _escaped_parameters(parameters: Any) -> Any:
    if isinstance(parameters, str):
        return escape(parameters)
    if isinstance(parameters, dict):
        return {k: _escaped_parameters(v) for k, v in parameters.items()}
    if isinstance(parameters, (list, tuple)):
        return type(parameters)(_escaped_parameters(v) for v in parameters)
    return parameters


def escape_bound_text(engine: Engine) -> None:
    """Escape every text parameter of every statement ``engine`` runs, whatever built the statement.

    At the cursor, not in a column type: raw SQL (search, migrations) and messages that
    quote a file's name are covered too, and nothing can be escaped twice.
    """

    @event.listens_for(engine, "before_cursor_execute", retval=True)
    def _escape(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        return statement, _escaped_parameters(parameters)


class StoredText(TypeDecorator[str]):
    """A text column whose value comes back as it was bound (see :func:`unescape`)."""

    impl = Text
    cache_ok = True

    def process_result_value(self, value: str | None, dialect: Any) -> str | None:
        return None if value is None else unescape(value)


__all__ = ["MARK", "StoredText", "escape", "escape_bound_text", "unescape"]
