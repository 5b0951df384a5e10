from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player, StaffRole
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from tests.events.conftest import make_event, organizer  # noqa: F401  (fixture)
from tests.web.conftest import venue  # noqa: F401  (fixture: the ASGI venue server with the live stream)

PASSWORD = "judge-pass-2026"


def staff(event: Event, username: str, role: str) -> Any:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    StaffRole.objects.update_or_create(event=event, user=user, defaults={"role": role})
    return user


@pytest.fixture
def event(organizer: Any) -> Event:  # noqa: F811
    return make_event(organizer, 8)


@pytest.fixture
def judge(event: Event) -> Any:
    return staff(event, "floor", StaffRole.Role.JUDGE)


@pytest.fixture
def head(event: Event) -> Any:
    return staff(event, "head", StaffRole.Role.HEAD_JUDGE)


def A_WINS(n: int = 2) -> ResultInput:
    return ResultInput(tuple({"winner": "A"} for _ in range(n)))


def pair(event: Event, by: Any) -> list[Match]:
    rnd = round_services.pair_next_round(event, by=Staff(by))
    return list(rnd.matches.filter(is_bye=False).select_related("player_a", "player_b").order_by("table"))


def play(event: Event, by: Any, matches: list[Match]) -> None:
    for m in matches:
        result_services.enter_result(m, by=Staff(by), result=A_WINS())


def fresh(obj: Any) -> Any:
    return type(obj).objects.get(pk=obj.pk)


def player(event: Event, i: int) -> Player:
    return Player.objects.filter(event=event).order_by("id")[i]
