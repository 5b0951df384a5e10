"""The organizer at the desk: registration closing, check-in as the pairing's door, player edits, the CSV
import, staff, the round clock and undo, the top cut preview and declines, the event file (the desk's pages:
test_organizer_desk_pages.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff, Visitor
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, Round, StaffRole
from taikai.events.services import clock as clock_services
from taikai.events.services import (
    csv_import,
    pairing_edits,
    participation,
    registration,
    rulings,
    transfer,
    transfer_import,
)
from taikai.events.services import events as event_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.events.services.standings import standings_for
from tests.factories import make_event

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
B_WINS = ResultInput(({"winner": "B"}, {"winner": "B"}))


def _code(exc: pytest.ExceptionInfo[ServiceError]) -> str:
    return exc.value.problem.code


def _play(event: Event, organizer: User, rnd: Round) -> None:
    for m in rnd.matches.filter(is_bye=False).order_by("table"):
        result_services.enter_result(m, by=Staff(organizer), result=A_WINS if m.table % 2 else B_WINS)


# --- registration closes -------------------------------------------------------------------------


def test_registration_closes_when_the_organizer_says(organizer: User) -> None:
    event = make_event(organizer, 4)
    event_services.close_registration(event, by=Staff(organizer))
    event.refresh_from_db()
    assert not event.registration_open
    with pytest.raises(ServiceError) as refused:
        registration.register_player(event, by=Staff(organizer), name="新人", card_game_id="1999999999")
    assert _code(refused) == "registration-closed-late-entry"
    with pytest.raises(ServiceError) as visitor:
        registration.register_player(event, by=Visitor(), name="新人", card_game_id="1999999999")
    assert _code(visitor) == "registration-closed"
    late = registration.register_player(
        event, by=Staff(organizer), name="新人", card_game_id="1999999999", late_entry=True
    )
    assert late.late_entry_round is None  # no round missed yet
    event_services.close_registration(event, by=Staff(organizer), closed=False)
    assert Event.objects.get(pk=event.pk).registration_open
    assert AuditEntry.objects.filter(event_id=event.pk, action="taikai.event.registration_closed").count() == 1


def test_pairing_round_one_closes_registration_and_a_late_entry_holds_the_missed_loss(organizer: User) -> None:
    event = make_event(organizer, 4)
    _play(event, organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    event.refresh_from_db()
    assert not event.registration_open
    with pytest.raises(ServiceError):
        event_services.close_registration(event, by=Staff(organizer), closed=False)
    late = registration.register_player(
        event, by=Staff(organizer), name="遅刻 太郎", card_game_id="1999999999", late_entry=True
    )
    registration.check_in(late, by=Staff(organizer))
    row = next(r for r in standings_for(event) if r.player_id == late.pk)
    assert (row.wins, row.losses) == (0, 1)  # the ruleset scores a missed round as a loss


def test_nobody_registers_or_checks_in_after_the_event_finished(organizer: User) -> None:
    event = make_event(organizer, 4, checked_in=False)
    waiting = event.players.first()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    for late_entry in (False, True):  # False is register_player's default
        with pytest.raises(ServiceError) as refused:
            registration.register_player(
                event, by=Staff(organizer), name="終了後", card_game_id="1999999999", late_entry=late_entry
            )
        assert _code(refused) == "event-finished"
    with pytest.raises(ServiceError):
        registration.check_in(waiting, by=Staff(organizer))


# --- who is paired --------------------------------------------------------------------------------


def test_a_player_who_never_checked_in_is_never_paired_nor_ranked(organizer: User) -> None:  # REG-3
    event = make_event(organizer, 4)
    absent = registration.register_player(event, by=Staff(organizer), name="欠席 花子", card_game_id="1888888888")
    for _ in range(2):
        rnd = round_services.pair_next_round(event, by=Staff(organizer))
        seated = set(rnd.matches.values_list("player_a_id", flat=True)) | set(
            rnd.matches.values_list("player_b_id", flat=True)
        )
        assert absent.pk not in seated and len(seated - {None}) == 4
        _play(event, organizer, rnd)
    assert absent.pk not in {r.player_id for r in standings_for(event)}


def test_checking_in_after_round_one_is_a_late_entry(organizer: User) -> None:
    event = make_event(organizer, 4)
    slow = registration.register_player(event, by=Staff(organizer), name="寝坊 次郎", card_game_id="1777777777")
    _play(event, organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    slow, _token = registration.check_in(slow, by=Staff(organizer))
    assert slow.late_entry_round == 2
    rnd2 = round_services.pair_next_round(event, by=Staff(organizer))
    assert rnd2.matches.filter(player_a=slow).exists() or rnd2.matches.filter(player_b=slow).exists()


def test_a_hand_pairing_refuses_a_player_not_checked_in(organizer: User) -> None:
    event = make_event(organizer, 4)
    absent = registration.register_player(event, by=Staff(organizer), name="欠席", card_game_id="1888888888")
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    ids = list(event.players.filter(checked_in_at__isnull=False).values_list("pk", flat=True))
    with pytest.raises(ServiceError) as refused:
        pairing_edits.edit_pairing(rnd, by=Staff(organizer), pairs=[(ids[0], absent.pk), (ids[1], ids[2])])
    assert _code(refused) == "not-checked-in"


# --- editing, deleting, un-dropping ----------------------------------------------------------------


def test_a_player_is_edited_and_the_card_game_id_stays_unique(organizer: User) -> None:
    event = make_event(organizer, 2)
    first, second = event.players.order_by("id")
    registration.update_player(first, by=Staff(organizer), name="山田 太朗", card_game_id="1234-5678-90")
    first.refresh_from_db()
    assert (first.name, first.card_game_id) == ("山田 太朗", "1234567890")
    with pytest.raises(ServiceError) as taken:
        registration.update_player(second, by=Staff(organizer), card_game_id="1234567890")
    assert _code(taken) == "already-registered"


def test_a_player_is_deleted_before_round_one_only(organizer: User) -> None:
    event = make_event(organizer, 5)
    mistake = event.players.last()
    registration.delete_player(mistake, by=Staff(organizer))
    assert not Player.objects.filter(pk=mistake.pk).exists()
    entry = AuditEntry.objects.get(event_id=event.pk, action="taikai.player.deleted")
    assert entry.before["name"] == mistake.name
    round_services.pair_next_round(event, by=Staff(organizer))
    with pytest.raises(ServiceError) as refused:
        registration.delete_player(event.players.first(), by=Staff(organizer))
    assert _code(refused) == "player-delete-after-start"


def test_a_drop_is_taken_back_until_the_next_pairing(organizer: User) -> None:
    event = make_event(organizer, 4)
    _play(event, organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    player = event.players.first()
    participation.drop_player(player, by=Staff(organizer))
    participation.undrop_player(player, by=Staff(organizer))
    assert not Player.objects.get(pk=player.pk).dropped
    participation.drop_player(player, by=Staff(organizer))
    round_services.pair_next_round(event, by=Staff(organizer))
    with pytest.raises(ServiceError) as refused:
        participation.undrop_player(player, by=Staff(organizer))
    assert _code(refused) == "undrop-too-late"


def test_a_disqualification_is_not_taken_back_at_the_desk(organizer: User) -> None:  # PEN-1
    event = make_event(organizer, 4)
    player = event.players.first()
    head = get_user_model().objects.create_user(username="head", password="head-judge-pass-2026")
    event_services.assign_staff(event, by=Staff(organizer), username="head", role="head_judge")
    rulings.disqualify_player(player, by=Staff(head))
    with pytest.raises(ServiceError) as refused:
        participation.undrop_player(player, by=Staff(organizer))
    assert _code(refused) == "undrop-disqualified"


# --- the CSV import -----------------------------------------------------------------------------


def test_every_bad_csv_row_is_reported_and_nothing_is_imported(organizer: User) -> None:  # REG-1, REG-2
    event = make_event(organizer, 1)  # 1000000000 is taken
    data = (
        "名前,ふりがな,カードゲームID,連絡先\n"
        "山田 太郎,やまだ たろう,0000000001,\n"
        ",,0000000002,\n"
        "佐藤,さとう,12345,\n"
        "鈴木,すずき,0000000001,\n"
        "高橋,,1000000000,\n"
    ).encode()
    with pytest.raises(ServiceError) as exc:
        csv_import.import_players_csv(event, by=Staff(organizer), data=data)
    rows = [(p.params["line"], p.params["inner"].code) for p in exc.value.problem.params["problems"]]
    assert rows == [(3, "required"), (4, "bad-card-game-id"), (5, "csv-duplicate"), (6, "already-registered")]
    assert event.players.count() == 1


def test_japanese_headers_and_the_template_import(organizer: User) -> None:
    event = make_event(organizer, 0)
    created = csv_import.import_players_csv(
        event, by=Staff(organizer), data=("\ufeff" + csv_import.CSV_TEMPLATE).encode()
    )
    assert [(p.name, p.name_kana, p.card_game_id) for p in created] == [("山田 太郎", "やまだ たろう", "0000000001")]


def test_the_csv_page_lists_every_bad_row_in_words(organizer: User, client: Client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    event = make_event(organizer, 0)
    client.force_login(organizer)
    upload = SimpleUploadedFile("p.csv", b"name,card_game_id\nA,1\nB,2\n", content_type="text/csv")
    page = client.post(f"/events/{event.pk}/players/import/", {"csv-file": upload}, follow=True).content.decode()
    assert "CSV 2行目" in page and "CSV 3行目" in page and "10桁" in page
    template = client.get(f"/events/{event.pk}/players/template.csv")
    assert template.content.decode("utf-8-sig").startswith("名前,ふりがな,カードゲームID,連絡先")


# --- staff ---------------------------------------------------------------------------------------


def test_staff_are_removed_and_the_last_organizer_stays(organizer: User) -> None:  # PEN-6
    event = make_event(organizer, 0)
    for name, role in (("judge1", "judge"), ("hj", "head_judge")):
        event_services.add_staff(event, by=Staff(organizer), username=name, role=role, password="long-enough-pw-42")
    event_services.remove_staff(event, by=Staff(organizer), username="judge1")
    assert not StaffRole.objects.filter(event=event, user__username="judge1").exists()
    # The head judge can be removed so that another can be named (the API's way: remove, then name).
    event_services.remove_staff(event, by=Staff(organizer), username="hj")
    assert not StaffRole.objects.filter(event=event, role="head_judge").exists()
    event_services.add_staff(event, by=Staff(organizer), username="hj", role="head_judge", password="")
    with pytest.raises(ServiceError) as last:
        event_services.remove_staff(event, by=Staff(organizer), username="organizer")
    assert _code(last) == "last-organizer"
    # Naming another head judge makes the first a judge, who can then go: still exactly one head judge.
    event_services.add_staff(
        event, by=Staff(organizer), username="hj2", role="head_judge", password="long-enough-pw-42"
    )
    event_services.remove_staff(event, by=Staff(organizer), username="hj")
    assert list(event.staff.filter(role="head_judge").values_list("user__username", flat=True)) == ["hj2"]


# --- the clock and rounds ------------------------------------------------------------------------


def test_time_is_added_taken_away_and_set_for_the_whole_round(organizer: User) -> None:  # TIME-1
    event = make_event(organizer, 4)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    limit = rnd.time_limit_seconds
    rnd = clock_services.adjust_round_time(rnd, by=Staff(organizer), seconds=300)
    assert rnd.time_limit_seconds == limit + 300
    rnd = clock_services.adjust_round_time(rnd, by=Staff(organizer), seconds=-600)
    assert rnd.time_limit_seconds == limit - 300
    rnd = clock_services.start_round(rnd, by=Staff(organizer))
    rnd = clock_services.set_remaining_time(rnd, by=Staff(organizer), seconds=10 * 60)
    assert 595 <= clock_services.round_clock(rnd).remaining <= 600
    with pytest.raises(ServiceError) as below:
        clock_services.adjust_round_time(rnd, by=Staff(organizer), seconds=-11 * 60)
    assert _code(below) == "bad-time-change"
    assert AuditEntry.objects.filter(event_id=event.pk, action="taikai.round.time_adjusted").count() == 3


def test_a_round_is_undone_until_a_result_is_in(organizer: User) -> None:
    event = make_event(organizer, 4)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    event = round_services.undo_round(rnd, by=Staff(organizer))
    assert not event.rounds.exists() and event.status == Event.Status.REGISTRATION and event.registration_open
    assert AuditEntry.objects.filter(event_id=event.pk, action="taikai.round.undone").count() == 1
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    match = rnd.matches.filter(is_bye=False).first()
    result_services.enter_result(match, by=Staff(organizer), result=A_WINS)
    with pytest.raises(ServiceError) as refused:
        round_services.undo_round(rnd, by=Staff(organizer))
    assert _code(refused) == "undo-result-in"
    assert Match.objects.filter(pk=match.pk).exists()


def test_only_the_organizer_undoes_a_round(organizer: User) -> None:
    event = make_event(organizer, 4)
    event_services.add_staff(event, by=Staff(organizer), username="j", role="judge", password="long-enough-pw-42")
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    judge = get_user_model().objects.get(username="j")
    with pytest.raises(ServiceError) as refused:
        round_services.undo_round(rnd, by=Staff(judge))
    assert _code(refused) == "not-organizer"


def test_the_top_cut_preview_and_a_decline_move_the_next_player_up(organizer: User, event8: Event) -> None:
    for _ in range(3):
        _play(event8, organizer, round_services.pair_next_round(event8, by=Staff(organizer)))
    before = round_services.top_cut_preview(event8)
    assert [s.seed for s in before.seats] == [1, 2, 3, 4]
    fifth = next(r for r in standings_for(event8) if r.player_id not in {s.player_id for s in before.seats})
    decliner = Player.objects.get(pk=before.seats[1].player_id)
    round_services.decline_top_cut(decliner, by=Staff(organizer))
    after = round_services.top_cut_preview(event8)
    assert decliner.pk not in {s.player_id for s in after.seats}
    assert after.seats[-1].player_id == fifth.player_id and after.declined == (decliner.name,)
    cut = round_services.pair_next_round(event8, by=Staff(organizer))
    assert cut.pairing_input["seeds"] == [s.player_id for s in after.seats]
    with pytest.raises(ServiceError) as outside:
        round_services.decline_top_cut(Player.objects.get(pk=fifth.player_id), by=Staff(organizer))
    assert _code(outside) == "cut-not-next"
    assert AuditEntry.objects.filter(event_id=event8.pk, action="taikai.player.top_cut_declined").count() == 1


# --- the event file ------------------------------------------------------------------------------


def test_the_prize_table_survives_export_and_import(organizer: User) -> None:
    from taikai.judging.models import PrizeRank

    event = make_event(organizer, 2)
    PrizeRank.objects.create(event=event, label="優勝", first=1, last=1)
    PrizeRank.objects.create(event=event, label="ベスト4", first=3, last=4)
    copy = transfer_import.import_event(transfer.export_event(event, by=Staff(organizer)), by=Staff(organizer))
    assert list(PrizeRank.objects.filter(event=copy).values_list("label", "first", "last")) == [
        ("優勝", 1, 1),
        ("ベスト4", 3, 4),
    ]


@pytest.mark.parametrize(
    ("data", "part"),
    [
        ({"format": "taikai-event", "version": 1}, "event"),
        ({"format": "taikai-event", "version": 1, "event": {}}, "event"),
        ({"format": "taikai-event", "version": 1, "event": {"name": "x"}, "players": "many"}, "players"),
    ],
)
def test_a_malformed_file_names_the_part_in_words(organizer: User, data: Any, part: str) -> None:
    from django.utils import translation

    from taikai.events.texts import problem_text

    with pytest.raises(ServiceError) as exc:
        transfer_import.import_event(data, by=Staff(organizer))
    assert exc.value.problem.params["part"] == part
    with translation.override("en"):
        text = problem_text(exc.value.problem)
    assert "KeyError" not in text and "the " in text and "taikai" in text
