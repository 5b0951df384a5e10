"""One writing request at a time on SQLite, across every web process.

SQLite lets one writer in at a time and makes the others poll with growing sleeps, so under a burst (fifty
phones reporting at round end) writers waste time sleeping and an unlucky one can be passed over until its
30-second busy timeout ends in "database is locked" (a 500). Writing requests therefore queue: on a lock
inside the process (threads), then on an exclusive file lock beside the database (processes), which the
kernel hands over in turn with no polling. Reads still run side by side (WAL). PostgreSQL needs none of this.
"""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse

SAFE = {"GET", "HEAD", "OPTIONS", "TRACE"}
_write_lock = threading.Lock()


@contextmanager
def sqlite_writer(lock_path: Path) -> Iterator[None]:
    with _write_lock, open(lock_path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class SerializeSqliteWritesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        self.enabled = connection.vendor == "sqlite"
        name = Path(str(settings.DATABASES["default"]["NAME"]))
        self.lock_path = name.with_name(name.name + ".writers.lock")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not self.enabled or request.method in SAFE:
            return self.get_response(request)
        with sqlite_writer(self.lock_path):
            return self.get_response(request)
