"""Deck registration services: submit, fix, lock (DECK-9), judge changes, languages (DECK-8)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone

from taikai.audit.models import AuditEntry
from taikai.cards.lflist import ParsedList
from taikai.cards.models import Banlist
from taikai.cards.services import import_banlists
from taikai.decks import lock, overview, services
from taikai.decks.demo import FORBIDDEN_SHEET, LEGAL_SHEET, SHORT_SHEET, TYPO_SHEET
from taikai.decks.models import DeckRegistration
from taikai.decks.services import DeckInput, Submitted
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, StaffRole
from taikai.events.services import clock as clock_services
from taikai.events.services import rounds as round_services
from tests.factories import accepted

pytestmark = pytest.mark.django_db


def first(event: Event) -> Player:
    return event.players.order_by("id").first()


def codes(reg: Submitted) -> list[str]:
    return [p["code"] for p in reg.problems]


def test_a_legal_sheet_is_registered_with_its_passcodes(demo_event: Event) -> None:
    reg = accepted(
        services.submit_deck(first(demo_event), DeckInput(text=LEGAL_SHEET), by=PlayerSelf(first(demo_event)))
    )
    assert reg.legal and reg.problems == []
    assert reg.counts == {"main": 40, "extra": 10, "side": 3}
    assert reg.format == "text" and reg.version == 1 and reg.submitted_by is None
    assert reg.banlist is not None and reg.banlist.frozen
    entry = AuditEntry.objects.get(action="taikai.deck.submitted")
    assert entry.actor_label == f"player:{reg.player_id}" and entry.after["legal"] is True


def test_a_problem_is_saved_and_the_player_fixes_it_before_the_deadline(demo_event: Event) -> None:
    player = first(demo_event)
    bad = services.submit_deck(player, DeckInput(text=FORBIDDEN_SHEET), by=PlayerSelf(player))
    assert not bad.legal and codes(bad) == ["forbidden"]  # DECK-4: Pot of Greed
    fixed = accepted(services.submit_deck(player, DeckInput(text=LEGAL_SHEET), by=PlayerSelf(player)))
    assert fixed.pk == bad.pk and fixed.legal and fixed.version == 2
    assert DeckRegistration.objects.filter(player=player).count() == 1  # DECK-9: one list per player


@pytest.mark.parametrize(
    ("sheet", "code"),
    [(SHORT_SHEET, "main-too-small"), (TYPO_SHEET, "unknown-card")],
)
def test_each_problem_gets_its_code(demo_event: Event, sheet: str, code: str) -> None:
    reg = services.submit_deck(first(demo_event), DeckInput(text=sheet), by=PlayerSelf(first(demo_event)))
    assert code in codes(reg)


def test_an_unknown_name_keeps_its_line_and_closest_match(demo_event: Event) -> None:
    reg = services.submit_deck(first(demo_event), DeckInput(text=TYPO_SHEET), by=PlayerSelf(first(demo_event)))
    [problem] = [p for p in reg.problems if p["code"] == "unknown-card"]
    assert problem["line"] == 33 and "灰流うらら" in problem["matches"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "deck-empty"),
        ("   \n\n", "deck-empty"),
        ("ydke://@@@!!!", "deck-unreadable"),
        ("ydke://AAA!!!", "deck-unreadable"),
        ("x" * 30_000, "deck-input-too-large"),
    ],
)
def test_bad_input_gets_a_clear_error_and_nothing_is_saved(demo_event: Event, text: str, code: str) -> None:
    frozen_before = Banlist.objects.filter(frozen=True).count()
    with pytest.raises(ServiceError) as err:
        services.submit_deck(first(demo_event), DeckInput(text=text), by=PlayerSelf(first(demo_event)))
    assert err.value.problem.code == code
    assert not DeckRegistration.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="taikai.deck.").exists()
    assert Banlist.objects.filter(frozen=True).count() == frozen_before  # no list copy either


def test_an_unreadable_file_is_refused(demo_event: Event) -> None:
    with pytest.raises(ServiceError) as err:
        services.submit_deck(
            first(demo_event),
            DeckInput(file_name="deck.txt", file_data=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x80\x80"),
            by=PlayerSelf(first(demo_event)),
        )
    assert err.value.problem.code == "deck-encoding"
    assert not DeckRegistration.objects.exists()


def test_a_ydk_file_with_a_line_that_is_not_a_passcode_is_refused(demo_event: Event) -> None:
    upload = DeckInput(file_name="deck.ydk", file_data=b"46986414\nBlue-Eyes\n")
    with pytest.raises(ServiceError) as err:
        services.submit_deck(first(demo_event), upload, by=PlayerSelf(first(demo_event)))
    assert (err.value.problem.code, err.value.problem.params["line"]) == ("deck-unreadable", 2)
    assert not DeckRegistration.objects.exists()


def test_a_ydk_file_of_bare_passcodes_is_the_main_deck(demo_event: Event) -> None:
    upload = DeckInput(file_name="deck.ydk", file_data=b"46986414\n46986414\n")
    reg = services.submit_deck(first(demo_event), upload, by=PlayerSelf(first(demo_event)))
    assert reg.main == [46986414, 46986414] and reg.format == "ydk"


def test_a_shift_jis_text_file_is_read(demo_event: Event) -> None:
    upload = DeckInput(file_name="デッキ.txt", file_data=LEGAL_SHEET.encode("cp932"))
    reg = services.submit_deck(first(demo_event), upload, by=PlayerSelf(first(demo_event)))
    assert reg.legal and reg.source_name == "デッキ.txt"


def test_mixed_languages_are_recorded_and_flagged_for_the_desk(demo_event: Event) -> None:  # DECK-8
    players = list(demo_event.players.order_by("id"))
    mixed = services.submit_deck(
        players[0], DeckInput(text=LEGAL_SHEET, languages=("ja", "en")), by=PlayerSelf(players[0])
    )
    plain = services.submit_deck(players[1], DeckInput(text=LEGAL_SHEET, languages=("ja",)), by=PlayerSelf(players[1]))
    assert mixed.languages == ["ja", "en"] and mixed.mixed_languages
    assert mixed.legal  # a flag for the desk, not a deck problem
    assert plain.languages == ["ja"] and not plain.mixed_languages
    assert overview.counts(overview.deck_overview(demo_event))["mixed_languages"] == 1


def test_no_language_declared_means_japanese_cards(demo_event: Event) -> None:
    reg = services.submit_deck(
        first(demo_event), DeckInput(text=LEGAL_SHEET, languages=("xx",)), by=PlayerSelf(first(demo_event))
    )
    assert reg.languages == ["ja"] and not reg.mixed_languages


def test_the_organizer_sees_who_has_no_legal_list(demo_event: Event) -> None:
    a, b, c, d = demo_event.players.order_by("id")
    services.submit_deck(a, DeckInput(text=LEGAL_SHEET), by=PlayerSelf(a))
    services.submit_deck(b, DeckInput(text=FORBIDDEN_SHEET), by=PlayerSelf(b))
    chase = {row.player.pk: row.status for row in overview.missing_or_illegal(demo_event)}
    assert chase == {b.pk: "illegal", c.pk: "missing", d.pk: "missing"}
    assert overview.counts(overview.deck_overview(demo_event)) == {
        "players": 4,
        "legal": 1,
        "illegal": 1,
        "missing": 2,
        "mixed_languages": 0,
    }


def test_staff_submit_on_a_players_behalf(demo_event: Event, organizer: User) -> None:
    reg = services.submit_deck(first(demo_event), DeckInput(text=LEGAL_SHEET), by=Staff(organizer))
    assert reg.submitted_by == organizer
    assert AuditEntry.objects.get(action="taikai.deck.submitted").actor == organizer


def test_someone_who_is_not_staff_cannot_submit_for_a_player(demo_event: Event) -> None:
    stranger = get_user_model().objects.create_user("stranger", password="x" * 12)
    with pytest.raises(ServiceError) as err:
        services.submit_deck(first(demo_event), DeckInput(text=LEGAL_SHEET), by=Staff(stranger))
    assert err.value.problem.code == "not-staff"


# --- DECK-9: one list, locked at the deadline, then only a judge changes it, with a reason ------------


def past_deadline(event: Event) -> Event:
    Event.objects.filter(pk=event.pk).update(deck_deadline=timezone.now() - dt.timedelta(minutes=1))
    return Event.objects.get(pk=event.pk)


def test_the_list_locks_at_the_deadline(demo_event: Event, organizer: User) -> None:  # DECK-9
    player = first(demo_event)
    services.submit_deck(player, DeckInput(text=LEGAL_SHEET), by=PlayerSelf(player))
    event = past_deadline(demo_event)
    player.refresh_from_db()
    assert lock.is_locked(event)
    for by in (PlayerSelf(player), Staff(organizer)):
        with pytest.raises(ServiceError) as err:
            services.submit_deck(player, DeckInput(text=FORBIDDEN_SHEET), by=by)
        assert err.value.problem.code == "deck-locked"
    assert DeckRegistration.objects.get(player=player).locked_at is None  # locked by the clock; nothing wrote yet
    assert lock.lock_due(event) == 1  # the round receivers and `taikai deck lock-due` call this
    reg = DeckRegistration.objects.get(player=player)
    assert reg.locked_at == event.deck_deadline and reg.legal and reg.version == 1
    assert AuditEntry.objects.get(action="taikai.deck.locked").actor_label == "deadline"


def test_before_the_deadline_the_list_is_open(demo_event: Event) -> None:
    Event.objects.filter(pk=demo_event.pk).update(deck_deadline=timezone.now() + dt.timedelta(hours=1))
    event = Event.objects.get(pk=demo_event.pk)
    assert not lock.is_locked(event)
    assert services.submit_deck(
        event.players.first(), DeckInput(text=LEGAL_SHEET), by=PlayerSelf(event.players.first())
    ).legal


def test_with_no_deadline_the_list_locks_when_the_first_round_starts(demo_event: Event, organizer: User) -> None:
    player = first(demo_event)
    services.submit_deck(player, DeckInput(text=LEGAL_SHEET), by=PlayerSelf(player))
    rnd = round_services.pair_next_round(demo_event, by=Staff(organizer))
    assert not lock.is_locked(demo_event)  # paired, not started
    clock_services.start_round(rnd, by=Staff(organizer))
    assert lock.is_locked(demo_event)
    with pytest.raises(ServiceError):
        services.submit_deck(player, DeckInput(text=FORBIDDEN_SHEET), by=PlayerSelf(player))


def test_staff_can_lock_the_lists_early(demo_event: Event, organizer: User) -> None:
    services.submit_deck(first(demo_event), DeckInput(text=LEGAL_SHEET), by=PlayerSelf(first(demo_event)))
    assert lock.lock_decks(demo_event, by=Staff(organizer)) == 1
    assert lock.is_locked(demo_event)
    entry = AuditEntry.objects.get(action="taikai.deck.locked")
    assert entry.actor == organizer and entry.data["manual"] is True


def test_after_the_lock_a_judge_changes_the_list_with_a_reason(demo_event: Event, organizer: User) -> None:
    player = first(demo_event)
    reg = services.submit_deck(player, DeckInput(text=FORBIDDEN_SHEET), by=PlayerSelf(player))
    event = past_deadline(demo_event)
    reg = DeckRegistration.objects.select_related("event", "player").get(pk=reg.pk)
    judge = get_user_model().objects.create_user("judge1", password="x" * 12)
    StaffRole.objects.create(event=event, user=judge, role=StaffRole.Role.JUDGE)
    with pytest.raises(ServiceError) as err:
        services.judge_change_deck(reg, by=Staff(judge), deck=DeckInput(text=LEGAL_SHEET), reason="  ")
    assert err.value.problem.code == "reason-required"
    changed = accepted(
        services.judge_change_deck(
            reg,
            by=Staff(judge),
            deck=DeckInput(text=LEGAL_SHEET),
            reason="強欲な壺をサイクロンに（デッキチェックで発見）",
        )
    )
    assert changed.legal and changed.version == 2 and changed.locked_at is not None
    entry = AuditEntry.objects.get(action="taikai.deck.judge_changed")
    assert entry.actor == judge and entry.data["reason"].startswith("強欲な壺")
    assert entry.before["legal"] is False and entry.after["legal"] is True
    assert 55144522 in entry.before["main"] and 55144522 not in entry.after["main"]


def test_only_a_judge_changes_a_locked_list(demo_event: Event) -> None:  # DECK-9
    reg = services.submit_deck(first(demo_event), DeckInput(text=LEGAL_SHEET), by=PlayerSelf(first(demo_event)))
    past_deadline(demo_event)
    reg = DeckRegistration.objects.select_related("event", "player").get(pk=reg.pk)
    stranger = get_user_model().objects.create_user("stranger", password="x" * 12)
    for by in (PlayerSelf(reg.player), Staff(stranger)):
        with pytest.raises(ServiceError) as err:
            services.judge_change_deck(reg, by=by, deck=DeckInput(text=SHORT_SHEET), reason="r")
        assert err.value.problem.code == "not-judge"
    assert DeckRegistration.objects.get(pk=reg.pk).version == 1


# --- the event's own copy of the F/L list -------------------------------------------------------


def test_later_imports_of_the_list_do_not_change_the_event(demo_event: Event) -> None:
    player = first(demo_event)
    services.submit_deck(player, DeckInput(text=FORBIDDEN_SHEET), by=PlayerSelf(player))
    import_banlists([ParsedList("OCG 2026.7 (demo excerpt)", {})], source="an edited list")
    again = services.submit_deck(player, DeckInput(text=FORBIDDEN_SHEET), by=PlayerSelf(player))
    assert codes(again) == ["forbidden"]
    assert Banlist.objects.filter(frozen=True).count() == 1
    assert AuditEntry.objects.filter(action="taikai.deck.banlist_frozen").count() == 1


def test_staff_choose_the_list_and_every_deck_is_checked_again(demo_event: Event, organizer: User) -> None:
    player = first(demo_event)
    assert codes(services.submit_deck(player, DeckInput(text=FORBIDDEN_SHEET), by=PlayerSelf(player))) == ["forbidden"]
    import_banlists([ParsedList("no-list", {})], source="test")
    services.choose_banlist(demo_event, "no-list", by=Staff(organizer))
    reg = DeckRegistration.objects.get(player=player)
    assert reg.legal and reg.banlist.name == "no-list" and reg.banlist.frozen
    with pytest.raises(ServiceError) as err:
        services.choose_banlist(demo_event, "nope", by=Staff(organizer))
    assert err.value.problem.code == "unknown-banlist"
