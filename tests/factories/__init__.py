"""The one home of the tests' builders: ``from tests.factories import make_event, pair, World``.

The shared fixtures live in ``tests.factories.fixtures``; tests/conftest.py registers them for every test
(``pytest_plugins``), so a test names them as parameters and never imports them. No test imports a conftest.
"""

from .api import Api, staff_user
from .browser import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    PROJECTOR,
    NewPage,
    SitePage,
    VenuePage,
    on_server,
    screenshot,
)
from .cards import (
    BLOG_SHEET,
    CDB_2020,
    CDB_EN,
    CDB_JA,
    CDB_PRERELEASE,
    DATA,
    EXTRA_CARDS,
    LFLIST_ALL,
    LFLIST_JA,
    LFLIST_OCG,
    LFLIST_SPEED,
    SAMPLE_TEXT,
    SAMPLE_YDK,
    SAMPLE_YDKE,
    slice_cdb,
)
from .decks import accepted, not_accepted
from .events import NAMES, PASSWORD, fresh, make_event, player, staff
from .rounds import A_WINS, ARCHETYPES, pair, play, played_event
from .world import World, build_world, make_user, new_event

__all__ = [
    "A_WINS",
    "ARCHETYPES",
    "ARTIFACTS",
    "BLOG_SHEET",
    "CDB_2020",
    "CDB_EN",
    "CDB_JA",
    "CDB_PRERELEASE",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "DATA",
    "EXTRA_CARDS",
    "LFLIST_ALL",
    "LFLIST_JA",
    "LFLIST_OCG",
    "LFLIST_SPEED",
    "NAMES",
    "PASSWORD",
    "PHONE",
    "PROJECTOR",
    "SAMPLE_TEXT",
    "SAMPLE_YDK",
    "SAMPLE_YDKE",
    "Api",
    "NewPage",
    "SitePage",
    "VenuePage",
    "World",
    "accepted",
    "build_world",
    "fresh",
    "make_event",
    "make_user",
    "new_event",
    "not_accepted",
    "on_server",
    "pair",
    "play",
    "played_event",
    "player",
    "screenshot",
    "slice_cdb",
    "staff",
    "staff_user",
]
