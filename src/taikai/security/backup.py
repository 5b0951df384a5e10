"""Backups and restores of the whole database.

SQLite: the online backup API copies a consistent snapshot page by page while the server keeps serving
(WAL readers never block it). PostgreSQL: ``pg_dump`` in its custom format, restored with ``pg_restore``.
A restore refuses to overwrite a database that already holds events unless forced.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import connection

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot go ahead; the message is shown as is (Japanese / English)."""


@dataclass(frozen=True)
class Summary:
    path: Path
    vendor: str
    bytes: int
    events: int


def serving_lock_path() -> Path:
    from django.conf import settings

    return Path(settings.VAR_DIR) / "serving.lock"


@contextlib.contextmanager
def serving() -> Any:
    """Held (shared) by ``taikai serve`` for as long as it serves, so a restore can tell it is running."""
    import fcntl

    path = serving_lock_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_SH)
        yield


def _refuse_while_served() -> None:
    import fcntl

    path = serving_lock_path()
    if not path.exists():
        return
    with path.open("a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupError(
                "taikai serve がこのデータベースで動いています。止めてから戻してください（--force でも同じです） / "
                "a server is running on this database: stop it first (even with --force), or its acknowledged "
                "writes would be lost"
            ) from None
        fcntl.flock(handle, fcntl.LOCK_UN)


def _settings() -> dict[str, Any]:
    return dict(connection.settings_dict)


def _pg_env(db: dict[str, Any]) -> dict[str, str]:
    env = {**os.environ}
    for key, var in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD")):
        if db.get(key):
            env[var] = str(db[key])
    return env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} が見つかりません / {name} not found: install the PostgreSQL client tools")
    return found


def _count_events() -> int:
    with connection.cursor() as cursor:
        try:
            cursor.execute("SELECT COUNT(*) FROM events_event")
        except Exception:
            return 0
        return int(cursor.fetchone()[0])


def backup(dest: Path) -> Summary:
    """Write a consistent copy of the database to ``dest`` (replaced only once the copy is complete)."""
    db = _settings()
    dest = dest.resolve()
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    events = _count_events()
    try:
        _copy(db, partial)
    except BaseException:  # a full disk, a failed check, Ctrl-C: no partial file is left behind
        partial.unlink(missing_ok=True)
        raise
    partial.chmod(0o600)  # a backup holds every player's data
    os.replace(partial, dest)
    return Summary(dest, connection.vendor, dest.stat().st_size, events)


def _copy(db: dict[str, Any], partial: Path) -> None:
    if connection.vendor == "sqlite":
        with (
            contextlib.closing(sqlite3.connect(str(db["NAME"]), timeout=30)) as src,
            contextlib.closing(sqlite3.connect(partial)) as out,
        ):
            src.backup(out, pages=1024)
            if out.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupError("バックアップの検査に失敗しました / the copy failed its integrity check")
    elif connection.vendor == "postgresql":
        result = subprocess.run(
            [_tool("pg_dump"), "--format=custom", "--no-owner", "--file", str(partial), str(db["NAME"])],
            env=_pg_env(db),
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            partial.unlink(missing_ok=True)
            raise BackupError(f"pg_dump に失敗しました / pg_dump failed: {result.stderr.strip()}")
    else:  # pragma: no cover - only the two supported databases
        raise BackupError(f"unsupported database {connection.vendor}")


def _kind_of(path: Path) -> str:
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError as exc:
        raise BackupError(f"ファイルを開けません / cannot open {path}: {exc.strerror}") from exc
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PGDUMP_MAGIC):
        return "postgresql"
    raise BackupError(f"taikai のバックアップではありません / {path} is not a taikai backup")


def restore(src: Path, *, force: bool = False) -> Summary:
    """Replace the database with the backup at ``src``; refuses a database that holds events unless forced."""
    src = src.resolve()
    kind = _kind_of(src)
    if kind != connection.vendor:
        raise BackupError(
            f"{kind} のバックアップは {connection.vendor} に戻せません / a {kind} backup cannot be restored into "
            f"{connection.vendor}: move events between databases with the event export (JSON) instead"
        )
    _refuse_while_served()
    existing = _count_events()
    if existing and not force:
        raise BackupError(
            f"このデータベースには {existing} 件の大会があります。上書きするには --force を付けてください / "
            f"this database holds {existing} event(s); add --force to overwrite it"
        )
    db = _settings()
    connection.close()
    if kind == "sqlite":
        with contextlib.closing(sqlite3.connect(src)) as backup_db:
            if backup_db.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupError("バックアップが壊れています / the backup failed its integrity check")
            tables = {r[0] for r in backup_db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "django_migrations" not in tables:
                raise BackupError(f"taikai のバックアップではありません / {src} is not a taikai backup")
            with contextlib.closing(sqlite3.connect(str(db["NAME"]), timeout=30)) as target:
                backup_db.backup(target)
    else:
        result = subprocess.run(
            [_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--single-transaction"]
            + ["--dbname", str(db["NAME"]), str(src)],
            env=_pg_env(db),
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            raise BackupError(f"pg_restore に失敗しました / pg_restore failed: {result.stderr.strip()}")
    return Summary(src, kind, src.stat().st_size, _count_events())
