"""The Swiss rounds and the top cut on the public event page and the console (issue 22, finding 6): provisional
before round 1, fixed after it, and changed on the console only by the organizer, on the version they saw."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import rounds as round_services
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def page(client: Client, url: str, lang: str = "ja") -> str:
    client.cookies.load({"taikai_language": lang})
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("lang", "provisional", "fixed"),
    [
        (
            "ja",
            ["スイスドロー 4 回戦・上位 4 名で決勝トーナメント", "暫定: いまチェックイン済みの 9 名"],
            ["スイスドロー 4 回戦・上位 4 名で決勝トーナメント", "チェックイン 9 名で確定"],
        ),
        (
            "en",
            ["4 Swiss rounds, then a top cut of 4", "Provisional: for the 9 players checked in now"],
            ["4 Swiss rounds, then a top cut of 4", "Fixed when round 1 was paired, for 9 players"],
        ),
    ],
)
def test_the_public_page_says_provisional_then_fixed(
    organizer: User,
    client: Client,
    lang: str,
    provisional: list[str],
    fixed: list[str],
) -> None:
    event = make_event(organizer, 9, format=Event.Format.SWISS_CUT)
    before = page(client, f"/e/{event.pk}/", lang)
    assert all(words in before for words in provisional)
    round_services.pair_next_round(event, by=Staff(organizer))
    after = page(client, f"/e/{event.pk}/", lang)
    assert all(words in after for words in fixed)
    assert provisional[1] not in after


def test_the_organizer_changes_them_on_the_console(organizer: User, client: Client) -> None:
    event = make_event(organizer, 9, format=Event.Format.SWISS_CUT)
    round_services.pair_next_round(event, by=Staff(organizer))
    client.force_login(organizer)
    console = page(client, f"/events/{event.pk}/")
    assert 'id="round-plan-form"' in console and "スイスドロー 4 回戦・上位 4 名で決勝トーナメント" in console
    seen = Event.objects.get(pk=event.pk).version
    client.post(f"/events/{event.pk}/round-plan/", {"version": seen, "swiss_rounds": "5", "top_cut": "8"})
    console = page(client, f"/events/{event.pk}/")
    assert "スイスドロー 5 回戦・上位 8 名で決勝トーナメント" in console and "保存しました" in console
    assert AuditEntry.objects.filter(event_id=event.pk, action="taikai.event.round_plan_set").count() == 1
    # the same form sent again from the page seen before the change: refused, with what it is now
    client.post(f"/events/{event.pk}/round-plan/", {"version": seen, "swiss_rounds": "3", "top_cut": "4"})
    console = page(client, f"/events/{event.pk}/")
    assert "ほかの人が先に変更しました。現在はスイスドロー 5 回戦・決勝トーナメント 8 名です。" in console
    assert (Event.objects.get(pk=event.pk).swiss_rounds, Event.objects.get(pk=event.pk).top_cut) == (5, 8)


def test_a_judge_sees_the_numbers_but_not_the_form(organizer: User, client: Client) -> None:
    from taikai.events.services import events as event_services

    event = make_event(organizer, 9)
    event_services.add_staff(event, by=Staff(organizer), username="judge1", role="judge", password="x-Long-pass-42")
    client.login(username="judge1", password="x-Long-pass-42")
    console = page(client, f"/events/{event.pk}/")
    assert "スイスドロー 4 回戦" in console and 'id="round-plan-form"' not in console
    seen = Event.objects.get(pk=event.pk).version
    client.post(f"/events/{event.pk}/round-plan/", {"version": seen, "swiss_rounds": "6"})
    assert Event.objects.get(pk=event.pk).swiss_rounds is None
