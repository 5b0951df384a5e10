"""Deck registration fixtures: events from tests/events, the bundled demo card set (fast), and a
slice of the real card data from ../shared/data (read in place, never copied)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from taikai.cards import services as card_services
from taikai.decks.demo import load_demo_cards
from taikai.events.models import Event
from tests.cards.conftest import CDB_EN, CDB_JA, LFLIST_OCG, SAMPLE_YDK, slice_cdb
from tests.events.conftest import make_event, organizer  # noqa: F401  (fixture)

SAMPLE_TEXT = SAMPLE_YDK.read_text("utf-8")
# Cards the tests use beyond the sample deck: Pot of Greed (Forbidden), Maxx "C" (Limited).
EXTRA_CARDS = [55144522, 23434538]


@pytest.fixture
def demo_cards(db: Any) -> None:
    """The small card set bundled for `taikai demo` (48 real cards, the July 2026 entries for them)."""
    load_demo_cards()


@pytest.fixture
def real_cards(db: Any, tmp_path: Path) -> None:
    """The sample deck's cards from the real 2026 .cdb pair, and the whole July 2026 OCG list."""
    from taikai.cards.formats import read_ydk

    wanted = sorted({*read_ydk(SAMPLE_TEXT).all_cards(), *EXTRA_CARDS})
    files = [slice_cdb(CDB_EN, tmp_path / "en.cdb", wanted), slice_cdb(CDB_JA, tmp_path / "ja.cdb", wanted)]
    card_services.import_card_files(files)
    card_services.import_lflist_file(LFLIST_OCG)


@pytest.fixture
def event(organizer: Any) -> Event:  # noqa: F811
    return make_event(organizer, 4, ruleset_name="modern", banlist_name="2026.07 OCG")


@pytest.fixture
def demo_event(organizer: Any, demo_cards: None) -> Event:  # noqa: F811
    return make_event(organizer, 4, ruleset_name="harajuku-cs-1.2", banlist_name="OCG 2026.7 (demo excerpt)")


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    # Argon2 is right for the site and slow for tests that make an organizer each time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", "taikai.security.hashers.PinHasher"]
