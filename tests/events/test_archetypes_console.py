"""The console's deck-archetype switch (issue 16), through the Django test client in Japanese and English: the
state, the button only for the organizer, a confirmation page that says what becomes visible (no JavaScript),
and hiding them again."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events import actions
from taikai.events.models import Event, StaffRole
from tests.events.test_archetypes_publication import finish, public_names, running_event, staff

pytestmark = pytest.mark.django_db


def console(client: Client, event: Event, lang: str) -> str:
    client.cookies.load({"taikai_language": lang})  # pages speak Japanese unless the person chose English
    response = client.get(f"/events/{event.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def post(client: Client, event: Event, lang: str = "ja", **data: str) -> Any:
    client.cookies.load({"taikai_language": lang})
    return client.post(f"/events/{event.pk}/archetypes/", data)


@pytest.mark.parametrize(
    ("lang", "state", "button", "explains"),
    [
        ("ja", "大会終了後に公開", "デッキタイプを公開する", "次の対戦相手のデッキ"),
        ("en", "Public after the event ends", "Publish deck archetypes", "their next opponent's deck"),
    ],
)
def test_the_console_shows_the_state_and_the_organizers_button(
    organizer: User,
    client: Client,
    lang: str,
    state: str,
    button: str,
    explains: str,
) -> None:
    event = running_event(organizer)
    client.force_login(organizer)
    page = console(client, event, lang)
    assert state in page and button in page and explains in page
    assert 'id="archetypes-publish"' in page and 'name="csrfmiddlewaretoken"' in page


@pytest.mark.parametrize(
    ("lang", "title", "done", "public"),
    [
        ("ja", "デッキタイプを公開しますか？", "デッキタイプを公開しました。", "公開中"),
        ("en", "Publish the deck archetypes?", "The deck archetypes are public.", "Public"),
    ],
)
def test_publishing_asks_first_then_publishes(
    organizer: User,
    client: Client,
    lang: str,
    title: str,
    done: str,
    public: str,
) -> None:
    event = running_event(organizer)
    client.force_login(organizer)
    ask = post(client, event, lang, publish="yes")
    assert ask.status_code == 200 and title in ask.content.decode()
    assert 'name="confirm" value="yes"' in ask.content.decode() and 'name="publish" value="yes"' in ask.content.decode()
    event.refresh_from_db()
    assert event.archetypes_published_at is None  # the confirmation page changes nothing
    answer = post(client, event, lang, publish="yes", confirm="yes")
    assert answer.status_code == 302 and answer["Location"] == f"/events/{event.pk}/"
    page = console(client, event, lang)
    assert done in page and public in page and 'id="archetypes-hide"' in page
    assert public_names(Client(), event) != {None}


def test_the_organizer_hides_them_again_from_the_console(organizer: User, client: Client) -> None:
    event = running_event(organizer)
    client.force_login(organizer)
    post(client, event, publish="yes", confirm="yes")
    answer = post(client, event, publish="no")
    assert answer.status_code == 302
    page = console(client, event, "ja")
    assert "デッキタイプを非公開に戻しました。" in page and "大会終了後に公開" in page
    assert AuditEntry.objects.filter(action=actions.ARCHETYPES_UNPUBLISHED, event_id=event.pk).count() == 1
    assert public_names(Client(), event) == {None}


def test_a_floor_judge_sees_the_state_but_no_button_and_is_refused(
    organizer: User,
    client: Client,
) -> None:
    event = running_event(organizer)
    client.force_login(staff(event, "floor", StaffRole.Role.JUDGE))
    page = console(client, event, "en")
    assert "Public after the event ends" in page and 'id="archetypes-publish"' not in page
    answer = post(client, event, "en", publish="yes", confirm="yes")
    assert answer.status_code == 302
    event.refresh_from_db()
    assert event.archetypes_published_at is None
    assert "Only the event&#x27;s organizers can do this." in console(client, event, "en")


def test_after_the_event_the_console_says_public_and_offers_nothing(
    organizer: User,
    client: Client,
) -> None:
    event = finish(running_event(organizer, swiss_rounds=2), organizer)
    client.force_login(organizer)
    page = console(client, event, "ja")
    assert "公開中" in page and "大会終了" in page
    assert 'id="archetypes-publish"' not in page and 'id="archetypes-hide"' not in page


def test_a_visitor_cannot_reach_the_switch(organizer: User, client: Client) -> None:
    event = running_event(organizer)
    answer = post(client, event, publish="yes", confirm="yes")
    assert answer.status_code == 302 and answer["Location"].startswith("/login/")
    event.refresh_from_db()
    assert event.archetypes_published_at is None
