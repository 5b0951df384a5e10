from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from taikai.api.services import create_token
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import events as event_services
from tests.events.conftest import event8, make_event, organizer  # noqa: F401  (fixtures)


class Api:
    """A JSON client for /api/v1/ with an optional bearer token or player token and a language."""

    def __init__(self, client: Client, token: str = "", player: str = "", lang: str = "en"):
        self.client, self.token, self.player, self.lang = client, token, player, lang

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        h = {"Accept-Language": self.lang}
        if self.token:
            h["Authorization"] = f"Bearer {self.token}"
        if self.player:
            h["X-Player-Token"] = self.player
        return {**h, **(extra or {})}

    def get(self, path: str, **headers: str) -> Any:
        return self.client.get(f"/api/v1{path}", headers=self.headers(headers))

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(
            f"/api/v1{path}", data=json.dumps(body or {}), content_type="application/json", headers=self.headers()
        )

    def put(self, path: str, body: Any) -> Any:
        return self.client.put(
            f"/api/v1{path}", data=json.dumps(body), content_type="application/json", headers=self.headers()
        )

    def as_player(self, token: str) -> Api:
        return Api(self.client, player=token, lang=self.lang)


def staff_user(by: Any, event: Event, username: str, role: str) -> Any:
    user = event_services.create_staff_user(by=Staff(by), username=username, password="correct-horse-battery")
    event_services.assign_staff(event, by=Staff(by), username=username, role=role)
    return user


@pytest.fixture
def api_event(organizer: Any) -> Event:  # noqa: F811
    return make_event(organizer, 0, name="API Cup")


@pytest.fixture
def organizer_api(client: Client, organizer: Any, api_event: Event) -> Api:  # noqa: F811
    _row, token = create_token(api_event, by=Staff(organizer), username=organizer.username, role="organizer")
    return Api(client, token=token)


@pytest.fixture
def public_api(client: Client) -> Api:
    return Api(client)


ARCHETYPES = [
    "スネークアイ",
    "ティアラメンツ",
    "Snake-Eye",
    "スネークアイ",
    "R-ACE",
    "ティアラメンツ",
    "天盃龍",
    "スネークアイ",
]


def played_event(organizer: Any, players: int = 8) -> Event:  # noqa: F811
    """A finished Swiss-then-top-4 event, played through the services: archetypes, a drop, every result."""
    from taikai.decks.archetypes import set_archetype
    from taikai.events.services import clock as clock_services
    from taikai.events.services import participation
    from taikai.events.services import results as result_services
    from taikai.events.services import rounds as round_services
    from taikai.events.services.result_input import ResultInput

    event = make_event(organizer, players, name="チャート杯", format="swiss_cut", swiss_rounds=3, top_cut=4)
    for player, name in zip(event.players.order_by("id"), ARCHETYPES, strict=False):
        set_archetype(player, name=name, by=Staff(organizer))
    win = {"a": [{"winner": "A"}, {"winner": "A"}], "b": [{"winner": "B"}, {"winner": "B"}]}
    while True:
        try:
            rnd = round_services.pair_next_round(event, by=Staff(organizer))
        except Exception:  # all rounds played
            break
        clock_services.start_round(rnd, by=Staff(organizer))
        for k, match in enumerate(rnd.matches.filter(is_bye=False).order_by("table")):
            side = "a" if (match.player_a_id + rnd.number + k) % 3 else "b"
            data = ResultInput.from_json({"duels": win[side]})
            result_services.enter_result(match, by=Staff(organizer), result=data)
        if rnd.number == 1:
            participation.drop_player(event.players.order_by("-id").first(), by=Staff(organizer))
    event.refresh_from_db()
    return event
