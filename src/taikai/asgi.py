"""The one application `taikai serve` runs.

Live streams (server-sent events, held open for minutes by hundreds of screens) go to Django's ASGI
handler, where each costs a coroutine, not a thread. Every other request goes to Django's WSGI handler in
a thread pool: for ordinary synchronous views that path is about three times faster than ASGI's
per-request thread hops (measured with `make bench`).
"""

from __future__ import annotations

import os
import re
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taikai.settings")

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

django_asgi = get_asgi_application()
django_wsgi = WSGIMiddleware(get_wsgi_application(), workers=int(os.environ.get("TAIKAI_THREADS", "16")))
STREAMS = re.compile(r"^/api/v\d+/events/\d+/stream/?$")


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and not STREAMS.match(scope.get("path", "")):
        await django_wsgi(scope, receive, send)
    else:
        await django_asgi(scope, receive, send)
