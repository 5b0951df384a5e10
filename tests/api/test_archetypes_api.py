"""Issue 16 over the API: the organizer publishes the declared deck archetypes early (or hides them again) with
`POST`/`DELETE /events/{id}/archetypes/publish`; the players list and the event follow."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit import feed
from taikai.audit.models import AuditEntry
from taikai.events import actions
from taikai.events.actors import Staff
from taikai.events.models import Event, StaffRole
from taikai.tokens.services import create_token
from tests.events.test_archetypes_publication import DECKS, finish, running_event
from tests.factories import Api, staff_user

pytestmark = pytest.mark.django_db


def _token(event: Event, username: str, role: str) -> str:
    _row, token = create_token(event, by=Staff(event.created_by), username=username, role=role)
    return token


def _names(api: Api, event: Event) -> set[str | None]:
    return {p["archetype"] for p in api.get(f"/events/{event.pk}/players").json()["items"]}


def test_the_organizer_publishes_and_hides_over_the_api(organizer: User, client: Client) -> None:
    event = running_event(organizer)
    boss, public = Api(client, token=_token(event, organizer.username, "organizer")), Api(client)
    assert _names(public, event) == {None}
    answer = boss.post(f"/events/{event.pk}/archetypes/publish")
    assert answer.status_code == 200, answer.content
    assert answer.json()["public"] is True and answer.json()["published_at"]
    assert _names(public, event) == set(DECKS)
    assert public.get(f"/events/{event.pk}").json()["archetypes_public"] is True
    hidden = client.delete(f"/api/v1/events/{event.pk}/archetypes/publish", headers=boss.headers())
    assert hidden.status_code == 200 and hidden.json() == {"public": False, "published_at": None}
    assert _names(public, event) == {None}
    assert AuditEntry.objects.filter(action=actions.ARCHETYPES_UNPUBLISHED, event_id=event.pk).count() == 1


def test_a_judges_token_and_no_token_are_refused(organizer: User, client: Client) -> None:
    event = running_event(organizer)
    staff_user(organizer, event, "floor", StaffRole.Role.JUDGE)
    judge = Api(client, token=_token(event, "floor", "judge"), lang="ja")
    refused = judge.post(f"/events/{event.pk}/archetypes/publish")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not-organizer"
    assert refused.json()["error"]["message"] == "この操作は大会の主催者だけができます。"
    assert Api(client).post(f"/events/{event.pk}/archetypes/publish").status_code == 401
    event.refresh_from_db()
    assert event.archetypes_published_at is None


def test_hiding_them_after_the_event_is_refused_in_words(organizer: User, client: Client) -> None:
    event = finish(running_event(organizer, swiss_rounds=2), organizer)
    boss = Api(client, token=_token(event, organizer.username, "organizer"), lang="en")
    answer = client.delete(f"/api/v1/events/{event.pk}/archetypes/publish", headers=boss.headers())
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "archetypes-public-after-event"
    assert "cannot be hidden again" in answer.json()["error"]["message"]


def test_the_stream_tells_the_players_list_to_refresh() -> None:
    # Overlays and the charts page reload the players on "players": the archetypes appear or go.
    assert feed.KINDS[actions.ARCHETYPES_PUBLISHED] == "players"
    assert feed.KINDS[actions.ARCHETYPES_UNPUBLISHED] == "players"
