"""The venue server for browser tests that need the live stream (tests/servers.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import VenueServer, close_contexts, serving


@pytest.fixture
def venue(request: pytest.FixtureRequest, transactional_db: Any) -> Iterator[VenueServer]:
    # Pages a test opened in contexts of its own still hold their streams: they leave with the test.
    uses_browser = "browser" in request.fixturenames
    before_stop = close_contexts(request.getfixturevalue("browser")) if uses_browser else (lambda: None)
    with serving(before_stop) as server:
        yield server


@pytest.fixture
def venue_page(browser: Any, venue: VenueServer) -> Iterator[Any]:
    """venue_page(viewport=PHONE, locale="ja-JP", session=None): a page in a fresh context on the venue server."""
    contexts = []

    def make(viewport: dict[str, int] | None = None, locale: str = "ja-JP", session: str | None = None) -> Any:
        ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, locale=locale)
        ctx.set_default_timeout(10_000)
        if session:
            ctx.add_cookies([{"name": "sessionid", "value": session, "url": venue.url}])
        contexts.append(ctx)
        page = ctx.new_page()
        page.base_url = venue.url  # type: ignore[attr-defined]
        return page

    yield make
    for ctx in contexts:
        ctx.close()
