"""Claims read their lane's index in claim order and walk only the jobs their scope reaches (issue 25.2).

The cost of a claim must not grow with the library: ``bench/worker_claims.py`` measures
it; these tests pin down what makes it flat, on both backends: a CPU claim reads the
CPU lane's partial index and a GPU claim the GPU lane's (never the other lane's
stages), neither sorts, and a job no path-map prefix meets is not walked at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event

from app.store import Store
from app.store.claim_scope import EVERYTHING, ClaimScope, Reach, ScopePrefix
from app.store.records import NewItem, NewStage

GPU_FIRST = (NewStage(0, "ocr", "f", gpu_mb=500, model_key="m"), NewStage(1, "index", "f"))
CPU_FIRST = (NewStage(0, "extract", "f"), NewStage(1, "transcribe", "f", gpu_mb=500, model_key="m"))


def _add(store: Store, folder: str, names: list[str], plan: tuple[NewStage, ...]) -> int:
    job = store.jobs.create(folder, {}, owner="test")
    store.jobs.add_items(job, [NewItem(f"{folder}/{name}", "video", 1, 1, f"sha-{folder}/{name}", plan)
                               for name in names])
    store.jobs.finish_creating(job, {})
    return job


def _claimed_paths(store: Store, scope: ClaimScope, gpu: bool = False) -> list[str]:
    paths = []
    while (claim := store.stages.claim_next_stage("w:0", gpu=gpu, scope=scope)) is not None:
        paths.append(claim.item_path)
    return paths


def test_reach_is_judged_by_whole_path_components() -> None:
    scope = ClaimScope(prefixes=(ScopePrefix("/nas/media"),))
    assert scope.reach("/nas/media") is Reach.WHOLE
    assert scope.reach("/nas/media/films") is Reach.WHOLE
    assert scope.reach("/nas") is Reach.PART  # the mapping is one folder of the added one
    assert scope.reach("/nas/media2") is Reach.NONE
    assert scope.reach("/other") is Reach.NONE
    assert scope.reach(None) is Reach.PART
    assert EVERYTHING.reach("/anything") is Reach.WHOLE
    assert ClaimScope(prefixes=()).reach("/nas") is Reach.NONE
    windows = ClaimScope(prefixes=(ScopePrefix("D:\\Media", "\\", ignore_case=True),))
    assert windows.reach("d:\\media\\Films") is Reach.WHOLE
    assert windows.reach("D:\\") is Reach.PART


def test_a_claim_takes_only_what_its_scope_reaches(store_location: Path | str) -> None:
    store = Store(store_location)
    try:
        _add(store, "/nas/photos", ["p1", "p2"], CPU_FIRST)
        _add(store, "/nas/media", ["films/f1", "series/s1", "films/f2"], CPU_FIRST)
        _add(store, "/nas/media2", ["m1"], CPU_FIRST)
        films = ClaimScope(prefixes=(ScopePrefix("/nas/media/films"),))
        assert _claimed_paths(store, films) == ["/nas/media/films/f1", "/nas/media/films/f2"]
        media = ClaimScope(prefixes=(ScopePrefix("/nas/media"),))
        assert _claimed_paths(store, media) == ["/nas/media/series/s1"]
        assert _claimed_paths(store, ClaimScope(prefixes=(ScopePrefix("/nas"),))) == [
            "/nas/photos/p1", "/nas/photos/p2", "/nas/media2/m1"]
    finally:
        store.close()


def test_a_paused_job_is_not_walked_and_its_stages_wait(store_location: Path | str) -> None:
    store = Store(store_location)
    try:
        first = _add(store, "/a", ["1", "2"], CPU_FIRST)
        _add(store, "/b", ["3"], CPU_FIRST)
        store.jobs.set_paused(first, True)
        assert _claimed_paths(store, EVERYTHING) == ["/b/3"]
        store.jobs.set_paused(first, False)
        assert _claimed_paths(store, EVERYTHING) == ["/a/1", "/a/2"]
    finally:
        store.close()


def _plans(store: Store, gpu: bool, query: str = "SELECT stages.id") -> list[str]:
    """The plan of the claim query a real claim sends (``query``: how it starts; ``SELECT jobs.id`` for the job list
    and its probe per job), explained in a transaction prepared as the claim's is."""
    sent: list[tuple[str, Any]] = []

    def grab(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        if statement.lstrip().startswith(query) and ("ORDER BY" in statement or query != "SELECT stages.id"):
            sent.append((statement, parameters))

    event.listen(store.db.engine, "before_cursor_execute", grab)
    try:
        claim = store.stages.claim_next_stage("w:0", gpu=gpu)
    finally:
        event.remove(store.db.engine, "before_cursor_execute", grab)
    assert claim is not None and sent
    statement, parameters = sent[-1]
    sqlite = store.db.engine.dialect.name == "sqlite"
    with store.db.write() as conn:
        store.stages._claim_walks(conn, gpu, EVERYTHING, store.db.now())  # what the claim does before its query
        explain = "EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN "
        rows = conn.exec_driver_sql(explain + statement, parameters).all()
    return [str(row[-1]) if sqlite else str(row[0]) for row in rows]


def test_each_lane_reads_its_own_index_in_claim_order(store_location: Path | str) -> None:
    store = Store(store_location)
    try:
        _add(store, "/photos", [f"p{i}" for i in range(40)], GPU_FIRST)  # GPU stages ahead of every CPU one
        _add(store, "/films", [f"f{i}" for i in range(40)], CPU_FIRST)
        cpu, gpu = "\n".join(_plans(store, gpu=False)), "\n".join(_plans(store, gpu=True))
        assert "stages_claim_cpu" in cpu and "stages_claim_gpu" not in cpu, cpu
        assert "stages_claim_gpu" in gpu and "stages_claim_cpu" not in gpu, gpu
        assert "stages_gpu_group" in gpu, gpu  # the group check reads a few rows, not the job's stages
        for plan in (cpu, gpu):
            assert "TEMP B-TREE" not in plan and "Sort" not in plan, plan
    finally:
        store.close()


def test_the_job_list_probes_each_lane_through_its_index_after_analyze(store_location: Path | str) -> None:
    """Once the planner has statistics (autovacuum's ANALYZE after a bulk add), PostgreSQL answered the unordered
    probe "has this job a queued stage in my lane?" by a sequential scan of every stage: 600 ms per claim at 1M.
    Ordered as the lane's claim, it can only walk the lane's partial index."""
    store = Store(store_location)
    try:
        _add(store, "/photos", [f"p{i}" for i in range(200)], GPU_FIRST)  # no queued CPU stage: the probe finds none
        _add(store, "/films", [f"f{i}" for i in range(200)], CPU_FIRST)
        with store.db.write() as conn:
            conn.exec_driver_sql("ANALYZE")
        cpu = "\n".join(_plans(store, gpu=False, query="SELECT jobs.id"))
        gpu = "\n".join(_plans(store, gpu=True, query="SELECT jobs.id"))
        assert "stages_claim_cpu" in cpu and "Seq Scan on stages" not in cpu and "SCAN stages" not in cpu, cpu
        assert "stages_claim_gpu" in gpu and "Seq Scan on stages" not in gpu and "SCAN stages" not in gpu, gpu
    finally:
        store.close()
