"""Instance rows: each engine process's heartbeat, what it runs, and when it counts as dead.

A process on another machine cannot be asked whether it lives, so each one writes its
row every heartbeat with ``expires_at = heartbeat + grace``; once that time passes on the
database's clock (app.store.clock) the others treat it as dead and put its running
stages back in the queue. Its claims stay fenced (owner, generation, lease), so a process
that was only slow finds them gone at its next write and commits nothing. Expired rows
stay listed (``sidecar workers`` shows them as not alive) until they are pruned.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from sqlalchemy import delete, insert, select, update

from app.store.clock import database_now
from app.store.database import Database, dumps, loads
from app.store.states import StageState
from app.store.tables import instances, stages
from app.store.shared_transitions import owned_by, requeue_running_stages_and_items

log = logging.getLogger(__name__)

#: How long a dead instance's row stays listed before it is deleted.
PRUNE_AFTER_SECONDS = 3600.0


@dataclass(frozen=True)
class InstanceInfo:
    """What an instance says about itself when it registers (the row's fixed columns)."""

    id: str
    hostname: str
    pid: int
    role: str  # engine, worker or gui
    gpu: str | None = None
    version: str = ""


@dataclass(frozen=True)
class InstanceRow:
    """One instance as the database sees it, with the database's time it was read at."""

    id: str
    hostname: str
    pid: int
    role: str
    started_at: float
    heartbeat_at: float
    expires_at: float
    running: Mapping[str, int] = field(default_factory=dict)  # stage name -> how many of it run now
    gpu: str | None = None
    version: str = ""
    read_at: float = 0.0

    @property
    def expired(self) -> bool:
        return self.expires_at <= self.read_at

    @property
    def heartbeat_age(self) -> float:
        return max(0.0, self.read_at - self.heartbeat_at)


class InstanceRepo:
    def __init__(self, db: Database):
        self.db = db

    def beat(self, info: InstanceInfo, grace: float, running: Mapping[str, int] | None = None) -> None:
        """Write this instance's heartbeat and what it runs now (registering it when its row is missing).

        A row can be missing because another instance took this one for dead and pruned
        it after a long stall; beating re-registers it, and its old claims stay lost.
        """
        with self.db.write() as conn:
            now = database_now(conn, self.db.clock)
            values = {"heartbeat_at": now, "expires_at": now + grace, "running": dumps(dict(running or {}))}
            if conn.execute(update(instances).where(instances.c.id == info.id).values(**values)).rowcount == 1:
                return
            conn.execute(insert(instances).values(
                id=info.id, hostname=info.hostname, pid=info.pid, role=info.role, gpu=info.gpu, version=info.version,
                started_at=now, **values))

    def rows(self) -> list[InstanceRow]:
        """Every listed instance, oldest first, read at one instant of the database's clock."""
        with self.db.read() as conn:
            now = database_now(conn, self.db.clock)
            return [
                InstanceRow(id=r.id, hostname=r.hostname, pid=int(r.pid), role=r.role, started_at=float(r.started_at),
                            heartbeat_at=float(r.heartbeat_at), expires_at=float(r.expires_at),
                            running=loads(r.running) or {}, gpu=r.gpu, version=r.version, read_at=now)
                for r in conn.execute(select(instances).order_by(instances.c.started_at, instances.c.id))
            ]

    def reclaim_expired(self, exclude: str) -> list[str]:
        """Requeue the running stages of every expired instance but ``exclude``; returns the instances that had some.

        The expiry is read and the stages requeued in one write transaction (the rows
        locked on PostgreSQL), so an instance that beats in between keeps its work.
        """
        with self.db.write() as conn:
            now = database_now(conn, self.db.clock)
            expired = list(conn.execute(
                select(instances.c.id).where(instances.c.expires_at <= now, instances.c.id != exclude)
                .order_by(instances.c.id).with_for_update()
            ).scalars())
            if not expired:
                return []
            owners = owned_by(expired)
            holding = sorted({o.split(":", 1)[0] for o in conn.execute(
                select(stages.c.lease_owner).where(owners, stages.c.status == StageState.RUNNING)).scalars()})
            if holding:
                requeue_running_stages_and_items(conn, owners, now, refund_attempt=False)
        if holding:
            log.info("instances %s stopped beating: their stages are back in the queue", holding)
        return holding

    def prune(self, after: float = PRUNE_AFTER_SECONDS) -> int:
        """Delete rows of instances dead for longer than ``after`` seconds; returns how many."""
        with self.db.write() as conn:
            now = database_now(conn, self.db.clock)
            return int(conn.execute(delete(instances).where(instances.c.expires_at <= now - after)).rowcount)

    def forget(self, instance_ids: Sequence[str]) -> None:
        """Delete these rows: the instances stopped cleanly or are known dead."""
        if not instance_ids:
            return
        with self.db.write() as conn:
            conn.execute(delete(instances).where(instances.c.id.in_(list(instance_ids))))
