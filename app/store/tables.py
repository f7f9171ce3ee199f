"""SQLAlchemy Core table objects for building queries (the DDL lives in migrations)."""

from __future__ import annotations

from sqlalchemy import Column, Float, Index, Integer, MetaData, Table, Text

metadata = MetaData()

# Typed and constrained like its migration (V15), so a PostgreSQL test can create it from here.
# Times are seconds on the database's clock (app.store.clock); Float is double precision.
instances = Table(
    "instances", metadata,
    Column("id", Text, primary_key=True), Column("hostname", Text, nullable=False),
    Column("pid", Integer, nullable=False), Column("role", Text, nullable=False),
    Column("started_at", Float, nullable=False), Column("heartbeat_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False), Column("running", Text, nullable=False),
    Column("gpu", Text), Column("version", Text, nullable=False),
    Index("instances_expires", "expires_at"),
)

jobs = Table(
    "jobs", metadata,
    Column("id", Integer, primary_key=True), Column("folder", Text), Column("state", Text),
    Column("owner", Text), Column("paused", Integer), Column("options", Text),
    Column("error_code", Text), Column("error", Text), Column("scan_report", Text),
    Column("created_at", Float), Column("updated_at", Float), Column("change_count", Integer),
)

items = Table(
    "items", metadata,
    Column("id", Integer, primary_key=True), Column("job_id", Integer), Column("ordinal", Integer),
    Column("grp", Integer), Column("path", Text), Column("kind", Text), Column("size", Integer),
    Column("mtime_ns", Integer), Column("sha256", Text), Column("revision", Integer),
    Column("status", Text), Column("skip_reason", Text), Column("result", Text), Column("result_detail", Text),
    Column("error_code", Text), Column("error", Text), Column("updated_at", Float), Column("removed", Integer),
    Column("options", Text),
    Column("notes", Text),
)

current_items = Table(
    "current_items", metadata,
    Column("path", Text), Column("sha256", Text), Column("kind", Text), Column("item_id", Integer),
)

watches = Table(
    "watches", metadata,
    Column("id", Integer, primary_key=True), Column("folder", Text), Column("job_id", Integer),
    Column("polling", Integer), Column("options", Text), Column("created_at", Float), Column("last_scan_at", Float),
)

stages = Table(
    "stages", metadata,
    Column("id", Integer, primary_key=True), Column("item_id", Integer), Column("job_id", Integer),
    Column("idx", Integer), Column("name", Text), Column("status", Text), Column("gpu_mb", Integer),
    Column("model_key", Text), Column("fingerprint", Text), Column("attempt", Integer),
    Column("failures", Integer), Column("retry_at", Float), Column("lease_owner", Text),
    Column("lease_expires_at", Float), Column("claim_generation", Integer), Column("progress", Float),
    Column("note", Text), Column("partial", Text), Column("output", Text), Column("reused", Integer),
    Column("error_code", Text), Column("error", Text), Column("started_at", Float),
    Column("finished_at", Float), Column("updated_at", Float), Column("crash_claims", Text),
)

results = Table(
    "results", metadata,
    Column("sha256", Text, primary_key=True), Column("stage", Text, primary_key=True),
    Column("fingerprint", Text, primary_key=True), Column("output", Text), Column("created_at", Float),
)

model_loads = Table(
    "model_loads", metadata,
    Column("model_key", Text, primary_key=True), Column("loads", Integer), Column("last_loaded_at", Float),
)

engine_flags = Table("engine_flags", metadata, Column("name", Text, primary_key=True), Column("value", Text))

steps = Table(
    "steps", metadata,
    Column("id", Integer, primary_key=True), Column("op_id", Text), Column("item_id", Integer),
    Column("stage_id", Integer), Column("seq", Integer), Column("role", Text), Column("target", Text),
    Column("content_path", Text), Column("expected_sha256", Text), Column("prior_sha256", Text), Column("action", Text),
    Column("state", Text), Column("attempts", Integer), Column("found_sha256", Text),
    Column("error_code", Text), Column("error", Text), Column("decision", Text),
    Column("decision_actor", Text), Column("decision_reason", Text), Column("decided_at", Float),
    Column("review_revision", Integer), Column("created_at", Float), Column("updated_at", Float),
)

placed_outputs = Table(
    "placed_outputs", metadata,
    Column("path", Text, primary_key=True), Column("sha256", Text, primary_key=True), Column("placed_at", Float),
)

person_revisions = Table(
    "person_revisions", metadata,
    Column("path", Text, primary_key=True), Column("sha256", Text, primary_key=True), Column("item_id", Integer),
    Column("saved_at", Float),
)
