"""One store, two backends: where the database is, Alembic's baseline on each, and an old library upgrading in place."""

from __future__ import annotations

import gzip
import json
import sqlite3
import threading
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import func, insert, inspect, select

from app.errors import Code, DowngradeRefused, LeaseLost, SidecarError
from app.paths import database_path
from app.pipelines.outputs import RenderOutput
from app.store import Store
from app.store.instances import InstanceInfo
from app.store.location import ENV, database_location
from app.store.migrate import SCRIPTS, current_revision, head_revision
from app.store.records import AudioStreamFact, ItemFacts, ItemReport, NewItem, NewStage
from app.store.search_queries import fts_dialogue, fts_images
from app.store.search_writes import SearchIndexWriter
from app.store.tables import jobs, stages
from tests.store_backends import open_store

OLD_LIBRARY = Path(__file__).parent / "data" / "library-v15.sqlite3.gz"
"""Made by the Sidecar of the last hand-written schema (V15, commit 19637fe), before Alembic:
one job of three videos with two stages each (one claimed and finished) and an image's name
row; gzipped, as the empty vec0 tables take 430 kB."""


# -- where the database is --------------------------------------------------------------------


def test_location_is_the_data_dirs_sqlite_file_unless_a_url_says_otherwise(data_dir: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert database_location(data_dir) == database_path(data_dir)
    assert database_location(data_dir, "") == database_path(data_dir)

    monkeypatch.setenv(ENV, "postgresql+psycopg://sidecar@10.0.0.2:5432/lib")
    assert database_location(data_dir) == "postgresql+psycopg://sidecar@10.0.0.2:5432/lib"
    # the flag (or setting) the caller passes wins over the environment
    assert database_location(data_dir, f"sqlite:///{data_dir}/other.sqlite3") == data_dir / "other.sqlite3"


@pytest.mark.parametrize("url", ["mysql://u@h/db", "sqlite://", "not a url"])
def test_a_url_sidecar_cannot_use_is_refused_with_a_code(data_dir: Path, url: str) -> None:
    with pytest.raises(SidecarError) as raised:
        database_location(data_dir, url)
    assert raised.value.code == "bad_database_url"


# -- the schema on each backend -----------------------------------------------------------------


def _one_job(store: Store, *names: str) -> int:
    job = store.jobs.create("/lib", {}, owner="test")
    store.jobs.add_items(job, [NewItem(f"/lib/{n}", "video", 2**40, 1_700_000_000_123_456_789, f"sha-{n}",
                                       (NewStage(0, "probe", "fp0"), NewStage(1, "place", "fp1"))) for n in names])
    store.jobs.finish_creating(job, {})
    return job


def test_a_new_library_gets_the_whole_schema_at_alembics_head(store_location: Path | str) -> None:
    now = [1_000.0]
    store = open_store(store_location, lambda: now[0], lease_seconds=10)
    try:
        with store.db.read() as conn:
            assert current_revision(conn) == head_revision()
            names = set(inspect(conn).get_table_names())
        assert {"jobs", "items", "stages", "steps", "instances", "watches", "results", "person_revisions"} <= names
        assert store.integrity_check() == "ok"

        job = _one_job(store, "a.mp4", "b.mp4")
        _, marks_before, _ = store.jobs.changes(None, None)
        claim = store.stages.claim_next_stage("w:0", gpu=None)
        assert claim is not None and claim.item_size == 2**40 and claim.item_mtime_ns == 1_700_000_000_123_456_789
        store.stages.complete_stage(claim, {"language": "de", "language_probability": 0.75, "audio_stream": {"index": 1}})
        _, marks_after, changed = store.jobs.changes(marks_before, False)
        assert marks_after[job] > marks_before[job], "the change-counter triggers bump the job"
        assert [s.id for s in changed] == [job], "only the moved job is re-read"
        (done, _) = store.jobs.items(job)
        assert done.facts == ItemFacts(AudioStreamFact(index=1, track=1, tracks=1), "de", 0.75)
    finally:
        store.close()


def test_a_translation_over_the_reading_speed_is_noted_on_the_item_with_its_lines(store_location: Path | str) -> None:
    store = open_store(store_location, lambda: 1_000.0, lease_seconds=10)
    try:
        job = _one_job(store, "a.mp4")
        claim = store.stages.claim_next_stage("w:0", gpu=None)
        assert claim is not None
        rendered = RenderOutput({"translation": "1"}, "en", "de", ItemReport(note=Code.OVER_READING_SPEED), [2, 5])
        store.stages.complete_stage(claim, rendered.written())
        (item,) = store.jobs.items(job)
        assert item.notes == ("over_reading_speed",) and item.facts == ItemFacts(over_reading_speed=(2, 5))
    finally:
        store.close()


def test_a_schema_downgrade_is_refused_and_leaves_the_library_at_head(store_location: Path | str) -> None:
    store = open_store(store_location, lambda: 1_000.0, lease_seconds=10)
    try:
        config = Config()
        config.set_main_option("script_location", str(SCRIPTS))
        with store.db.write() as conn:
            config.attributes["connection"] = conn
            with pytest.raises(DowngradeRefused) as refused:
                command.downgrade(config, "-1")
        assert refused.value.code == "downgrade_refused"
        with store.db.read() as conn:
            assert current_revision(conn) == head_revision()
    finally:
        store.close()


def test_ids_are_never_reused_after_a_delete(store_location: Path | str) -> None:
    """A stale (stage id, owner, generation) fence must never match a new row (no ABA)."""
    store = open_store(store_location, lambda: 1_000.0)
    try:
        first = _one_job(store, "a.mp4")
        with store.db.read() as conn:
            top = conn.execute(select(func.max(stages.c.id))).scalar_one()
        with store.db.write() as conn:
            conn.execute(jobs.delete().where(jobs.c.id == first))
        _one_job(store, "b.mp4")
        with store.db.read() as conn:
            assert conn.execute(select(func.min(stages.c.id))).scalar_one() > top
    finally:
        store.close()


def test_two_processes_opening_one_new_postgres_library_create_it_once(postgres_url: str) -> None:
    opened: list[Store] = []
    errors: list[BaseException] = []

    def open_it() -> None:
        try:
            opened.append(Store(postgres_url))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == [] and len(opened) == 4
        with opened[0].db.write() as conn:
            conn.execute(insert(jobs).values(folder="/x", state="ready", created_at=1, updated_at=1))
        with opened[3].db.read() as conn:
            assert conn.execute(select(func.count()).select_from(jobs)).scalar_one() == 1
    finally:
        for store in opened:
            store.close()


def test_heartbeat_rows_and_their_expiry_on_the_real_schema(store_location: Path | str) -> None:
    store = Store(store_location, lease_seconds=30)
    try:
        remote = InstanceInfo("far-box-1-aaaa", "far-box", 2**31 + 5, "worker", gpu="RTX 4090", version="0.1.0")
        store.instances.beat(remote, grace=30, running={"transcribe": 1})
        store.instances.beat(remote, grace=30, running={"place": 2})
        (row,) = store.instances.rows()
        assert (row.id, row.pid, row.running, row.expired) == (remote.id, 2**31 + 5, {"place": 2}, False)
        store.instances.beat(remote, grace=-1)
        assert store.instances.reclaim_expired(exclude="me") == []  # expired, but it ran nothing
        assert store.instances.rows()[0].expired
    finally:
        store.close()


def test_a_stage_writing_the_search_index_completes_on_either_backend_and_a_stale_one_writes_nothing(
        store_location: Path | str) -> None:
    now = [1_000.0]
    store = open_store(store_location, lambda: now[0], lease_seconds=10)
    try:
        _one_job(store, "a.png")
        claim = store.stages.claim_next_stage("w:0", gpu=None)
        assert claim is not None
        index = SearchIndexWriter(lambda: store.stages.fenced_write(claim))
        index.upsert_image("sha-a.png", text_model="e5", text_vector=[0.5] * 384, document="a cat")
        index.name_image("/lib/a.png", "sha-a.png", "a")
        assert index.upsert_dialogue("/lib/a.png", "sha-a.png", [(0.0, 1.0, "hello", "en")], [[0.5] * 384],
                                     text_model="e5") == 1
        store.stages.complete_stage(claim, {"indexed": "sha-a.png"})
        with store.db.read() as conn:
            assert [h.text for h in fts_dialogue(conn, "hello")] == ["hello"]
            assert [h.sha256 for h in fts_images(conn, "cat")] == ["sha-a.png"]

        stale = store.stages.claim_next_stage("w:0", gpu=None)
        assert stale is not None
        now[0] += 11
        assert store.stages.reclaim(expired=True) == 1
        with pytest.raises(LeaseLost):
            SearchIndexWriter(lambda: store.stages.fenced_write(stale)).name_image("/lib/a.png", "sha-x", "x")
    finally:
        store.close()


# -- an existing SQLite library -------------------------------------------------------------------


def test_a_library_of_the_last_hand_written_schema_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite3"
    path.write_bytes(gzip.decompress(OLD_LIBRARY.read_bytes()))
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (15,)
        assert raw.execute("SELECT count(*) FROM sqlite_master WHERE name = 'alembic_version'").fetchone() == (0,)

    store = Store(path, clock=lambda: 1_700_000_100.0, lease_seconds=30)
    try:
        with store.db.read() as conn:
            assert current_revision(conn) == head_revision()
            assert conn.exec_driver_sql("PRAGMA user_version").scalar() == 15
            assert conn.exec_driver_sql("SELECT path, words FROM search_image_name").one() == ("/media/cat.png", "cat")
            finished = conn.execute(select(stages.c.name, stages.c.output).where(stages.c.status == "succeeded")).all()
        assert [tuple(r) for r in finished] == [("s0", '{"done":true}')]
        (summary,) = store.jobs.summaries()
        assert (summary.folder, summary.total) == ("/media", 3)
        assert [i.status for i in store.jobs.items(summary.id)] == ["pending", "pending", "pending"]
        assert store.integrity_check() == "ok"
        # the queue goes on where the old Sidecar left it
        claim = store.stages.claim_next_stage("new:0", gpu=None)
        assert claim is not None and claim.item_path.startswith("/media/")
    finally:
        store.close()

    reopened = Store(path)  # a second open finds the head and changes nothing
    try:
        with reopened.db.read() as conn:
            assert current_revision(conn) == head_revision()
    finally:
        reopened.close()


# -- the command line -------------------------------------------------------------------------------


def test_the_cli_works_on_a_postgres_library_named_by_flag_or_environment(
        data_dir: Path, tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main

    media = tmp_path / "media"
    media.mkdir()
    (media / "a.mp4").write_bytes(b"not really a video")
    monkeypatch.delenv(ENV, raising=False)
    assert main(["--data-dir", str(data_dir), "--database-url", postgres_url, "add", str(media), "--json"]) == 0
    capsys.readouterr()

    monkeypatch.setenv(ENV, postgres_url)
    assert main(["--data-dir", str(data_dir), "status", "--json"]) == 0
    (job,) = json.loads(capsys.readouterr().out)["jobs"]
    assert job["folder"] == str(media) and job["total"] == 1
    assert not database_path(data_dir).exists(), "nothing went into the SQLite file"

    # an image the index stage wrote on the server is found by `sidecar search` there
    store = Store(postgres_url)
    try:
        job = store.jobs.create(str(media), {}, owner="test")
        store.jobs.add_items(job, [NewItem(str(media / "scan.png"), "image", 1, 1, "sha-scan")])
        store.jobs.finish_creating(job, {})
        index = SearchIndexWriter(store.db.write)
        index.upsert_image("sha-scan", text_model="e5", text_vector=[0.5] * 384, document="Invoice number 4471")
        index.name_image(str(media / "scan.png"), "sha-scan", "scan media")
    finally:
        store.close()
    assert main(["--data-dir", str(data_dir), "search", "invoice", "--json"]) == 0
    (hit,) = json.loads(capsys.readouterr().out)["results"]
    assert (hit["path"], hit["kind"], hit["snippet"]) == (str(media / "scan.png"), "image", "[Invoice] number 4471")
