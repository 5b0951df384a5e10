"""Issue 16: the players' declared deck archetypes stay private while the event runs, unless the organizer
publishes them earlier (a metagame breakdown after the Swiss rounds); the organizer may hide them again until
the event finishes. The service, the console's switch, and what the public reads show at each step."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.decks.archetypes import set_archetype
from taikai.events import actions
from taikai.events.actors import Actor, PlayerSelf, Staff, Visitor
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, StaffRole
from taikai.events.services import events as event_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from tests.factories import make_event

pytestmark = pytest.mark.django_db

DECKS = ["スネークアイ", "ティアラメンツ", "R-ACE", "天盃龍"]
A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))


def running_event(organizer: User, **kwargs: Any) -> Event:
    """Four players who declared their decks, round 1 paired: the event is running."""
    event = make_event(organizer, 4, **kwargs)
    for player, name in zip(event.players.order_by("id"), DECKS, strict=True):
        set_archetype(player, name=name, by=Staff(organizer))
    round_services.pair_next_round(event, by=Staff(organizer))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    return event


def finish(event: Event, organizer: User) -> Event:
    """Play the remaining rounds: the last confirmed result finishes the event."""
    while True:
        rnd = event.rounds.order_by("-number").first()
        assert rnd is not None
        for match in rnd.matches.filter(is_bye=False):
            result_services.enter_result(match, by=Staff(organizer), result=A_WINS)
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            return event
        round_services.pair_next_round(event, by=Staff(organizer))


def staff(event: Event, name: str, role: str) -> User:
    user = get_user_model().objects.create_user(username=name, password="correct-horse-battery")
    StaffRole.objects.create(event=event, user=user, role=role)
    return user


def public_names(client: Client, event: Event, **headers: str) -> set[str | None]:
    items = client.get(f"/api/v1/events/{event.pk}/players", headers=headers).json()["items"]
    return {p["archetype"] for p in items}


# --- the service ----------------------------------------------------------------------------------------


def test_the_organizer_publishes_and_the_change_is_audited_and_versioned(organizer: User) -> None:
    event = running_event(organizer)
    assert not event.archetypes_public
    version = event.version
    published = event_services.publish_archetypes(event, by=Staff(organizer))
    assert published.archetypes_public and published.archetypes_published_at is not None
    assert published.version == version + 1
    [entry] = AuditEntry.objects.filter(action=actions.ARCHETYPES_PUBLISHED, event_id=event.pk)
    assert entry.actor == organizer
    assert entry.before == {"archetypes_published_at": None}
    assert entry.after == {"archetypes_published_at": published.archetypes_published_at.isoformat()}


def test_publishing_twice_is_once(organizer: User) -> None:
    event = running_event(organizer)
    first = event_services.publish_archetypes(event, by=Staff(organizer))
    again = event_services.publish_archetypes(event, by=Staff(organizer))
    assert again.archetypes_published_at == first.archetypes_published_at and again.version == first.version
    assert AuditEntry.objects.filter(action=actions.ARCHETYPES_PUBLISHED, event_id=event.pk).count() == 1


@pytest.mark.parametrize("role", [StaffRole.Role.JUDGE, StaffRole.Role.HEAD_JUDGE])
def test_judges_cannot_publish_nor_hide(organizer: User, role: str) -> None:
    event = running_event(organizer)
    judge = Staff(staff(event, "floor", role))
    with pytest.raises(PermissionDenied) as err:
        event_services.publish_archetypes(event, by=judge)
    assert err.value.problem.code == "not-organizer"
    event_services.publish_archetypes(event, by=Staff(organizer))
    with pytest.raises(PermissionDenied):
        event_services.unpublish_archetypes(event, by=judge)
    event.refresh_from_db()
    assert event.archetypes_published_at is not None


def test_players_and_visitors_cannot_publish(organizer: User) -> None:
    event = running_event(organizer)
    refused: list[Actor] = [PlayerSelf(event.players.first()), Visitor()]
    for actor in refused:
        with pytest.raises(PermissionDenied):
            event_services.publish_archetypes(event, by=actor)
    event.refresh_from_db()
    assert event.archetypes_published_at is None
    assert not AuditEntry.objects.filter(action=actions.ARCHETYPES_PUBLISHED).exists()


def test_the_organizer_hides_them_again_while_the_event_runs(organizer: User) -> None:
    event = running_event(organizer)
    event_services.publish_archetypes(event, by=Staff(organizer))
    hidden = event_services.unpublish_archetypes(event, by=Staff(organizer))
    assert hidden.archetypes_published_at is None and not hidden.archetypes_public
    [entry] = AuditEntry.objects.filter(action=actions.ARCHETYPES_UNPUBLISHED, event_id=event.pk)
    assert entry.before["archetypes_published_at"] is not None and entry.after == {"archetypes_published_at": None}


def test_once_the_event_has_finished_they_are_public_and_stay_so(organizer: User) -> None:
    event = finish(running_event(organizer, swiss_rounds=2), organizer)
    assert event.archetypes_public and event.archetypes_published_at is None
    with pytest.raises(ServiceError) as err:
        event_services.unpublish_archetypes(event, by=Staff(organizer))
    assert err.value.problem.code == "archetypes-public-after-event"


# --- what the public reads show -------------------------------------------------------------------------


def test_the_public_players_list_hides_them_until_published_then_after_the_event(
    organizer: User,
    client: Client,
) -> None:
    event = running_event(organizer, swiss_rounds=2)
    assert public_names(client, event) == {None}
    assert client.get(f"/api/v1/events/{event.pk}").json()["archetypes_public"] is False
    event_services.publish_archetypes(event, by=Staff(organizer))
    assert public_names(client, event) == set(DECKS)
    assert client.get(f"/api/v1/events/{event.pk}").json()["archetypes_public"] is True
    event_services.unpublish_archetypes(event, by=Staff(organizer))
    assert public_names(client, event) == {None}
    finish(event, organizer)
    assert public_names(client, event) == set(DECKS)  # finished: public without a publication


def test_the_metagame_chart_follows_the_publication(organizer: User, client: Client) -> None:
    event = running_event(organizer)
    assert client.get(f"/e/{event.pk}/charts/metagame.svg").status_code == 404
    assert 'id="chart-metagame"' not in client.get(f"/e/{event.pk}/charts/").content.decode()
    event_services.publish_archetypes(event, by=Staff(organizer))
    svg = client.get(f"/e/{event.pk}/charts/metagame.svg")
    assert svg.status_code == 200 and "ティアラメンツ" in svg.content.decode()
    assert 'id="chart-metagame"' in client.get(f"/e/{event.pk}/charts/").content.decode()


def test_the_public_charts_page_hides_the_metagame_from_signed_in_staff_too(
    organizer: User,
    client: Client,
) -> None:
    # The charts page may be on the projector, signed in as the organizer: it shows what everyone sees.
    event = running_event(organizer)
    client.force_login(organizer)
    assert client.get(f"/e/{event.pk}/charts/metagame.svg").status_code == 404
    report = client.get(f"/events/{event.pk}/report/").content.decode()
    assert "ティアラメンツ" in report and 'id="metagame-staff-only"' in report  # staff preview it in the report
    event_services.publish_archetypes(event, by=Staff(organizer))
    report = client.get(f"/events/{event.pk}/report/").content.decode()
    assert 'id="metagame-staff-only"' not in report


def test_staff_see_the_archetypes_with_their_token_at_any_time(organizer: User, client: Client) -> None:
    from taikai.tokens.services import create_token

    event = running_event(organizer)
    judge = staff(event, "floor", StaffRole.Role.JUDGE)
    _row, token = create_token(event, by=Staff(organizer), username=judge.username, role="judge")
    assert public_names(client, event, Authorization=f"Bearer {token}") == set(DECKS)
    other = make_event(organizer, 0, name="別の大会")
    _row, elsewhere = create_token(other, by=Staff(organizer), username=organizer.username, role="organizer")
    assert public_names(client, event, Authorization=f"Bearer {elsewhere}") == {None}  # another event's token
    assert public_names(client, event, Authorization="Bearer tk_not-a-token") == {None}
