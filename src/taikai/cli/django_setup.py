"""Commands that need the database call ``setup()`` first; pure commands never import Django.

``setup()`` also brings the database up to date: on a fresh data directory the first command that
needs it creates its tables (one line on stderr says so) instead of failing with "no such table"."""

from __future__ import annotations

import os
import sys

from taikai import messages
from taikai.core.problems import Problem

messages.register(
    "db-migrating",
    "taikai: データベースを準備しています（マイグレーション {n} 件）…",
    "taikai: preparing the database ({n} migrations)…",
)
messages.register(
    "db-unavailable",
    "taikai: データベースを開けません（{reason}）。TAIKAI_DATABASE_URL を確認してください",
    "taikai: cannot open the database ({reason}); check TAIKAI_DATABASE_URL",
)
_READY = False


def setup(*, migrate: bool = True) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taikai.settings")
    import django

    django.setup()
    if migrate:
        _migrate_if_needed()


def _migrate_if_needed() -> None:
    global _READY
    if _READY:
        return
    from django.core.management import call_command
    from django.db import DatabaseError, connection
    from django.db.migrations.executor import MigrationExecutor

    lang = messages.cli_language()
    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if plan:
            sys.stderr.write(messages.text(Problem("db-migrating", n=len(plan)), lang) + "\n")
            call_command("migrate", interactive=False, verbosity=0)
    except DatabaseError as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        sys.stderr.write(messages.text(Problem("db-unavailable", reason=reason), lang) + "\n")
        raise SystemExit(2) from exc
    _READY = True
