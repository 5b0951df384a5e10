"""A registered legal list stays registered until a new one passes the deck check (issue 22, finding 7).

On the real card data (../shared/data) and the July 2026 OCG list: the sample deck is legal; the same deck
with Pot of Greed for Mystical Space Typhoon is not (DECK-4). Sent every way a player sends a list.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from taikai.audit.models import AuditEntry
from taikai.cards.formats import read_ydk, write_ydke
from taikai.cards.index import DbCardIndex
from taikai.cards.textsheet import write_text_sheet
from taikai.decks import lock, overview, services
from taikai.decks.models import DeckRegistration, RejectedDeckList
from taikai.decks.services import DeckInput
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, StaffRole
from tests.factories import SAMPLE_TEXT, accepted, not_accepted

pytestmark = pytest.mark.django_db

FORBIDDEN_YDK = SAMPLE_TEXT.replace("5318639", "55144522", 1)  # Mystical Space Typhoon -> Pot of Greed


def _illegal(way: str) -> DeckInput:
    """The illegal list as a player sends it: a .ydk file, a ydke:// file, a pasted ydke:// URL or a text sheet."""
    deck = read_ydk(FORBIDDEN_YDK)
    if way == "ydk-file":
        return DeckInput(file_name="forbidden.ydk", file_data=FORBIDDEN_YDK.encode())
    if way == "ydke-file":
        return DeckInput(file_name="deck.txt", file_data=write_ydke(deck).encode())
    if way == "ydke-text":
        return DeckInput(text=write_ydke(deck))
    return DeckInput(text=write_text_sheet(deck, DbCardIndex().facts(deck.all_cards()), "ja"))


@pytest.mark.parametrize("way", ["ydk-file", "ydke-file", "ydke-text", "sheet"])
def test_an_illegal_list_does_not_replace_the_registered_legal_one(real_cards: None, event: Event, way: str) -> None:
    # DECK-9: one registered list per player; DECK-4: a list with a Forbidden card does not pass the check.
    player = event.players.order_by("id").first()
    legal = accepted(
        services.submit_deck(
            player, DeckInput(file_name="sample_deck.ydk", file_data=SAMPLE_TEXT.encode()), by=PlayerSelf(player)
        )
    )
    assert legal.legal and legal.version == 1
    sent = services.submit_deck(player, _illegal(way), by=PlayerSelf(player))
    registered = DeckRegistration.objects.get(player=player)
    assert registered.legal and registered.version == 1 and registered.problems == []
    assert (registered.main, registered.extra, registered.side) == (legal.main, legal.extra, legal.side)
    assert 55144522 not in registered.main
    # The list sent is kept as a rejected attempt, with why, beside the registered list.
    assert isinstance(sent, RejectedDeckList) and not sent.legal
    assert [(p["code"], p["card"]) for p in sent.problems] == [("forbidden", 55144522)]
    assert 55144522 in sent.main and sent.registration_version == 1
    assert overview.pending_rejection(registered) == sent
    entry = AuditEntry.objects.get(action="taikai.deck.rejected")
    assert entry.object_id == str(sent.pk) and entry.actor_label == f"player:{player.pk}"
    assert entry.data["problems"] == ["forbidden"] and entry.data["registered"]["version"] == 1
    assert entry.after["legal"] is False and 55144522 in entry.after["main"]


def test_staff_sending_an_illegal_list_for_the_player_does_not_replace_it_either(
    real_cards: None, event: Event, organizer: User
) -> None:
    player = event.players.order_by("id").first()
    services.submit_deck(player, DeckInput(text=SAMPLE_TEXT), by=PlayerSelf(player))
    services.submit_deck(player, DeckInput(text=FORBIDDEN_YDK), by=Staff(organizer))
    registered = DeckRegistration.objects.get(player=player)
    assert registered.legal and registered.version == 1 and 55144522 not in registered.main
    assert RejectedDeckList.objects.get(player=player).submitted_by == organizer


def _registered(event: Event) -> tuple[Player, DeckRegistration]:
    player = event.players.order_by("id").first()
    return player, accepted(services.submit_deck(player, DeckInput(text=SAMPLE_TEXT), by=PlayerSelf(player)))


def test_a_legal_list_sent_later_replaces_the_registered_one_and_the_rejection_is_history(
    real_cards: None, event: Event
) -> None:
    player, _ = _registered(event)
    services.submit_deck(player, DeckInput(text=FORBIDDEN_YDK), by=PlayerSelf(player))
    fixed = FORBIDDEN_YDK.replace("55144522", "5318639", 1)  # the player puts the Typhoon back
    new = services.submit_deck(
        player, DeckInput(file_name="fixed.ydk", file_data=fixed.encode()), by=PlayerSelf(player)
    )
    assert isinstance(new, DeckRegistration) and new.legal and new.version == 2
    assert overview.pending_rejection(new) is None
    assert RejectedDeckList.objects.filter(player=player).count() == 1  # kept, no longer pending


def test_with_no_legal_list_registered_a_list_with_problems_is_registered_to_be_fixed(
    real_cards: None, event: Event
) -> None:
    player = event.players.order_by("id").first()
    first = services.submit_deck(player, DeckInput(text=FORBIDDEN_YDK), by=PlayerSelf(player))
    short = "#main\n" + "\n".join(FORBIDDEN_YDK.splitlines()[2:30]) + "\n#extra\n!side\n"
    second = services.submit_deck(player, DeckInput(text=short), by=PlayerSelf(player))
    assert isinstance(first, DeckRegistration) and isinstance(second, DeckRegistration)
    assert second.pk == first.pk and second.version == 2 and "main-too-small" in [p["code"] for p in second.problems]
    assert not RejectedDeckList.objects.exists()


def test_after_the_lock_an_illegal_list_is_refused_and_nothing_is_kept(real_cards: None, event: Event) -> None:
    # DECK-9: after the lock nothing the player sends replaces the registered list, and nothing is written.
    player, _ = _registered(event)
    Event.objects.filter(pk=event.pk).update(deck_deadline=timezone.now() - dt.timedelta(minutes=1))
    player.refresh_from_db()
    with pytest.raises(ServiceError) as err:
        services.submit_deck(player, DeckInput(text=FORBIDDEN_YDK), by=PlayerSelf(player))
    assert err.value.problem.code == "deck-locked"
    assert not RejectedDeckList.objects.exists()
    assert DeckRegistration.objects.get(player=player).legal


def test_a_judges_illegal_change_does_not_replace_a_legal_list_either(real_cards: None, event: Event) -> None:
    # DECK-9: after the lock a judge changes a list, with a reason; a list with problems still does not replace it.
    player, reg = _registered(event)
    Event.objects.filter(pk=event.pk).update(deck_deadline=timezone.now() - dt.timedelta(minutes=1))
    reg = DeckRegistration.objects.select_related("event", "player").get(pk=reg.pk)
    judge = get_user_model().objects.create_user("judge1", password="x" * 12)
    StaffRole.objects.create(event=reg.event, user=judge, role=StaffRole.Role.JUDGE)
    sent = services.judge_change_deck(reg, by=Staff(judge), deck=DeckInput(text=FORBIDDEN_YDK), reason="デッキチェック")
    assert isinstance(sent, RejectedDeckList) and sent.reason == "デッキチェック" and sent.submitted_by == judge
    registered = DeckRegistration.objects.get(pk=reg.pk)
    assert registered.legal and registered.version == 1 and registered.locked_at is not None
    assert AuditEntry.objects.get(action="taikai.deck.rejected").data["reason"] == "デッキチェック"


# --- who sees it: the player on their deck page, the judges on theirs ------------------------------------------


def _sent_at(rejected: RejectedDeckList) -> str:
    return timezone.localtime(rejected.submitted_at).strftime("%H:%M")


def test_the_player_reads_on_their_deck_page_that_the_list_was_not_accepted_and_why(
    real_cards: None, event: Event, organizer: User
) -> None:
    from django.test import Client

    from taikai.events.services import links

    player, _ = _registered(event)
    token = links.issue_access(player, by=Staff(organizer))
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    response = client.post(f"/p/{token}/deck/", {"text": FORBIDDEN_YDK, "languages": ["ja"]}, follow=True)
    html = response.content.decode()
    rejected = RejectedDeckList.objects.get(player=player)
    assert "受理されませんでした: リストに問題があります" in html  # the message after sending
    assert f"{_sent_at(rejected)} に送ったリストは、次の理由で受理されませんでした" in html
    assert "登録されているリストは引き続き" in html and "（バージョン 1）" in html
    assert "「強欲な壺」は禁止カードです" in html
    [box] = re.findall(r"<textarea[^>]*>(.*?)</textarea>", html, re.S)
    assert "強欲な壺" in box  # the text box holds the list sent, to fix it
    client.cookies["taikai_language"] = "en"
    english = client.get(f"/p/{token}/deck/").content.decode()
    assert f"The list you sent at {_sent_at(rejected)} was not accepted because:" in english
    assert "Pot of Greed is Forbidden" in english


def test_the_judges_see_the_list_that_was_not_accepted_beside_the_registered_one(
    real_cards: None, event: Event, organizer: User
) -> None:
    from django.test import Client

    player, _ = _registered(event)
    rejected = not_accepted(services.submit_deck(player, DeckInput(text=FORBIDDEN_YDK), by=PlayerSelf(player)))
    judge = get_user_model().objects.create_user("judge1", password="x" * 12)
    StaffRole.objects.create(event=event, user=judge, role=StaffRole.Role.JUDGE)
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(judge)
    overview = client.get(f"/events/{event.pk}/decks/").content.decode()
    assert "受理されなかったリスト" in overview and f"{_sent_at(rejected)} 不受理" in overview
    detail = client.get(f"/events/{event.pk}/decks/{player.pk}/").content.decode()
    assert "登録されているリストは引き続きバージョン 1" in detail
    assert (
        f"{player.name} が {_sent_at(rejected)} に送ったリスト" in detail and "「強欲な壺」は禁止カードです" in detail
    )
    assert "デッキリスト不受理" in detail  # the history, from the audit entry
    sheet = client.get(f"/events/{event.pk}/decks/{player.pk}/check/").content.decode()
    assert "強欲な壺" not in sheet  # the deck check is of the registered list


def test_the_api_says_the_list_sent_was_not_accepted_and_which_list_stays(
    real_cards: None, event: Event, organizer: User
) -> None:
    import json

    from django.test import Client

    from taikai.events.services import links

    player, _ = _registered(event)
    token = links.issue_access(player, by=Staff(organizer))
    response = Client().put(
        f"/api/v1/events/{event.pk}/players/{player.pk}/deck",
        data=json.dumps({"text": write_ydke(read_ydk(FORBIDDEN_YDK))}),
        content_type="application/json",
        headers={"X-Player-Token": token},
    )
    body = response.json()
    assert response.status_code == 200 and body["accepted"] is False
    assert body["legal"] is False and [p["code"] for p in body["problems"]] == ["forbidden"]  # the list sent
    assert body["registered"] == {"version": 1, "legal": True, "counts": {"main": 40, "extra": 10, "side": 3}}
    assert RejectedDeckList.objects.filter(player=player).count() == 1


def test_after_the_lock_the_player_still_reads_which_list_stays_and_is_sent_to_a_judge(
    real_cards: None, event: Event, organizer: User
) -> None:
    # DECK-9: once the lists lock the form is gone; the notice says the registered list is the one played.
    from django.test import Client

    from taikai.events.services import links

    player, _ = _registered(event)
    services.submit_deck(player, DeckInput(text=FORBIDDEN_YDK), by=PlayerSelf(player))
    lock.lock_decks(event, by=Staff(organizer))
    token = links.issue_access(player, by=Staff(organizer))
    html = Client(HTTP_ACCEPT_LANGUAGE="ja").get(f"/p/{token}/deck/").content.decode()
    assert (
        "次の理由で受理されませんでした" in html and "登録されているリストで対戦します。変更が必要ならジャッジ" in html
    )
    assert "<textarea" not in html and "下で直して送り直す" not in html
