from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from taikai.api.services import create_token
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
    user = event_services.create_staff_user(by=by, username=username, password="correct-horse-battery")
    event_services.assign_staff(event, by=by, username=username, role=role)
    return user


@pytest.fixture
def api_event(organizer: Any) -> Event:  # noqa: F811
    return make_event(organizer, 0, name="API Cup")


@pytest.fixture
def organizer_api(client: Client, organizer: Any, api_event: Event) -> Api:  # noqa: F811
    _row, token = create_token(api_event, by=organizer, username=organizer.username, role="organizer")
    return Api(client, token=token)


@pytest.fixture
def public_api(client: Client) -> Api:
    return Api(client)
