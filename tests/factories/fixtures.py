"""The shared pytest fixtures, registered for every test by ``pytest_plugins`` in tests/conftest.py.

A folder's conftest keeps only what is its own: autouse settings, skips, and fixtures whose name means
something else in another folder (``event`` in tests/judging and tests/decks).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, ViewportSize
from pytest_django.live_server_helper import LiveServer

from taikai.cards import services as card_services
from taikai.cards.index import MemoryCardIndex
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services.accounts import ensure_first_organizer
from taikai.tokens.services import create_token
from tests.servers import VenueServer, close_contexts, serving

from .api import Api
from .browser import BROWSER_WAIT_MS, CHROMIUM, CHROMIUM_ARGS, NewPage, SitePage, VenuePage, on_server
from .cards import CDB_EN, CDB_JA, EXTRA_CARDS, LFLIST_OCG, SAMPLE_TEXT, slice_cdb
from .events import make_event
from .world import World, build_world

if TYPE_CHECKING:
    from taikai.bench._live import Database

# Events and people


@pytest.fixture
def organizer(db: None) -> User:
    ensure_first_organizer()
    return get_user_model().objects.get(username="organizer")


@pytest.fixture
def event8(organizer: User) -> Event:
    return make_event(organizer, 8, format=Event.Format.SWISS_CUT, top_cut=4)


@pytest.fixture
def world(db: None) -> World:
    return build_world()


# The API


@pytest.fixture
def api_event(organizer: User) -> Event:
    return make_event(organizer, 0, name="API Cup")


@pytest.fixture
def organizer_api(client: Client, organizer: User, api_event: Event) -> Api:
    _row, token = create_token(api_event, by=Staff(organizer), username=organizer.username, role="organizer")
    return Api(client, token=token)


@pytest.fixture
def public_api(client: Client) -> Api:
    return Api(client)


# Cards


@pytest.fixture(scope="session")
def index() -> MemoryCardIndex:
    """All 14,484 cards with English and Japanese names, straight from the .cdb pair."""
    return MemoryCardIndex.from_cdb([CDB_EN, CDB_JA])


@pytest.fixture
def demo_cards(db: None) -> None:
    """The small card set bundled for `taikai demo` (48 real cards, the July 2026 entries for them)."""
    from taikai.decks.demo import load_demo_cards

    load_demo_cards()


@pytest.fixture
def real_cards(db: None, tmp_path: Path) -> None:
    """The sample deck's cards from the real 2026 .cdb pair, and the whole July 2026 OCG list."""
    from taikai.cards.formats import read_ydk

    wanted = sorted({*read_ydk(SAMPLE_TEXT).all_cards(), *EXTRA_CARDS})
    files = [slice_cdb(CDB_EN, tmp_path / "en.cdb", wanted), slice_cdb(CDB_JA, tmp_path / "ja.cdb", wanted)]
    card_services.import_card_files(files)
    card_services.import_lflist_file(LFLIST_OCG)


@pytest.fixture
def demo_event(organizer: User, demo_cards: None) -> Event:
    return make_event(organizer, 4, ruleset_name="harajuku-cs-1.2", banlist_name="OCG 2026.7 (demo excerpt)")


# Servers


@pytest.fixture
def live_db(tmp_path: Path) -> Iterator[Database]:
    """An empty database of the kind under test for a real `taikai serve` (SQLite file, or a new PostgreSQL db)."""
    import os

    from taikai.bench._live import database

    url = os.environ.get("TAIKAI_DATABASE_URL", "") if connection.vendor == "postgresql" else ""
    with database(tmp_path / "var", url) as db:
        yield db


@pytest.fixture
def venue(request: pytest.FixtureRequest, transactional_db: None) -> Iterator[VenueServer]:
    """The ASGI venue server with the live stream (tests/servers.py), for browser tests that need it."""
    # Pages a test opened in contexts of its own still hold their streams: they leave with the test.
    uses_browser = "browser" in request.fixturenames
    before_stop = close_contexts(request.getfixturevalue("browser")) if uses_browser else (lambda: None)
    with serving(before_stop) as server:
        yield server


# Browsers


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import expect, sync_playwright

    # A page's answer waits on a server shared with the other worker's browser and tests: on a loaded 2-core
    # machine 5 s (Playwright's default) was seen to pass before a report's answer came back.
    expect.set_options(timeout=BROWSER_WAIT_MS)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Browser, live_server: LiveServer) -> Iterator[NewPage]:
    """Open pages in fresh browser contexts: new_page(viewport=PHONE, locale="ja-JP")."""
    contexts: list[BrowserContext] = []

    def make(viewport: ViewportSize | None = None, locale: str = "ja-JP") -> SitePage:
        ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, locale=locale)
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        return on_server(ctx.new_page(), live_server.url)

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def venue_page(browser: Browser, venue: VenueServer) -> Iterator[VenuePage]:
    """venue_page(viewport=PHONE, locale="ja-JP", session=None): a page in a fresh context on the venue server."""
    contexts: list[BrowserContext] = []

    def make(viewport: ViewportSize | None = None, locale: str = "ja-JP", session: str | None = None) -> SitePage:
        ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, locale=locale)
        ctx.set_default_timeout(10_000)
        if session:
            ctx.add_cookies([{"name": "sessionid", "value": session, "url": venue.url}])
        contexts.append(ctx)
        return on_server(ctx.new_page(), venue.url)

    yield make
    for ctx in contexts:
        ctx.close()
