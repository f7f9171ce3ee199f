"""A worker's claims stay inside its scope (path prefixes, kinds, GPU stages), in the claim query itself."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from sqlalchemy import select

from app.engine.path_map import PathMap
from app.store import Store
from app.store.claim_scope import ClaimScope, ScopePrefix
from app.store.records import NewItem, NewStage
from app.store.states import StageState
from app.store.tables import stages


@pytest.fixture
def store(data_dir: Path) -> Iterator[Store]:
    s = Store(data_dir / "library.sqlite3", lease_seconds=30)
    yield s
    s.close()


def _job(store: Store, folder: str, *names: str, kind: str = "video", gpu_stage: int | None = None,
         sep: str = "/") -> int:
    job = store.jobs.create(folder, {}, owner="test")
    store.jobs.add_items(job, [
        NewItem(f"{folder}{sep}{name}", kind, 1, 1, f"sha-{folder}-{name}",
                tuple(NewStage(i, f"s{i}", f"fp{i}", gpu_mb=500 if i == gpu_stage else 0,
                               model_key="m" if i == gpu_stage else None) for i in range(2)))
        for name in names
    ])
    store.jobs.finish_creating(job, {})
    return job


def _claim_all(store: Store, scope: ClaimScope, gpu: bool | None = None) -> list[str]:
    claimed = []
    while (claim := store.stages.claim_next_stage("w:0", gpu=gpu, scope=scope)) is not None:
        claimed.append(claim.item_path)
    return sorted(claimed)


def _posix(*prefixes: str) -> ClaimScope:
    return ClaimScope(prefixes=tuple(ScopePrefix(p) for p in prefixes))


def test_only_items_under_a_prefix_are_claimed_and_the_rest_stay_queued(store: Store) -> None:
    _job(store, "/nas/media", "a.mkv", "b.mkv")
    _job(store, "/nas/media2", "c.mkv")
    _job(store, "/nas/other", "d.mkv")
    assert _claim_all(store, _posix("/nas/media")) == ["/nas/media/a.mkv", "/nas/media/b.mkv"]
    with store.db.read() as conn:
        left = conn.execute(select(stages.c.status).where(stages.c.idx == 0, stages.c.lease_owner.is_(None))).scalars().all()
    assert left == [StageState.QUEUED, StageState.QUEUED], "items out of scope are neither claimed nor failed"
    assert store.stages.has_runnable_or_running(_posix("/nas/media"))[:2] == (False, True)
    assert store.stages.has_runnable_or_running(_posix("/nas/other"))[:2] == (True, False)


def test_sql_wildcards_and_case_in_a_posix_prefix_match_literally(store: Store) -> None:
    _job(store, "/nas/a_b", "x.mkv")
    _job(store, "/nas/aXb", "y.mkv")
    _job(store, "/nas/A_B", "z.mkv")
    _job(store, "/nas/100%", "w.mkv")
    _job(store, "/nas/1000", "v.mkv")
    assert _claim_all(store, _posix("/nas/a_b", "/nas/100%")) == ["/nas/100%/w.mkv", "/nas/a_b/x.mkv"]


def test_a_windows_library_prefix_ignores_case_and_matches_whole_components(store: Store) -> None:
    _job(store, "D:\\Media", "a.mkv", sep="\\")
    _job(store, "D:\\Media2", "b.mkv", sep="\\")
    scope = ClaimScope(prefixes=(ScopePrefix("d:\\media", "\\", ignore_case=True),))
    assert _claim_all(store, scope) == ["D:\\Media\\a.mkv"]


def test_no_reachable_prefix_claims_nothing(store: Store) -> None:
    _job(store, "/nas/media", "a.mkv")
    assert _claim_all(store, ClaimScope(prefixes=())) == []
    assert store.stages.has_runnable_or_running(ClaimScope(prefixes=()))[0] is False


def test_kinds_and_excluded_items_narrow_the_claims(store: Store) -> None:
    _job(store, "/nas/v", "a.mkv")
    _job(store, "/nas/i", "p.jpg", kind="image")
    assert _claim_all(store, ClaimScope(kinds=frozenset({"image"}))) == ["/nas/i/p.jpg"]
    video = store.jobs.items(1)[0].id
    assert _claim_all(store, ClaimScope(exclude_items=frozenset({video}))) == []


def test_gpu_only_takes_only_gate_stages(store: Store) -> None:
    _job(store, "/nas/media", "a.mkv", "b.mkv", gpu_stage=1)
    gpu_only = ClaimScope(gpu_only=True)
    assert _claim_all(store, gpu_only, gpu=None) == [], "the first stage of each item is a CPU stage"
    assert store.stages.has_runnable_or_running(gpu_only) == (False, False, None)
    cpu = store.stages.claim_next_stage("cpu:0", gpu=False)
    assert cpu is not None
    assert store.stages.has_runnable_or_running(gpu_only)[1] is True, "a CPU stage another machine runs is waited for"
    assert store.stages.complete_stage(cpu, {}) is False
    assert store.stages.peek_gpu_candidate(gpu_only) is not None
    assert _claim_all(store, gpu_only, gpu=True) == [cpu.item_path]


def test_the_gpu_gate_waits_only_for_items_in_scope(store: Store) -> None:
    """A translate waits while a live item of its group has yet to be transcribed — only an item this worker takes."""
    job = store.jobs.create("/nas", {}, owner="test")
    store.jobs.add_items(job, [
        NewItem(f"/nas/{d}/{n}", "video", 1, 1, f"sha-{d}", (
            NewStage(0, "extract", "f0"), NewStage(1, "transcribe", "f1", gpu_mb=500, model_key="whisper"),
            NewStage(2, "translate", "f2", gpu_mb=500, model_key="llm")))
        for d, n in (("mine", "a.mkv"), ("theirs", "b.mkv"))
    ])
    store.jobs.finish_creating(job, {})
    mine = _posix("/nas/mine")
    for expected in ("extract", "transcribe"):
        claim = store.stages.claim_next_stage("w:0", gpu=None, scope=mine)
        assert claim is not None and claim.name == expected
        store.stages.complete_stage(claim, {})
    assert store.stages.peek_gpu_candidate() is None, "unscoped: the other item's transcribe comes first"
    candidate = store.stages.peek_gpu_candidate(mine)
    assert candidate is not None and candidate[2] == "llm", "in scope, nothing holds the translate back"


def test_a_path_map_scope_matches_the_python_mapping(store: Store, tmp_path: Path) -> None:
    (tmp_path / "local").mkdir()
    paths = PathMap.parse([f"/nas/media/={tmp_path / 'local'}/"])
    _job(store, "/nas/media", "a.mkv")
    _job(store, "/nas/media-old", "b.mkv")
    scope = ClaimScope(prefixes=paths.reachable_prefixes())
    claimed = _claim_all(store, scope)
    assert claimed == ["/nas/media/a.mkv"]
    assert [paths.to_local(p) for p in claimed] == [str(tmp_path / "local" / "a.mkv")]
    (tmp_path / "local").rmdir()
    assert paths.reachable_prefixes() == (), "a vanished mount leaves the scope"
