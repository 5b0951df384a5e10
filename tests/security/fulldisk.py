"""A database that is really full, for the disk-full tests (issue 16): no mock of taikai's code.

SQLite: the free pages are used up with ballast, every connection gets ``PRAGMA max_page_count`` at the file's
size, and the tables a write touches (sessions, sign-in failures, rate hits, revoked cookie sessions, the audit
log: every service write adds an audit entry) are filled to the brim, so any row they take needs a new page,
which SQLite refuses with SQLITE_FULL ("database or disk is full"), as when the disk holding the file is full.
A write that fits in a page already there (an UPDATE in place) still succeeds, as it would on a full disk;
the service around it fails on its audit entry and rolls back.

PostgreSQL: a database cannot be filled from a test without its own small file system, so every table gets a
trigger that raises the server's own disk_full error (SQLSTATE 53100, the one PostgreSQL raises when it
cannot extend a file) on every INSERT and UPDATE. It reaches Django through a real cursor as
psycopg.errors.DiskFull wrapped in OperationalError, as the real one does.

The tests must run with transaction=True: SQLite rolls a transaction back whole on SQLITE_FULL, which would take a
test's own wrapping transaction with it; in production each request runs in autocommit, as here.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable, Iterator
from typing import Any

from django.contrib.sessions.models import Session
from django.db import DatabaseError, connection, connections
from django.db.backends.signals import connection_created

from taikai.audit.models import AuditEntry
from taikai.security import diskfull, throttle
from taikai.security import sessions as session_store
from taikai.security.models import RevokedSession

BALLAST = "taikai_test_ballast"
PAGE_ROW = 4000  # bytes: one ballast row takes one page (SQLite's default page is 4096 bytes)


def long_ago() -> str:
    """A random moment before 2000: fillers are expired, outside every window, and spread over the indexes
    (rows with one and the same value would fill one index page and be refused while the table has room)."""
    return (
        f"{secrets.choice(range(1971, 2000))}-{secrets.choice(range(1, 13)):02d}-{secrets.choice(range(1, 29)):02d} "
        f"{secrets.randbelow(24):02d}:{secrets.randbelow(60):02d}:{secrets.randbelow(60):02d}"
    )


def refused(sql: str, params: list[Any]) -> bool:
    """Run one write in autocommit: True when the database refused it for lack of space."""

    def write() -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)

    return refused_call(write)


def refused_call(write: Callable[[], Any]) -> bool:
    try:
        write()
    except DatabaseError as exc:
        if not diskfull.is_disk_full(exc):
            raise
        return True
    return False


# One filler row per table a write touches: (INSERT, params for a row padded with ``size`` bytes).
def _session(size: int) -> tuple[str, list[Any]]:
    return "INSERT INTO django_session VALUES (%s, %s, %s)", [secrets.token_hex(16), "x" * size, long_ago()]


def _failure(size: int) -> tuple[str, list[Any]]:
    sql = "INSERT INTO security_failedattempt (scope, key, address, name, at) VALUES (%s, %s, %s, %s, %s)"
    return sql, [f"fill-{secrets.token_hex(4)}", secrets.token_hex(2), "x" * size, "", long_ago()]


def _rate_hit(size: int) -> tuple[str, list[Any]]:
    sql = "INSERT INTO security_ratehit (scope, key, at) VALUES (%s, %s, %s)"
    return sql, [f"fill-{secrets.token_hex(4)}", "x" * size, long_ago()]


def _audit(size: int) -> tuple[str, list[Any]]:
    sql = (
        "INSERT INTO audit_auditentry (at, actor_label, action, object_type, object_id, data) "
        "VALUES (%s, '', %s, '', '', %s)"
    )
    return sql, [long_ago(), f"fill.{secrets.token_hex(4)}", '{"p": "' + "x" * size + '"}']


def _revoked(size: int) -> tuple[str, list[Any]]:
    sql = "INSERT INTO security_revokedsession (cookie_id, until) VALUES (%s, %s)"
    return sql, [secrets.token_hex(8) + "x" * size, long_ago()]


FILLERS: list[Callable[[int], tuple[str, list[Any]]]] = [_session, _failure, _rate_hit, _audit, _revoked]


def _to_the_brim(filler: Callable[[int], tuple[str, list[Any]]]) -> None:
    """Rows of shrinking size until even an empty one is refused several times in a row."""
    for size in (1000, 300, 100, 30, 10, 3, 0):
        misses = tries = 0
        while misses < (8 if size == 0 else 2):
            misses = misses + 1 if refused(*filler(size)) else 0
            tries += 1
            assert tries < 5000, "the database takes rows without end: max_page_count is not in force"


def _one(cursor: Any, sql: str) -> int:
    cursor.execute(sql)
    return int(cursor.fetchone()[0])


class SqliteFull:
    def __init__(self) -> None:
        self.pages = 0

    def _cap(self, sender: Any, connection: Any, **kwargs: Any) -> None:
        if connection.vendor == "sqlite" and self.pages:
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA max_page_count = {self.pages}")

    def fill(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {BALLAST} (b BLOB)")
            while _one(cursor, "PRAGMA freelist_count") > 0:
                cursor.execute(f"INSERT INTO {BALLAST} VALUES (zeroblob({PAGE_ROW}))")
            self.pages = _one(cursor, "PRAGMA page_count")
        connection_created.connect(self._cap)
        self._cap(None, connection)
        self.brim()

    def brim(self) -> None:
        for filler in FILLERS:
            _to_the_brim(filler)

    def free(self) -> None:
        self.pages = 0
        connection_created.disconnect(self._cap)
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA max_page_count = 1073741823")
            cursor.execute(f"DROP TABLE IF EXISTS {BALLAST}")


PG_FUNCTION = """
CREATE OR REPLACE FUNCTION taikai_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'could not extend file "base/16384/%": No space left on device', TG_RELID
    USING ERRCODE = 'disk_full', HINT = 'Check free disk space.';
END $$
"""
PG_TRIGGERS = """
DO $$ DECLARE t text; BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP
    EXECUTE format('CREATE TRIGGER taikai_test_disk_full BEFORE INSERT OR UPDATE ON %I '
                   'FOR EACH ROW EXECUTE FUNCTION taikai_test_disk_full()', t);
  END LOOP;
END $$
"""


class PostgresFull:
    def fill(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(PG_FUNCTION)
            cursor.execute(PG_TRIGGERS)

    def free(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute("DROP FUNCTION IF EXISTS taikai_test_disk_full() CASCADE")


PROBES: list[Callable[[], Any]] = [
    lambda: AuditEntry.objects.create(action="test.probe", event_id=1, object_type="player", object_id="1"),
    lambda: Session.objects.create(session_key=secrets.token_hex(16), session_data="x" * 60, expire_date=later(60)),
    lambda: RevokedSession.objects.create(cookie_id=secrets.token_urlsafe(16), until=later(60)),
]


class FullDisk:
    """``full = FullDisk(); full.fill()`` ... ``full.free()``: the database refuses every new row in between."""

    def __init__(self) -> None:
        self._way: SqliteFull | PostgresFull = SqliteFull() if connection.vendor == "sqlite" else PostgresFull()
        self.full = False

    def fill(self) -> None:
        forget_what_processes_remember()
        self._way.fill()
        self.full = True
        # The fixture proves itself: an audit entry (every service write adds one) and a session are refused.
        # A probe that got in took some room itself; then the tables are filled once more.
        for _ in range(5):
            if all(refused_call(probe) for probe in PROBES):
                return
            if isinstance(self._way, SqliteFull):
                self._way.brim()
        raise AssertionError("the database is not full")

    def free(self) -> None:
        if self.full:
            self._way.free()
            self.full = False


def forget_what_processes_remember() -> None:
    """The loud-report timer, the failures counted in memory, the revocations held in memory."""
    diskfull.reports.reset()
    throttle.unsaved.clear()
    session_store.revoked.clear()


def full_disk_fixture() -> Iterator[FullDisk]:
    full = FullDisk()
    try:
        yield full
    finally:
        full.free()
        forget_what_processes_remember()
        for conn in connections.all():
            if conn.vendor == "sqlite":
                conn.close()  # another thread's capped connection dies with its thread; this one now


def later(seconds: float) -> dt.datetime:
    from django.utils import timezone

    return timezone.now() + dt.timedelta(seconds=seconds)
