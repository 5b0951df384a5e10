"""When the storage is full: telling a refused write apart from other failures, and saying so once, loudly.

A write fails for lack of space in three ways: SQLite answers SQLITE_FULL ("database or disk is full"),
PostgreSQL SQLSTATE 53100 (disk_full: "could not extend file ...: No space left on device"), and writing a
file (an upload, a backup, a report) raises OSError ENOSPC, or EDQUOT when a quota is reached (the same
remedy). The edges (taikai.web.diskfull for pages, the API's error handler, the command line) answer with a
clear "the disk is full: nothing was saved; pages can still be read" instead of a server error; the
transaction that failed has rolled back whole.

Other PostgreSQL "insufficient resources" errors (53200 out of memory, 53300 too many connections, 53400 a
configuration limit) are not about disk space, and telling the organizer to free disk space would mislead: they
stay server errors. The bare class code 53000 counts only when its message names the full device.
"""

from __future__ import annotations

import errno
import logging
import shutil
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from taikai.security import texts  # noqa: F401  (registers the disk-full text)

log = logging.getLogger("taikai.diskfull")

CODE = "disk-full"
STATUS = 507  # Insufficient Storage (RFC 4918): see SECURITY.md for why not 503
SQLITE_FULL = getattr(sqlite3, "SQLITE_FULL", 13)
PG_DISK_FULL = "53100"
NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
REPEAT_AFTER = 600.0  # seconds between two loud reports in one process


def _one_is_full(exc: BaseException) -> bool:
    if isinstance(exc, OSError) and exc.errno in NO_SPACE:
        return True
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        return (code is not None and code & 0xFF == SQLITE_FULL) or "database or disk is full" in str(exc)
    state = getattr(exc, "sqlstate", None) or getattr(exc, "pgcode", None)
    if state == PG_DISK_FULL:
        return True
    return state == "53000" and "no space left on device" in str(exc).lower()


def is_disk_full(exc: BaseException | None) -> bool:
    """True when ``exc`` (or what caused it: Django wraps the driver's error) is a write refused for space."""
    seen = 0
    while exc is not None and seen < 6:
        if _one_is_full(exc):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


@dataclass(frozen=True)
class Storage:
    """Where taikai keeps its data, for the staff's hint and the console."""

    var_dir: str
    database: str  # a file path (SQLite) or "PostgreSQL <name> on <host>"
    free_bytes: int | None  # free space in the var folder, None when it cannot be read


def storage() -> Storage:
    from django.conf import settings

    db = settings.DATABASES["default"]
    var_dir = str(getattr(settings, "VAR_DIR", ""))
    if "sqlite" in str(db["ENGINE"]):
        database = str(db["NAME"])
    else:
        database = f"PostgreSQL {db.get('NAME', '')} on {db.get('HOST') or 'localhost'}"
    try:
        free: int | None = shutil.disk_usage(var_dir or Path.cwd()).free
    except OSError:
        free = None
    return Storage(var_dir, database, free)


def megabytes(size: int | None) -> str:
    return "?" if size is None else f"{size / 1_000_000:,.1f} MB"


class _Reports:
    """One loud report per episode: the first refusal, then at most one every REPEAT_AFTER seconds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0.0
        self._quiet = 0  # refusals since the last report
        self.total = 0

    def due(self, now: float) -> tuple[bool, int]:
        with self._lock:
            self.total += 1
            if self._last and now - self._last < REPEAT_AFTER:
                self._quiet += 1
                return False, 0
            self._last, quiet, self._quiet = now, self._quiet, 0
            return True, quiet

    def reset(self) -> None:
        with self._lock:
            self._last, self._quiet, self.total = 0.0, 0, 0


reports = _Reports()


def report(exc: BaseException, where: str = "") -> None:
    """Say on the console that a write was refused for lack of space: loudly the first time, then quietly."""
    loud, quiet = reports.due(time.monotonic())
    if not loud:
        log.debug("disk full (again): %s: %s", where, exc)
        return
    place = storage()
    since = f" ({quiet} more refused writes since the last report)" if quiet else ""
    bar = "=" * 72
    log.error(
        "\n%s\n"
        "taikai: THE DISK IS FULL - writes are refused, nothing half-written; pages can still be read.%s\n"
        "taikai: ディスクがいっぱいです。保存はできません（途中までの保存はありません）。ページの表示はできます。\n"
        "  what failed:   %s: %s\n"
        "  data folder:   %s (free: %s)\n"
        "  database:      %s\n"
        "  what to do:    free space on this computer's disk (delete files you do not need, old backups,\n"
        "                 empty the trash), then retry.\n"
        "                 不要なファイルや古いバックアップを消して空きを作り、もう一度お試しください。\n"
        "%s",
        bar,
        since,
        where or "a write",
        f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
        place.var_dir,
        megabytes(place.free_bytes),
        place.database,
        bar,
    )


def api_body(lang: str) -> dict[str, Any]:
    """The API's error body for a refused write, in the existing shape {"error": {code, message, params}}."""
    from taikai.core.problems import Problem
    from taikai.messages import text

    return {"error": {"code": CODE, "message": text(Problem(CODE), lang), "params": {}}}
