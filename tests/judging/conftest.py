"""The judging tests' own event (eight checked-in players) and its two judges; the builders are in tests.factories."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from taikai.events.models import Event, StaffRole
from tests.factories import make_event, staff


@pytest.fixture
def event(organizer: User) -> Event:
    return make_event(organizer, 8)


@pytest.fixture
def judge(event: Event) -> User:
    return staff(event, "floor", StaffRole.Role.JUDGE)


@pytest.fixture
def head(event: Event) -> User:
    return staff(event, "head", StaffRole.Role.HEAD_JUDGE)
