"""Each status column has one writer: a status write anywhere else in app/ fails here (issue 22.1).

The scan reads every module under app/ as Python (ast) and flags, outside the one module
allowed for that table:

* ``update(<table>)`` / ``insert(<table>)`` whose ``.values(...)`` sets the status column
  (or spreads ``**values``, which could hide it), and ``execute(insert(<table>), {...})``
  whose rows carry it;
* a ``status=`` / ``state=`` keyword or ``"status"`` / ``"state"`` key holding a named
  state constant (``StageState.QUEUED``...), the way a fenced update is handed its status;
* raw SQL that updates the column or inserts rows of these tables.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "app"

#: table -> (its status column, the state enum naming its values, the only module that may write it)
WRITERS = {
    "jobs": ("state", "JobState", "app/store/job_transitions.py"),
    "items": ("status", "ItemState", "app/store/item_transitions.py"),
    "stages": ("status", "StageState", "app/store/stage_transitions.py"),
    "steps": ("state", "StepState", "app/store/step_transitions.py"),
}
_BY_ENUM = {enum: table for table, (_, enum, _) in WRITERS.items()}
_RAW_SQL = re.compile(r"\b(?:UPDATE\s+(jobs|items|stages|steps)\s+SET\b(?:(?!\bWHERE\b)[^;])*?\b(status|state)\s*=|"
                      r"INSERT\s+INTO\s+(jobs|items|stages|steps)\b)", re.IGNORECASE | re.DOTALL)


def _table_of(call: ast.expr) -> str | None:
    """``jobs`` for ``update(jobs)`` / ``insert(jobs)`` anywhere down a method chain (``update(t).where(...)``)."""
    node: ast.expr | None = call
    while node is not None:
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id in ("update", "insert") and node.args
                    and isinstance(node.args[0], ast.Name) and node.args[0].id in WRITERS):
                return node.args[0].id
            node = func.value if isinstance(func, ast.Attribute) else None
        elif isinstance(node, ast.Attribute):
            node = node.value
        else:
            return None
    return None


def _sets(table: str, keywords: list[ast.keyword], keys: list[ast.expr | None]) -> bool:
    column = WRITERS[table][0]
    return (any(k.arg in (column, None) for k in keywords)
            or any(k is None or (isinstance(k, ast.Constant) and k.value == column) for k in keys))


def _row_keys(node: ast.expr) -> tuple[list[ast.keyword], list[ast.expr | None]]:
    """The keywords of ``dict(...)`` or the keys of ``{...}`` (and of each row of a list of them)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return node.keywords, []
    if isinstance(node, ast.Dict):
        return [], list(node.keys)
    if isinstance(node, (ast.List, ast.ListComp)):
        rows = node.elts if isinstance(node, ast.List) else [node.elt]
        keywords: list[ast.keyword] = []
        keys: list[ast.expr | None] = []
        for row in rows:
            more_keywords, more_keys = _row_keys(row)
            keywords += more_keywords
            keys += more_keys
        return keywords, keys
    return [], []


def _named_state(value: ast.expr) -> str | None:
    """The table whose state enum ``value`` names a member of (``StageState.QUEUED`` -> stages)."""
    for node in ast.walk(value):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in _BY_ENUM:
            return _BY_ENUM[node.value.id]
    return None


def status_writes(source: str) -> list[tuple[int, str]]:
    """``(line, table)`` of every status write in ``source``."""
    found: set[tuple[int, str]] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "values":
                table = _table_of(func.value)
                if table and _sets(table, node.keywords, []):
                    found.add((node.lineno, table))
            if isinstance(func, ast.Attribute) and func.attr == "execute" and len(node.args) >= 2:
                table = _table_of(node.args[0])
                if table:
                    keywords, keys = _row_keys(node.args[1])
                    if _sets(table, keywords, keys):
                        found.add((node.lineno, table))
            for keyword in node.keywords:
                if keyword.arg in ("status", "state") and not isinstance(keyword.value, ast.Call):
                    table = _named_state(keyword.value)
                    if table and WRITERS[table][0] == keyword.arg:
                        found.add((keyword.value.lineno, table))
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value in ("status", "state") and not isinstance(value, ast.Call):
                    table = _named_state(value)
                    if table and WRITERS[table][0] == key.value:
                        found.add((value.lineno, table))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for match in _RAW_SQL.finditer(node.value):
                found.add((node.lineno, (match.group(1) or match.group(3)).lower()))
    return sorted(found)


def test_every_status_column_is_written_by_its_one_module_only() -> None:
    strays = []
    writes = {table: 0 for table in WRITERS}
    for path in sorted(APP.rglob("*.py")):
        where = path.relative_to(APP.parent).as_posix()
        for line, table in status_writes(path.read_text(encoding="utf-8")):
            if where == WRITERS[table][2]:
                writes[table] += 1
            else:
                strays.append(f"{where}:{line} writes {table}.{WRITERS[table][0]} (only {WRITERS[table][2]} may)")
    assert strays == []
    assert all(writes.values()), f"the scan no longer sees the writers' own writes: {writes}"


@pytest.mark.parametrize("source, table", [
    ("conn.execute(update(stages).where(stages.c.id == 1).values(status=StageState.QUEUED))", "stages"),
    ("conn.execute(update(items).values(status=new, updated_at=now))", "items"),
    ("conn.execute(update(jobs).where(jobs.c.id == 1).values(**values))", "jobs"),
    ("conn.execute(insert(items), dict(path=p, status=s))", "items"),
    ("conn.execute(insert(stages), [{'status': s, 'idx': 0}])", "stages"),
    ("repo._fenced_update(conn, claim, status=StageState.FAILED)", "stages"),
    ("values = {'status': ItemState.PENDING}", "items"),
    ("conn.execute(text('UPDATE stages SET progress = 1, status = :s WHERE id = :id'))", "stages"),
    ("conn.execute(text('INSERT INTO jobs (folder) VALUES (:f)'))", "jobs"),
])
def test_the_scan_sees_each_way_of_writing_a_status(source: str, table: str) -> None:
    assert [t for _, t in status_writes(source)] == [table]


def test_reading_or_showing_a_status_is_not_a_write() -> None:
    source = """
conn.execute(text("UPDATE items SET sha256 = :s WHERE status = 'skipped'"))
rows = conn.execute(select(stages).where(stages.c.status == StageState.RUNNING)).all()
view = ItemView(status=ItemState(row["status"]), path=p)
conn.execute(update(items).where(items.c.id == 1).values(path=new_path, updated_at=now))
conn.execute(update(jobs).where(jobs.c.id == 1).values(paused=1))
"""
    assert status_writes(source) == []
