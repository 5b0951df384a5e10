"""The deck tests' own event (four players, the modern ruleset, the July 2026 OCG list) and fast passwords.

The card data fixtures (demo_cards, real_cards, demo_event) and the builders are in tests.factories.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from taikai.events.models import Event
from tests.factories import DATA, make_event

if not DATA.is_dir():  # pragma: no cover
    pytest.skip("../shared/data is not available", allow_module_level=True)


@pytest.fixture
def event(organizer: User) -> Event:
    return make_event(organizer, 4, ruleset_name="modern", banlist_name="2026.07 OCG")


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Settings) -> None:
    # Argon2 is right for the site and slow for tests that make an organizer each time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", "taikai.security.hashers.PinHasher"]
