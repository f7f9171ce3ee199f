"""SQLAlchemy Core table objects for building queries (the DDL lives in the migrations).

Integers are BigInteger: on PostgreSQL parameters are cast to the column type, and sizes,
nanosecond mtimes and ids outgrow 32 bits (the columns there are BIGINT; SQLite has one integer type).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Float, Index, MetaData, Table

from app.store.byte_text import StoredText as Text  # every text column gives back the exact bytes of a file name

metadata = MetaData()

# Typed and constrained like its migration (V15), so a PostgreSQL test can create it from here.
# Times are seconds on the database's clock (app.store.clock); Float is double precision.
instances = Table(
    "instances", metadata,
    Column("id", Text, primary_key=True), Column("hostname", Text, nullable=False),
    Column("pid", BigInteger, nullable=False), Column("role", Text, nullable=False),
    Column("started_at", Float, nullable=False), Column("heartbeat_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False), Column("running", Text, nullable=False),
    Column("gpu", Text), Column("version", Text, nullable=False),
    Index("instances_expires", "expires_at"),
)

jobs = Table(
    "jobs", metadata,
    Column("id", BigInteger, primary_key=True), Column("folder", Text), Column("state", Text),
    Column("owner", Text), Column("paused", BigInteger), Column("options", Text),
    Column("error_code", Text), Column("error", Text), Column("scan_report", Text),
    Column("created_at", Float), Column("updated_at", Float), Column("change_count", BigInteger),
)

items = Table(
    "items", metadata,
    Column("id", BigInteger, primary_key=True), Column("job_id", BigInteger), Column("ordinal", BigInteger),
    Column("grp", BigInteger), Column("path", Text), Column("kind", Text), Column("size", BigInteger),
    Column("mtime_ns", BigInteger), Column("sha256", Text), Column("revision", BigInteger),
    Column("status", Text), Column("skip_reason", Text), Column("result", Text), Column("result_detail", Text),
    Column("error_code", Text), Column("error", Text), Column("updated_at", Float), Column("removed", BigInteger),
    Column("options", Text),
    Column("notes", Text),
)

current_items = Table(
    "current_items", metadata,
    Column("path", Text), Column("sha256", Text), Column("kind", Text), Column("item_id", BigInteger),
)

watches = Table(
    "watches", metadata,
    Column("id", BigInteger, primary_key=True), Column("folder", Text), Column("job_id", BigInteger),
    Column("polling", BigInteger), Column("options", Text), Column("created_at", Float), Column("last_scan_at", Float),
)

stages = Table(
    "stages", metadata,
    Column("id", BigInteger, primary_key=True), Column("item_id", BigInteger), Column("job_id", BigInteger),
    Column("idx", BigInteger), Column("name", Text), Column("status", Text), Column("gpu_mb", BigInteger),
    Column("model_key", Text), Column("fingerprint", Text), Column("attempt", BigInteger),
    Column("failures", BigInteger), Column("retry_at", Float), Column("lease_owner", Text),
    Column("lease_expires_at", Float), Column("claim_generation", BigInteger), Column("progress", Float),
    Column("note", Text), Column("partial", Text), Column("output", Text), Column("reused", BigInteger),
    Column("error_code", Text), Column("error", Text), Column("started_at", Float),
    Column("finished_at", Float), Column("updated_at", Float), Column("crash_claims", Text),
    Column("grp", BigInteger), Column("ordinal", BigInteger),  # the item's, copied: claim order from one index
)

results = Table(
    "results", metadata,
    Column("sha256", Text, primary_key=True), Column("stage", Text, primary_key=True),
    Column("fingerprint", Text, primary_key=True), Column("output", Text), Column("created_at", Float),
)

model_loads = Table(
    "model_loads", metadata,
    Column("model_key", Text, primary_key=True), Column("loads", BigInteger), Column("last_loaded_at", Float),
)

engine_flags = Table("engine_flags", metadata, Column("name", Text, primary_key=True), Column("value", Text))

steps = Table(
    "steps", metadata,
    Column("id", BigInteger, primary_key=True), Column("op_id", Text), Column("item_id", BigInteger),
    Column("stage_id", BigInteger), Column("seq", BigInteger), Column("role", Text), Column("target", Text),
    Column("content_path", Text), Column("expected_sha256", Text), Column("prior_sha256", Text), Column("action", Text),
    Column("state", Text), Column("attempts", BigInteger), Column("found_sha256", Text),
    Column("error_code", Text), Column("error", Text), Column("decision", Text),
    Column("decision_actor", Text), Column("decision_reason", Text), Column("decided_at", Float),
    Column("review_revision", BigInteger), Column("created_at", Float), Column("updated_at", Float),
)

placed_outputs = Table(
    "placed_outputs", metadata,
    Column("path", Text, primary_key=True), Column("sha256", Text, primary_key=True), Column("placed_at", Float),
)

person_revisions = Table(
    "person_revisions", metadata,
    Column("path", Text, primary_key=True), Column("sha256", Text, primary_key=True), Column("item_id", BigInteger),
    Column("saved_at", Float),
)
