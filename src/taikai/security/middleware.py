"""One writing request at a time per process on SQLite.

Django serves each request of an ASGI worker in its own thread. SQLite lets one writer in at a time and makes
the others poll with growing sleeps, so under a burst (fifty phones reporting at round end) an unlucky request
can be passed over until its 30-second busy timeout ends in "database is locked" (a 500). Queuing the writing
requests on a lock inside the process hands the database over in turn instead, with no polling; reads still
run side by side (WAL). PostgreSQL needs none of this and is left alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection
from django.http import HttpRequest, HttpResponse

SAFE = {"GET", "HEAD", "OPTIONS", "TRACE"}
_write_lock = threading.Lock()


class SerializeSqliteWritesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        self.enabled = connection.vendor == "sqlite"

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not self.enabled or request.method in SAFE:
            return self.get_response(request)
        with _write_lock:
            return self.get_response(request)
