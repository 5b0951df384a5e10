"""The deck pages through Django's test client: the player's page, staff pages, print pages."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from taikai.audit.models import AuditEntry
from taikai.decks import lock, services
from taikai.decks.demo import FORBIDDEN_SHEET, LEGAL_SHEET
from taikai.decks.models import DeckRegistration
from taikai.decks.services import DeckInput
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.models import Event
from taikai.events.services import links

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client, organizer: User) -> Client:
    client.force_login(organizer)
    return client


def test_the_player_sends_a_list_and_sees_its_problem_in_japanese(
    client: Client, demo_event: Event, organizer: User
) -> None:
    player = demo_event.players.first()
    token = links.issue_access(player, by=Staff(organizer))
    page = client.get(f"/p/{token}/deck/")
    assert page.status_code == 200 and "デッキ登録" in page.content.decode()
    response = client.post(f"/p/{token}/deck/", {"text": FORBIDDEN_SHEET, "languages": ["ja"]}, follow=True)
    html = response.content.decode()
    assert "「強欲な壺」は禁止カードです" in html
    response = client.post(f"/p/{token}/deck/", {"text": LEGAL_SHEET, "languages": ["ja", "en"]}, follow=True)
    html = response.content.decode()
    assert "登録しました" in html and "強欲な壺" not in html
    assert DeckRegistration.objects.get(player=player).mixed_languages


def test_the_player_page_speaks_english_after_the_switch(client: Client, demo_event: Event, organizer: User) -> None:
    token = links.issue_access(demo_event.players.first(), by=Staff(organizer))
    client.cookies["taikai_language"] = "en"
    response = client.post(f"/p/{token}/deck/", {"text": FORBIDDEN_SHEET}, follow=True)
    assert "Pot of Greed is Forbidden" in response.content.decode()


def test_unreadable_input_shows_an_error_and_keeps_nothing(client: Client, demo_event: Event, organizer: User) -> None:
    token = links.issue_access(demo_event.players.first(), by=Staff(organizer))
    response = client.post(f"/p/{token}/deck/", {"text": "ydke://AAA!!!"})
    assert response.status_code == 200 and "デッキリストを読めません" in response.content.decode()
    assert not DeckRegistration.objects.exists()


def test_a_locked_list_has_no_form_for_the_player(client: Client, demo_event: Event, organizer: User) -> None:
    player = demo_event.players.first()
    services.submit_deck(player, DeckInput(text=LEGAL_SHEET), by=PlayerSelf(player))
    Event.objects.filter(pk=demo_event.pk).update(deck_deadline=timezone.now() - dt.timedelta(minutes=5))
    token = links.issue_access(player, by=Staff(organizer))
    html = client.get(f"/p/{token}/deck/").content.decode()
    assert "締め切られ" in html and 'name="submit_deck"' not in html and "🔒" in html
    # STYLE 13: the page shows the lock the clock brought; stamping it is for the services (decks/receivers.py)
    assert DeckRegistration.objects.get(player=player).locked_at is None


def test_the_organizer_sees_who_is_missing(staff: Client, demo_event: Event) -> None:
    a, b, c, d = demo_event.players.order_by("id")
    services.submit_deck(a, DeckInput(text=LEGAL_SHEET), by=PlayerSelf(a))
    services.submit_deck(b, DeckInput(text=FORBIDDEN_SHEET), by=PlayerSelf(b))
    html = staff.get(f"/events/{demo_event.pk}/decks/").content.decode()
    chase = html.split('id="chase"')[1].split("</section>")[0]
    assert b.name in chase and c.name in chase and d.name in chase and a.name not in chase
    assert "未提出" in chase


def test_staff_submit_for_a_player_and_a_judge_changes_it_after_the_lock(staff: Client, demo_event: Event) -> None:
    player = demo_event.players.first()
    url = f"/events/{demo_event.pk}/decks/{player.pk}/"
    staff.post(url, {"text": FORBIDDEN_SHEET, "languages": ["ja"]})
    staff.post(f"/events/{demo_event.pk}/decks/lock/")
    assert lock.is_locked(demo_event)
    html = staff.get(url).content.decode()
    assert 'name="reason"' in html
    staff.post(url, {"text": LEGAL_SHEET, "languages": ["ja"], "reason": "デッキチェックで訂正"})
    reg = DeckRegistration.objects.get(player=player)
    assert reg.legal and reg.version == 2
    assert AuditEntry.objects.get(action="taikai.deck.judge_changed").data["reason"] == "デッキチェックで訂正"


def test_the_deck_sheet_and_the_deck_check_print_the_list(staff: Client, demo_event: Event) -> None:
    player = demo_event.players.first()
    services.submit_deck(player, DeckInput(text=LEGAL_SHEET), by=PlayerSelf(player))
    sheet = staff.get(f"/events/{demo_event.pk}/decks/{player.pk}/sheet/").content.decode()
    for text in ("デッキ記入シート", player.name, player.card_game_id, demo_event.name, "ブラック・マジシャン", "40"):
        assert text in sheet
    check = staff.get(f"/events/{demo_event.pk}/decks/{player.pk}/check/").content.decode()
    assert "Dark Magician" in check and "46986414" in check and 'class="box"' in check


def test_deck_pages_are_for_staff_only(client: Client, demo_event: Event) -> None:
    response = client.get(f"/events/{demo_event.pk}/decks/")
    assert response.status_code == 302 and "/login/" in response["Location"]
