"""File names that are not valid UTF-8, stored losslessly in a database that only holds Unicode text.

A POSIX file name is bytes. Python hands an undecodable byte of a name (``Caf\\xe9
talk.flac`` from an old Samba share or zip archive) to us as a lone surrogate
(``'Caf\\udce9 talk.flac'``, PEP 383), which neither SQLite's driver nor PostgreSQL's
text type accept. Every text the store binds therefore passes
:func:`~app.shown_names.escape` (the form is described there and in README "File names
that are not UTF-8"), and every text column read passes
:func:`~app.shown_names.unescape` (:class:`StoredText`), so the exact bytes come back
and ``os.fsencode`` of the path read opens the same file.

Every UTF-8 name of an existing library keeps its stored text, and the mapping works
per character: the stored form of a folder is a prefix of the stored form of every path
below it, which keeps equality and prefix queries right without knowing about it (a
``substr`` compare takes the stored form's length).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, Text, event
from sqlalchemy.types import TypeDecorator

from app.shown_names import escape, unescape

_PLAIN = frozenset({int, float, bool, bytes, type(None)})


def _is_plain(value: Any) -> bool:
    """Whether ``value`` holds no text that could need escaping (ASCII is never escaped): checked without copying.

    An add of a million files binds tens of millions of values, nearly all plain: escaping
    them by rebuilding every row cost more than the inserts themselves.
    """
    kind = type(value)
    if isinstance(value, str):
        return value.isascii()
    if kind in _PLAIN:
        return True
    if kind is dict:
        values = value.values()
    elif kind is list or kind is tuple:
        values = value
    else:
        return False
    for v in values:
        if isinstance(v, str):  # a StrEnum state too
            if not v.isascii():
                return False
        elif type(v) not in _PLAIN and not _is_plain(v):
            return False
    return True


def _escaped_parameters(parameters: Any) -> Any:
    if _is_plain(parameters):
        return parameters
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
    def _escape(conn, cursor, statement, parameters, context, executemany):
        return statement, _escaped_parameters(parameters)


class StoredText(TypeDecorator[str]):
    """A text column whose value comes back as it was bound (see :func:`unescape`)."""

    impl = Text
    cache_ok = True

    def process_result_value(self, value: str | None, dialect: Any) -> str | None:
        return None if value is None else unescape(value)


__all__ = ["StoredText", "escape_bound_text"]
