"""The one application `taikai serve` runs.

Live streams (server-sent events, held open for minutes by hundreds of screens) go to Django's ASGI
handler, where each costs a coroutine, not a thread. Every other request goes to Django's WSGI handler in
a thread pool: for ordinary synchronous views that path is about three times faster than ASGI's
per-request thread hops (measured with `make bench`).

Before either handler sees a request, its body is read here on the event loop against a size cap and a
deadline (taikai.security.bodies): a slow or huge body never holds one of the threads. Before that, a
repeat of a request a rate limit refused is answered from memory (taikai.security.refusals).
"""

from __future__ import annotations

import os
import re
from typing import Any, cast

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "taikai.settings")

from a2wsgi import WSGIMiddleware  # noqa: E402
from a2wsgi.asgi_typing import Scope  # noqa: E402
from a2wsgi.wsgi_typing import WSGIApp  # noqa: E402
from asgiref.sync import sync_to_async  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from taikai.security.bodies import BodyLimits, buffer_bodies  # noqa: E402
from taikai.security.refusals import Refusals  # noqa: E402
from taikai.web.middleware import language_for  # noqa: E402

django_asgi = get_asgi_application()
# Django's handler returns its response, which iterates the body's bytes as WSGI asks (the stubs say only that
# it is an HttpResponseBase).
django_wsgi = WSGIMiddleware(cast(WSGIApp, get_wsgi_application()), workers=settings.LIMITS.threads)
STREAMS = re.compile(r"^/api/v\d+/events/\d+/stream/?$")
# Every view module is imported now, as each web process starts, not by its first request: that import took
# about half a second of a core, and a phone's first result report waited for it (py-spy of make bench).
get_resolver().url_patterns  # noqa: B018 - a cached property: loading it is the point


def _warm_card_names() -> None:
    """The card names deck lists are read against, loaded as each web process starts too: the first list sent
    (a player's, or a loop of unknown names) built them in about a second of a core while that process's
    reports waited (make bench BENCH=attack, "big deck lists": the first run's p99). On a thread of its own:
    uvicorn imports this module inside its event loop, where Django refuses database calls."""
    import logging
    import threading

    from django.db import connections

    from taikai.cards.index import DbCardIndex

    def warm() -> None:
        try:
            DbCardIndex().warm()
        except Exception:  # not migrated yet, or no database: the first list builds them, as before
            logging.getLogger(__name__).warning("card names not loaded at start", exc_info=True)
        finally:
            connections.close_all()  # this thread's own; it serves no request

    thread = threading.Thread(target=warm, name="taikai-warm-card-names")
    thread.start()
    thread.join()


_warm_card_names()


_limits = settings.LIMITS
LIMITS = BodyLimits(_limits.max_body, _limits.max_upload, _limits.body_timeout, _limits.body_min_rate)


def _credentials_hold(scope: dict[str, Any]) -> bool:
    """A signed-in staff session or a live API token: the only senders of large bodies (a player's link is not)."""
    from http.cookies import SimpleCookie

    from django.contrib.auth import SESSION_KEY
    from django.db import close_old_connections
    from django.utils.module_loading import import_string

    from taikai.tokens.services import token_user

    headers = {key.lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}
    try:
        cookies = SimpleCookie(headers.get(b"cookie", ""))
        session = cookies.get(settings.SESSION_COOKIE_NAME)
        if session is not None:
            store = import_string(settings.SESSION_ENGINE).SessionStore(session_key=session.value)
            if SESSION_KEY in store.load():
                return True
        bearer = headers.get(b"authorization", "")
        return bearer.lower().startswith("bearer ") and token_user(bearer[7:].strip(), touch=False) is not None
    finally:
        close_old_connections()


async def credentials_hold(scope: dict[str, Any]) -> bool:
    return await sync_to_async(_credentials_hold, thread_sensitive=False)(scope)


async def route(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http" and not STREAMS.match(scope.get("path", "")):
        await django_wsgi(cast(Scope, scope), receive, send)  # the server's HTTP scope, untyped on the way here
    else:
        await django_asgi(scope, receive, send)


# Outermost: a repeat of a request a rate limit refused is answered before its body is read (refusals).
application: Any = Refusals(
    buffer_bodies(route, LIMITS, credentials_hold),
    language_cookie=settings.LANGUAGE_COOKIE_NAME,
    language=language_for,
    session_cookie=settings.SESSION_COOKIE_NAME,
)

BARE = "/bench/bare"  # with TAIKAI_BENCH_ENDPOINTS=1: what uvicorn alone answers, on the same server (issue 27)


def bench_bare(app: Any) -> Any:
    async def bare(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path") != BARE:
            await app(scope, receive, send)
            return
        more = True
        while more:  # read the body as any endpoint must
            more = (await receive()).get("more_body", False)
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
        await send({"type": "http.response.body", "body": b"ok"})

    return bare


if settings.BENCH_ENDPOINTS:
    application = bench_bare(application)
    if os.environ.get("TAIKAI_BENCH_PROFILE"):
        from taikai.bench import _sampler

        _sampler.start(os.environ["TAIKAI_BENCH_PROFILE"])
