"""States are named once (app/store/states.py) and each shared transition is written once (app/store/shared_transitions.py).

The scan reads every module under app/ as a syntax tree. A string literal whose value
is a state word ("queued", "manual_review", …) outside the states module is a state
written by hand, unless it sits where the word names something else: a dict key or
subscript (a JSON field such as ``"skipped": 3``), the key of ``.get()`` or of an
``in`` test on a mapping, a table column's name, or one of the few places listed in
``NOT_STATES``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from app.store.states import ItemState, JobState, JobSummaryStatus, StageState, StepState

APP = Path(__file__).resolve().parent.parent / "app"
STATES_MODULE = APP / "store" / "states.py"
STATE_WORDS = {str(m) for enum in (ItemState, JobState, JobSummaryStatus, StageState, StepState) for m in enum}

NOT_STATES: dict[tuple[str, str], str] = {
    ("build_parser", "review"): "the name of the `sidecar review` command",
    ("_pause_resume", "paused"): "the word printed after `sidecar pause` (next to 'resumed')",
    ("Code", "manual_review"): "the error code of a contested placement",
    ("_identify", "queued"): "a watched folder's change event, not an item state",
    ("_on_change", "queued"): "a watched folder's change event, not an item state",
}


class _Finder(ast.NodeVisitor):
    def __init__(self) -> None:
        self.scope: list[str] = []
        self.exempt: set[int] = set()  # ids of Constant nodes in name positions
        self.found: list[tuple[int, str, str]] = []  # (line, scope, word)

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_Dict(self, node: ast.Dict) -> None:
        self.exempt.update(id(k) for k in node.keys if k is not None)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self.exempt.add(id(node.slice))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            self.exempt.update(id(a) for a in node.args)
        if isinstance(node.func, ast.Name) and node.func.id == "Column" and node.args:
            self.exempt.add(id(node.args[0]))  # a column named "paused"
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        if isinstance(node.ops[0], (ast.In, ast.NotIn)) and not isinstance(node.comparators[0], (ast.Tuple, ast.List, ast.Set)):
            self.exempt.add(id(node.left))  # "skipped" in output: a key test on a mapping
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and node.value in STATE_WORDS and id(node) not in self.exempt:
            scope = self.scope[-1] if self.scope else "<module>"
            if (scope, node.value) not in NOT_STATES:
                self.found.append((node.lineno, scope, node.value))


def _raw_states(source: str) -> list[tuple[int, str, str]]:
    finder = _Finder()
    finder.visit(ast.parse(source))
    return finder.found


def test_no_state_is_spelled_out_outside_the_states_module() -> None:
    found = []
    for path in sorted(APP.rglob("*.py")):
        if path != STATES_MODULE:
            found += [f"{path.relative_to(APP.parent)}:{line} in {scope}: {word!r}"
                      for line, scope, word in _raw_states(path.read_text(encoding="utf-8"))]
    assert found == [], "use the enums of app/store/states.py:\n" + "\n".join(found)


def test_the_scan_finds_hand_written_states_and_passes_field_names() -> None:
    source = '''
def f(row, stages, out):
    if row["status"] == "queued":
        stages.update().values(status="running")
    q = stages.c.status.in_(("waiting", "queued"))
    move(step, ("started",), "succeeded")
    out = {"skipped": 1, "failed": out["failed"], "x": out.get("review", 0)}
    return "skipped" in out
'''
    assert [word for _, _, word in _raw_states(source)] == ["queued", "running", "waiting", "queued", "started", "succeeded"]


def test_every_state_keeps_the_word_stored_in_the_database() -> None:
    assert [str(s) for s in StageState] == ["waiting", "queued", "running", "succeeded", "failed", "review", "skipped"]
    assert [str(s) for s in StepState] == ["prepared", "started", "succeeded", "manual_review", "skipped"]
    assert [str(s) for s in JobState] == ["creating", "ready", "failed"]
    assert ItemState.PENDING == "pending" and f"{ItemState.COMPLETED:>10}" == " completed"


TRANSITIONS = {
    "requeue a running stage": "requeue_running_stages_and_items(",
    "stop unfinished work": "stop_unfinished_items_and_stages(",
    "remember placed output": "remember_placed_output(",
    "pause-all query": "is_paused_all(",
}


def test_each_shared_transition_is_written_once_and_used_by_the_repositories() -> None:
    store = APP / "store"
    transitions = (store / "shared_transitions.py").read_text(encoding="utf-8")
    for name, call in TRANSITIONS.items():
        assert transitions.count("def " + call) == 1, name
        users = [p.name for p in sorted(store.glob("*.py")) if p.name != "shared_transitions.py"
                 and call in p.read_text(encoding="utf-8")]
        assert users, f"{name}: no repository uses it"
    for path in sorted(APP.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name != "shared_transitions.py":
            assert "engine_flags.c.name ==" not in text, f"{path}: the pause-all flag is read in shared_transitions.py only"
            assert "insert(placed_outputs)" not in text, f"{path}: placed outputs are remembered in shared_transitions.py only"
