"""The one application `taikai serve` runs.

Live streams (server-sent events, held open for minutes by hundreds of screens) go to Django's ASGI
handler, where each costs a coroutine, not a thread. Every other request goes to Django's WSGI handler in
a thread pool: for ordinary synchronous views that path is about three times faster than ASGI's
per-request thread hops (measured with `make bench`).

Before either handler sees a request, its body is read here on the event loop against a size cap and a
deadline (taikai.security.bodies): a slow or huge body never holds one of the threads.
"""

from __future__ import annotations

import os
import re
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taikai.settings")

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

from taikai.security.bodies import BodyLimits, buffer_bodies  # noqa: E402

django_asgi = get_asgi_application()
django_wsgi = WSGIMiddleware(get_wsgi_application(), workers=int(os.environ.get("TAIKAI_THREADS", "16")))
STREAMS = re.compile(r"^/api/v\d+/events/\d+/stream/?$")


_limits = settings.LIMITS
LIMITS = BodyLimits(_limits.max_body, _limits.max_upload, _limits.body_timeout, _limits.body_min_rate)


async def route(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and not STREAMS.match(scope.get("path", "")):
        await django_wsgi(scope, receive, send)
    else:
        await django_asgi(scope, receive, send)


application = buffer_bodies(route, LIMITS)
