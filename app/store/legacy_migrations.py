"""The SQLite schema's hand-written history (V1–V15), tracked in ``PRAGMA user_version``.

Frozen: new schema changes are Alembic revisions (app/store/alembic/versions). The
baseline revision runs what is missing of this list on a SQLite library, so a library
made by any older Sidecar opens and upgrades in place without losing rows, then Alembic
takes over. Never edit a migration here.
"""

from __future__ import annotations

import logging
from typing import Callable, Sequence

from sqlalchemy import Connection, Engine

from app.errors import Code, DatabaseUnusable
from app.store.dialect import WRITE_OPTION

from app.store.search_schema import IMAGE_NAME_SCHEMA
from app.store.search_schema import SCHEMA as SEARCH_INDEX_SCHEMA
from app.store.vector_index import CHANGES_SCHEMA

log = logging.getLogger(__name__)

# Ids are AUTOINCREMENT: a stage id is never reused after a cancel, so a stale worker's
# (id, owner, generation) fence can never match a new row (no ABA).
V1_JOBS_ITEMS_STAGES = [
    """CREATE TABLE instances (
        id TEXT PRIMARY KEY, pid INTEGER NOT NULL, host TEXT NOT NULL,
        started_at REAL NOT NULL, seen_at REAL NOT NULL)""",
    """CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT, folder TEXT NOT NULL, state TEXT NOT NULL, owner TEXT,
        paused INTEGER NOT NULL DEFAULT 0, options TEXT NOT NULL DEFAULT '{}',
        error_code TEXT, error TEXT, scan_report TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL, updated_at REAL NOT NULL)""",
    """CREATE TABLE items (
        id INTEGER PRIMARY KEY AUTOINCREMENT, job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL, grp INTEGER NOT NULL DEFAULT 0, path TEXT NOT NULL, kind TEXT NOT NULL,
        size INTEGER NOT NULL DEFAULT 0, mtime_ns INTEGER NOT NULL DEFAULT 0, sha256 TEXT NOT NULL DEFAULT '',
        revision INTEGER NOT NULL DEFAULT 1, status TEXT NOT NULL, skip_reason TEXT, result TEXT,
        error_code TEXT, error TEXT, updated_at REAL NOT NULL)""",
    "CREATE INDEX items_job_status ON items(job_id, status)",
    "CREATE INDEX items_path ON items(path)",
    """CREATE TABLE stages (
        id INTEGER PRIMARY KEY AUTOINCREMENT, item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        job_id INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL, name TEXT NOT NULL, status TEXT NOT NULL,
        gpu_mb INTEGER NOT NULL DEFAULT 0, model_key TEXT, fingerprint TEXT NOT NULL,
        attempt INTEGER NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0, retry_at REAL,
        lease_owner TEXT, lease_expires_at REAL, claim_generation INTEGER NOT NULL DEFAULT 0,
        progress REAL NOT NULL DEFAULT 0, note TEXT, partial TEXT, output TEXT,
        reused INTEGER NOT NULL DEFAULT 0, error_code TEXT, error TEXT,
        started_at REAL, finished_at REAL, updated_at REAL NOT NULL,
        UNIQUE(item_id, idx))""",
    "CREATE INDEX stages_status ON stages(status, retry_at)",
    "CREATE INDEX stages_owner ON stages(lease_owner)",
    """CREATE TABLE results (
        sha256 TEXT NOT NULL, stage TEXT NOT NULL, fingerprint TEXT NOT NULL,
        output TEXT NOT NULL, created_at REAL NOT NULL,
        PRIMARY KEY (sha256, stage, fingerprint))""",
    """CREATE TABLE model_loads (
        model_key TEXT PRIMARY KEY, loads INTEGER NOT NULL DEFAULT 0, last_loaded_at REAL)""",
    "CREATE TABLE engine_flags (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
]

V2_STEPS_AND_REVIEW = [
    """CREATE TABLE steps (
        id INTEGER PRIMARY KEY AUTOINCREMENT, op_id TEXT NOT NULL UNIQUE,
        item_id INTEGER NOT NULL REFERENCES items(id) ON DELETE CASCADE,
        stage_id INTEGER NOT NULL REFERENCES stages(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL, role TEXT NOT NULL DEFAULT '', target TEXT NOT NULL,
        content_path TEXT NOT NULL, expected_sha256 TEXT NOT NULL, prior_sha256 TEXT, action TEXT NOT NULL,
        state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, found_sha256 TEXT,
        error_code TEXT, error TEXT,
        decision TEXT, decision_actor TEXT, decision_reason TEXT, decided_at REAL,
        review_revision INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL, updated_at REAL NOT NULL)""",
    "CREATE INDEX steps_item ON steps(item_id, seq)",
    "CREATE INDEX steps_state ON steps(state)",
    """CREATE TABLE placed_outputs (
        path TEXT NOT NULL, sha256 TEXT NOT NULL, placed_at REAL NOT NULL,
        PRIMARY KEY (path, sha256))""",
]

V4_CURRENT_CONTENT_AND_WATCHES = [
    # A file that vanished (deleted, or moved away by a watched-folder event) keeps its history
    # but stops being searchable.
    "ALTER TABLE items ADD COLUMN removed INTEGER NOT NULL DEFAULT 0",
    # The content each path holds now: the newest item row per path that is not removed.
    # Search joins on this so vectors of older content are never returned.
    """CREATE VIEW current_items AS
        SELECT i.path AS path, i.sha256 AS sha256, i.kind AS kind, i.id AS item_id
        FROM items i
        WHERE i.removed = 0 AND i.sha256 != ''
          AND i.id = (SELECT max(j.id) FROM items j WHERE j.path = i.path)""",
    """CREATE TABLE watches (
        id INTEGER PRIMARY KEY, folder TEXT NOT NULL UNIQUE, job_id INTEGER REFERENCES jobs(id) ON DELETE SET NULL,
        polling INTEGER NOT NULL DEFAULT 0, options TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL, last_scan_at REAL)""",
]

V5_ITEMS_BY_CONTENT = [
    # Search joins every hit's sha256 to current_items; without this index each hit scans
    # all items (a keyword matching 1,000 of 2,000 images took 120 ms instead of 2 ms).
    "CREATE INDEX IF NOT EXISTS items_sha256 ON items(sha256)",
]

V6_JOB_CHANGE_COUNTER = [
    # Bumped by triggers whenever anything a job summary or its queue shows changes, by
    # any writer (this engine, a CLI, another instance), so a viewer re-reads only the
    # jobs whose counter moved instead of counting every job's items each second.
    "ALTER TABLE jobs ADD COLUMN change_count INTEGER NOT NULL DEFAULT 0",
    """CREATE TRIGGER jobs_changed AFTER UPDATE OF folder, state, paused, options, error_code, error, scan_report ON jobs
        BEGIN UPDATE jobs SET change_count = change_count + 1 WHERE id = NEW.id; END""",
    """CREATE TRIGGER items_added AFTER INSERT ON items
        BEGIN UPDATE jobs SET change_count = change_count + 1 WHERE id = NEW.job_id; END""",
    """CREATE TRIGGER items_changed AFTER UPDATE ON items
        BEGIN UPDATE jobs SET change_count = change_count + 1 WHERE id = NEW.job_id; END""",
    # Lease renewals write lease_expires_at only and do not count as a change.
    """CREATE TRIGGER stages_changed AFTER UPDATE OF status, progress, note, error_code ON stages
        BEGIN UPDATE jobs SET change_count = change_count + 1 WHERE id = NEW.job_id; END""",
    """CREATE TRIGGER steps_changed AFTER UPDATE OF state, decision, review_revision ON steps
        BEGIN UPDATE jobs SET change_count = change_count + 1
              WHERE id = (SELECT job_id FROM items WHERE id = NEW.item_id); END""",
]

V7_SKIPPED_ROWS_KEEP_CONTENT = [
    # Adding a folder again used to record its already-subtitled files with no sha256; being
    # the newest rows of their paths, they hid the finished items and their search rows from
    # current_items. A skipped row of a file version seen before (same path, size and mtime)
    # gets that version's hash back, as app.engine.plan.skipped_sha256 now records it.
    """UPDATE items SET sha256 = (
            SELECT j.sha256 FROM items j
            WHERE j.path = items.path AND j.size = items.size AND j.mtime_ns = items.mtime_ns
              AND j.sha256 != '' AND j.id < items.id
            ORDER BY j.id DESC LIMIT 1)
        WHERE status = 'skipped' AND sha256 = '' AND EXISTS (
            SELECT 1 FROM items j
            WHERE j.path = items.path AND j.size = items.size AND j.mtime_ns = items.mtime_ns
              AND j.sha256 != '' AND j.id < items.id)""",
]

V8_ENGINE_CRASHES = [
    # The claim times (a JSON list) of a stage's consecutive claims that ended with the whole
    # engine process crashing; the third sets its item aside as crash_loop (StageRepo.count_crash).
    "ALTER TABLE stages ADD COLUMN crash_claims TEXT",
]

V9_PERSON_REVISIONS = [
    # Subtitle files a person saved in Sidecar's editor: a later run never overwrites such a
    # file, whatever the job's policy; it asks for a review instead (app.engine.placement).
    """CREATE TABLE person_revisions (
        path TEXT NOT NULL, sha256 TEXT NOT NULL, item_id INTEGER, saved_at REAL NOT NULL,
        PRIMARY KEY (path, sha256))""",
]

V10_ITEM_RESULT_DETAIL = [
    # What an item's result refers to, as JSON (the translation's untranslated cue numbers), so
    # the queue and `status` list them without reading stage outputs.
    "ALTER TABLE items ADD COLUMN result_detail TEXT",
]

V11_ITEM_OPTIONS = [
    # A person's choice for one item that overrides its job's frozen options (the queue's
    # "Audio track" menu): a JSON object merged over jobs.options when a stage is claimed.
    "ALTER TABLE items ADD COLUMN options TEXT",
]

V12_ITEM_NOTES = [
    # Stable codes (a JSON list) of what happened to an item besides its result, e.g.
    # gpu_fallback_cpu when a stage ran on the CPU because the GPU ran out of memory.
    "ALTER TABLE items ADD COLUMN notes TEXT",
]

V13_IMAGE_NAMES_PER_PATH = [
    # An image's file and folder name words belong to its path, not to its content: identical
    # files in two folders each need their own (app.store.search_schema). Existing documents keep
    # the words of the path they were first indexed under until their image is indexed again.
    *IMAGE_NAME_SCHEMA,
]

# A change counter on the search index's image and cue rows, so the in-process vector index
# (app.store.vector_index) re-reads only what changed since the state it saved.
V14_SEARCH_VECTOR_CHANGES = CHANGES_SCHEMA

V15_INSTANCE_HEARTBEATS = [
    # Liveness across machines: each engine process beats its row every few seconds and is
    # dead to the others once expires_at (heartbeat + grace, on the database's clock) passes.
    # The old rows were only live processes of this machine, so the table is simply replaced.
    "DROP TABLE instances",
    """CREATE TABLE instances (
        id TEXT PRIMARY KEY, hostname TEXT NOT NULL, pid INTEGER NOT NULL, role TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL, heartbeat_at DOUBLE PRECISION NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL, running TEXT NOT NULL DEFAULT '{}', gpu TEXT,
        version TEXT NOT NULL DEFAULT '')""",
    "CREATE INDEX instances_expires ON instances(expires_at)",
]

Migration = Sequence[str] | Callable[[Connection], None]

MIGRATIONS: list[Migration] = [V1_JOBS_ITEMS_STAGES, V2_STEPS_AND_REVIEW, SEARCH_INDEX_SCHEMA, V4_CURRENT_CONTENT_AND_WATCHES,
                               V5_ITEMS_BY_CONTENT, V6_JOB_CHANGE_COUNTER, V7_SKIPPED_ROWS_KEEP_CONTENT,
                               V8_ENGINE_CRASHES, V9_PERSON_REVISIONS, V10_ITEM_RESULT_DETAIL,
                               V11_ITEM_OPTIONS, V12_ITEM_NOTES,
                               V13_IMAGE_NAMES_PER_PATH, V14_SEARCH_VECTOR_CHANGES, V15_INSTANCE_HEARTBEATS]


def schema_version(conn: Connection) -> int:
    return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())


def apply(conn: Connection, target: int | None = None) -> int:
    """Bring a SQLite database up to ``target`` (default: V15) inside the caller's transaction; returns the version."""
    target = len(MIGRATIONS) if target is None else target
    current = schema_version(conn)
    if current > len(MIGRATIONS):
        raise DatabaseUnusable(f"this library was written by a newer Sidecar (schema {current}); please update the app",
                               code=Code.DATABASE_TOO_NEW)
    for version in range(current + 1, target + 1):
        migration = MIGRATIONS[version - 1]
        if callable(migration):
            migration(conn)
        else:
            for statement in migration:
                conn.exec_driver_sql(statement)
        conn.exec_driver_sql(f"PRAGMA user_version = {version}")
        log.info("library schema upgraded to version %d", version)
    return max(current, target)


def upgrade(engine: Engine, target: int) -> int:
    """A SQLite file left at ``target`` as the Sidecar of that schema left it (tests make old libraries so)."""
    with engine.connect().execution_options(**{WRITE_OPTION: True}) as conn, conn.begin():
        return apply(conn, target)
