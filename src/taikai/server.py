"""Getting taikai ready to run, shared by the edges (issue 28): ``taikai serve``, ``taikai demo`` and the
benches start the server the same way (``prepare``), and every command that needs the database calls ``setup()``
first; pure commands never import Django.

``setup()`` also brings the database up to date: on a fresh data directory the first command that
needs it creates its tables (one line on stderr says so) instead of failing with "no such table"."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from taikai import messages
from taikai import texts as _texts  # noqa: F401  (registers db-migrating, db-unavailable)
from taikai.core.problems import Problem

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


def _static_fingerprint() -> str:
    import taikai

    root = Path(taikai.__file__).parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("static/**/*")):
        if path.is_file():
            h.update(str(path.relative_to(root)).encode())
            h.update(str(path.stat().st_mtime_ns).encode())
    return h.hexdigest()


def first_account_name() -> str:
    """`TAIKAI_FIRST_USER`, or "organizer-" and six random letters and digits: a name nobody can guess, so
    nobody can lock it out of new devices by failing to sign in as it before the event (SECURITY.md)."""
    import secrets

    chosen = os.environ.get("TAIKAI_FIRST_USER", "").strip()
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: it is read off a screen and typed
    return chosen or "organizer-" + "".join(secrets.choice(alphabet) for _ in range(6))


def prepare() -> None:
    """Everything before serving; fast when nothing changed, so a second start takes seconds."""
    setup()
    from django.conf import settings
    from django.core.management import call_command

    from taikai.events.services.accounts import ensure_first_organizer

    call_command("migrate", interactive=False, verbosity=0)
    stamp = Path(settings.STATIC_ROOT) / ".fingerprint"
    fingerprint = _static_fingerprint()
    if not stamp.exists() or stamp.read_text() != fingerprint:
        call_command("collectstatic", interactive=False, verbosity=0, clear=True)
        stamp.write_text(fingerprint)
    created = ensure_first_organizer(first_account_name())
    if created:
        user, password = created
        print("=" * 64)
        print("  最初の主催者アカウントを作成しました / First organizer account created")
        print(f"  user name / ユーザー名: {user}")
        print(f"  password  / パスワード: {password}")
        print("  This password is shown only once. このパスワードは一度だけ表示されます。")
        print("=" * 64)
