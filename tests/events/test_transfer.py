"""The whole event as one JSON file: export, import into an empty server, the same event back."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player
from taikai.events.services import csv_import, links, participation, recovery, registration, transfer, transfer_import
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.events.services.standings import standings_for
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def test_round_trip_reproduces_the_event(organizer: User) -> None:
    event = make_event(organizer, 7, format=Event.Format.SWISS_CUT, top_cut=4)
    for _ in range(2):
        rnd = round_services.pair_next_round(event, by=Staff(organizer))
        for m in rnd.matches.filter(is_bye=False):
            result_services.enter_result(m, by=Staff(organizer), result=ResultInput(({"winner": "A"}, {"winner": "A"})))
    participation.drop_player(event.players.last(), by=Staff(organizer))
    exported = transfer.export_event(event, by=Staff(organizer))
    copy = transfer_import.import_event(exported, by=Staff(organizer))
    assert copy.pk != event.pk
    again = transfer.export_event(copy, by=Staff(organizer))
    for key in ("event", "staff"):
        assert again[key] == exported[key]
    assert len(again["players"]) == len(exported["players"]) == 7
    assert len(again["matches"]) == len(exported["matches"])

    def strip(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [tuple(v for k, v in r.items() if not k.endswith("id")) for r in rows]

    assert strip(again["players"]) == strip(exported["players"])
    rounds_fields = [
        {k: v for k, v in r.items() if k not in ("pairing_input", "pairing_report")} for r in again["rounds"]
    ]
    rounds_before = [
        {k: v for k, v in r.items() if k not in ("pairing_input", "pairing_report")} for r in exported["rounds"]
    ]
    assert strip(rounds_fields) == strip(rounds_before)
    assert strip(again["matches"]) == strip(exported["matches"])
    old = [(r.name, r.rank, r.points, r.omw, r.oomw) for r in standings_for(event)]
    new = [(r.name, r.rank, r.points, r.omw, r.oomw) for r in standings_for(copy)]
    assert old == new
    # the stored pairing input still reproduces round 2 on the new server
    from taikai.events.services import engine

    r2 = copy.rounds.get(number=2)
    answer = engine.pair_swiss(r2.pairing_input)
    stored = {frozenset((m.player_a_id, m.player_b_id)) for m in r2.matches.filter(is_bye=False)}
    assert {frozenset(p) for p in answer["pairings"]} == stored


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"format": "other"},
        {"format": "taikai-event", "version": 2, "event": []},
        {"format": "taikai-event", "version": 1, "event": {}},
    ],
)
def test_bad_files_are_refused_and_nothing_is_written(organizer: User, data: Any) -> None:
    before = (Event.objects.count(), Player.objects.count(), Match.objects.count())
    with pytest.raises(ServiceError) as exc:
        transfer_import.import_event(data, by=Staff(organizer))
    assert exc.value.problem.code == "import-invalid"
    assert (Event.objects.count(), Player.objects.count(), Match.objects.count()) == before


def test_a_half_broken_file_leaves_nothing_behind(organizer: User) -> None:
    event = make_event(organizer, 4)
    data = transfer.export_event(event, by=Staff(organizer))
    data["players"][2]["card_game_id"] = data["players"][1]["card_game_id"]  # a duplicate: fails mid-import
    before = (Event.objects.count(), Player.objects.count())
    with pytest.raises(ServiceError):
        transfer_import.import_event(data, by=Staff(organizer))
    assert (Event.objects.count(), Player.objects.count()) == before


def test_csv_import_is_all_or_nothing(organizer: User) -> None:  # REG-1, REG-2
    event = make_event(organizer, 0)
    good = "name,card_game_id,name_kana\n山田 太郎,0000000001,やまだ たろう\nAlice,０００００００００２,\n".encode()
    created = csv_import.import_players_csv(event, by=Staff(organizer), data=good)
    assert [p.card_game_id for p in created] == ["0000000001", "0000000002"]  # full-width digits accepted
    bad = b"name,card_game_id\nBob,0000000003\nCarol,12345\n"
    with pytest.raises(ServiceError) as exc:
        csv_import.import_players_csv(event, by=Staff(organizer), data=bad)
    (row,) = exc.value.problem.params["problems"]  # every bad row, each with its line and reason
    assert row.params["line"] == 3 and row.params["inner"].code == "bad-card-game-id"
    assert event.players.count() == 2
    sjis = "name,card_game_id\n佐藤,0000000009\n".encode("cp932")
    assert len(csv_import.import_players_csv(event, by=Staff(organizer), data=sjis)) == 1


def test_card_game_id_is_ten_digits_and_once_per_event(organizer: User) -> None:  # REG-1, REG-2
    event = make_event(organizer, 0)
    for bad in ("", "123", "12345678901", "abcdefghij"):
        with pytest.raises(ServiceError):
            registration.register_player(event, by=Staff(organizer), name="x", card_game_id=bad)
    registration.register_player(event, by=Staff(organizer), name="x", card_game_id="1234-5678-90")
    with pytest.raises(ServiceError) as exc:
        registration.register_player(event, by=Staff(organizer), name="y", card_game_id="1234567890")
    assert exc.value.problem.code == "already-registered"


def test_check_in_records_the_id_card_and_gives_a_personal_link(organizer: User) -> None:  # REG-1, REG-3
    event = make_event(organizer, 1, checked_in=False)
    player = event.players.get()
    player, token = registration.check_in(player, by=Staff(organizer))
    assert player.id_card_shown and player.checked_in_at is not None
    assert links.player_for_token(token) == player
    new = links.issue_access(player, by=Staff(organizer))
    assert links.player_for_token(token) is None  # the old link stops working
    recovery.set_pin(player, pin="864213")
    _, recovered = recovery.recover_access(event, card_game_id=player.card_game_id, pin="864213")
    assert links.player_for_token(recovered) == player and links.player_for_token(new) is None
    with pytest.raises(ServiceError):
        recovery.recover_access(event, card_game_id=player.card_game_id, pin="000000")
    links.revoke_access(player, by=Staff(organizer))
    assert links.player_for_token(recovered) is None


def test_search_finds_by_id_digits_or_name(organizer: User) -> None:
    event = make_event(organizer, 8)
    assert [p.card_game_id for p in registration.search_players(event, "1000000003")] == ["1000000003"]
    assert [p.name for p in registration.search_players(event, "やまだ")] == ["山田 太郎"]
    assert [p.name for p in registration.search_players(event, "alice")] == ["Alice Smith"]
