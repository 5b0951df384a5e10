"""taikai backup FILE / taikai restore FILE: the whole database, while serving (SQLite) or via pg_dump."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("backup", help="copy the whole database to FILE / データベースをバックアップ")
    p.add_argument("file", type=Path)
    p.set_defaults(func=cmd_backup)
    r = sub.add_parser("restore", help="replace the database with a backup / バックアップから復元")
    r.add_argument("file", type=Path)
    r.add_argument("--force", action="store_true", help="overwrite a database that already holds events")
    r.set_defaults(func=cmd_restore)


def cmd_backup(args: argparse.Namespace) -> int:
    from taikai.server import setup

    setup()
    from taikai.security.backup import BackupError, backup

    try:
        summary = backup(args.file)
    except BackupError as exc:
        print(f"taikai backup: {exc}", file=sys.stderr)
        return 1
    print(
        f"バックアップしました / backed up: {summary.path} ({summary.vendor}, {summary.bytes:,} bytes, "
        f"{summary.events} event(s))"
    )
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from taikai.server import setup

    setup()
    from django.core.management import call_command

    from taikai.security.backup import BackupError, restore

    try:
        summary = restore(args.file, force=args.force)
    except BackupError as exc:
        print(f"taikai restore: {exc}", file=sys.stderr)
        return 1
    call_command("migrate", interactive=False, verbosity=0)  # a backup from an older taikai is brought up to date
    print(f"復元しました / restored: {summary.path} ({summary.vendor}, {summary.events} event(s))")
    return 0
