"""Alembic's entry for the library database: migrations run on the connection the store hands over.

The store (app.store.migrate) opens the transaction, takes the write lock and passes its
connection in ``config.attributes``; Alembic runs inside that transaction, so two
processes opening one new library migrate it once, and a failed revision leaves nothing.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, transactional_ddl=True)
with context.begin_transaction():
    context.run_migrations()
