"""A JSON client for the API, and staff accounts made the way the API's users are."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import events as event_services

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response  # what the test client answers


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

    def get(self, path: str, **headers: str) -> Response:
        return self.client.get(f"/api/v1{path}", headers=self.headers(headers))

    def post(self, path: str, body: Any = None) -> Response:
        return self.client.post(
            f"/api/v1{path}", data=json.dumps(body or {}), content_type="application/json", headers=self.headers()
        )

    def put(self, path: str, body: Any) -> Response:
        return self.client.put(
            f"/api/v1{path}", data=json.dumps(body), content_type="application/json", headers=self.headers()
        )

    def as_player(self, token: str) -> Api:
        return Api(self.client, player=token, lang=self.lang)


def staff_user(by: User, event: Event, username: str, role: str) -> User:
    user: User = event_services.create_staff_user(by=Staff(by), username=username, password="correct-horse-battery")
    event_services.assign_staff(event, by=Staff(by), username=username, role=role)
    return user
