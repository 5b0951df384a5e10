"""A whole Swiss + top-cut event run through the command line and the API alone (issue 17): accounts and
tokens from `taikai`, then the event, its staff, players, check-in, rounds, results, a head judge's DQ during
a match, the top cut and the final placings."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from taikai.cli import main
from taikai.events.models import Event
from taikai.events.services.placings import placings_for
from tests.factories import Api

pytestmark = pytest.mark.django_db

A_WINS = {"duels": [{"winner": "A"}, {"winner": "A"}]}
B_WINS = {"duels": [{"winner": "B"}, {"winner": "B"}]}
NAMES = ["山田 太郎", "佐藤 花子", "鈴木 一郎", "高橋 美咲", "Alice Smith", "Bob Jones", "田中 健", "伊藤 さくら"]


def taikai(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the command; its last line of standard output (the password or the token)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out.strip().splitlines()[-1]


def _winner_side(match: dict[str, Any]) -> str:
    # A fixed, checkable rule: the player registered first wins.
    return "a" if int(match["player_a"]["id"]) < int(match["player_b"]["id"]) else "b"


def _play(api: Api, eid: str, number: int, skip: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    matches = api.get(f"/events/{eid}/rounds/{number}/matches").json()["items"]
    for m in matches:
        if m["is_bye"] or m["status"] == "confirmed" or m["id"] in skip:
            continue
        r = api.post(f"/events/{eid}/matches/{m['id']}/result", A_WINS if _winner_side(m) == "a" else B_WINS)
        assert r.status_code == 200, r.content
    played: list[dict[str, Any]] = api.get(f"/events/{eid}/rounds/{number}/matches").json()["items"]
    return played


def _create_event(boss: Api) -> str:
    # The event: a site token creates it; bad values get the page form's code and message.
    bad = boss.post(
        "/events",
        {"name": "x", "date": "2027-03-14", "ruleset": "harajuku-cs-1.2", "format": "swiss_cut", "swiss_rounds": 99},
    )
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "max_value"
    assert bad.json()["error"]["params"]["field"] == "swiss_rounds" and "30" in bad.json()["error"]["message"]
    assert (
        boss.post("/events", {"name": "x", "date": "14/03", "ruleset": "harajuku-cs-1.2", "format": "swiss"}).json()[
            "error"
        ]["code"]
        == "invalid"
    )
    r = boss.post(
        "/events",
        {
            "name": "API 杯",
            "date": "2027-03-14",
            "venue": "原宿",
            "ruleset": "harajuku-cs-1.2",
            "format": "swiss_cut",
            "swiss_rounds": 3,
            "top_cut": 4,
        },
    )
    assert r.status_code == 201, r.content
    eid: str = r.json()["id"]
    assert isinstance(eid, str) and r.json()["format"] == "swiss_cut" and r.json()["status"] == "registration"
    return eid


def _staff(client: Client, capsys: pytest.CaptureFixture[str], boss: Api, eid: str) -> tuple[Api, Api]:
    # Staff: exactly one head judge (PEN-6).
    assert boss.post(f"/events/{eid}/staff", {"username": "head", "role": "head_judge"}).status_code == 201
    assert boss.post(f"/events/{eid}/staff", {"username": "floor", "role": "judge"}).status_code == 201
    second = boss.post(f"/events/{eid}/staff", {"username": "helper", "role": "head_judge"})
    assert second.status_code == 409 and second.json()["error"]["code"] == "head-judge-exists"
    assert boss.post(f"/events/{eid}/staff", {"username": "helper", "role": "judge"}).status_code == 201
    assert client.delete(f"/api/v1/events/{eid}/staff/helper", headers=boss.headers()).status_code == 204
    staff = {row["username"]: row["role"] for row in boss.get(f"/events/{eid}/staff").json()["items"]}
    assert staff == {"boss": "organizer", "head": "head_judge", "floor": "judge"}
    head = Api(client, token=taikai(capsys, "token", "create", "head", "--event", eid))
    floor = Api(client, token=taikai(capsys, "token", "create", "floor", "--event", eid))
    return head, floor


def _players(boss: Api, eid: str) -> None:
    # Players and check-in.
    ids, links = [], {}
    for i, name in enumerate(NAMES):
        r = boss.post(f"/events/{eid}/players", {"name": name, "card_game_id": f"{3000000000 + i}"})
        assert r.status_code == 201, r.content
        r = boss.post(f"/events/{eid}/players/{r.json()['id']}/check-in", {})
        ids.append(r.json()["player"]["id"])
        links[r.json()["player"]["id"]] = r.json()["player_token"]


def _round_one_undone_then_played(client: Client, boss: Api, eid: str) -> None:
    # Round 1, paired by mistake and undone while it has no result, then paired again and played.
    assert boss.post(f"/events/{eid}/rounds").status_code == 201
    assert client.delete(f"/api/v1/events/{eid}/rounds/1", headers=boss.headers()).status_code == 204
    event = boss.get(f"/events/{eid}").json()
    assert event["rounds"] == 0 and event["status"] == "registration"
    assert boss.post(f"/events/{eid}/rounds").status_code == 201
    _play(boss, eid, 1)
    refused = client.delete(f"/api/v1/events/{eid}/rounds/1", headers=boss.headers())
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "undo-result-in"


def _round_two_with_a_dq(boss: Api, head: Api, floor: Api, eid: str) -> str:
    """The player disqualified."""
    # Round 2: a head judge disqualifies a player during their match (PEN-6).
    assert boss.post(f"/events/{eid}/rounds").status_code == 201
    assert boss.post(f"/events/{eid}/rounds/2/clock/start", {}).status_code == 200
    matches = boss.get(f"/events/{eid}/rounds/2/matches").json()["items"]
    table = next(m for m in matches if not m["is_bye"])
    cheat: str = table["player_a"]["id"] if _winner_side(table) == "a" else table["player_b"]["id"]  # would have won
    dq = {"player": cheat, "infraction": "INF-1", "rung": "dq", "reason": "marked cards", "match": table["id"]}
    for api in (floor, boss):  # PEN-6: a floor judge and an organizer who is not the head judge may not
        r = api.post(f"/events/{eid}/penalties", dq)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not-head-judge"
    r = head.post(f"/events/{eid}/penalties", dq)
    assert r.status_code == 201, r.content
    effects = r.json()["effects"]
    assert effects["disqualified"] is True and effects["dropped"] is True
    assert r.json()["rung"] == "dq" and r.json()["player"]["id"] == cheat
    listed = floor.get(f"/events/{eid}/penalties").json()["items"]
    assert [p["id"] for p in listed] == [r.json()["id"]]
    # The DQ'd player's table: the opponent wins (staff enter it unless the penalty already decided it).
    now = boss.get(f"/events/{eid}/matches/{table['id']}").json()
    if now["status"] != "confirmed":
        loser_is_a = table["player_a"]["id"] == cheat
        assert (
            boss.post(f"/events/{eid}/matches/{table['id']}/result", B_WINS if loser_is_a else A_WINS).status_code
            == 200
        )
    return cheat


def _top_cut(boss: Api, eid: str) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]], dict[str, Any]]:
    """(the Swiss standings, the four cut, the semifinals, the final), played."""
    # The top cut: the best four of the Swiss standings who are still in, then the elimination rounds.
    standings = boss.get(f"/events/{eid}/standings").json()["items"]
    cut = [row["player"]["id"] for row in standings if not row["dropped"]][:4]
    r = boss.post(f"/events/{eid}/rounds")
    assert r.status_code == 201 and r.json()["stage"] == "elimination"
    semis = _play(boss, eid, 4)
    assert {p["id"] for m in semis for p in (m["player_a"], m["player_b"])} == set(cut)
    assert boss.post(f"/events/{eid}/rounds").status_code == 201
    final = _play(boss, eid, 5)[0]
    assert boss.post(f"/events/{eid}/rounds").json()["error"]["code"] == "all-rounds-played"
    return standings, cut, semis, final


def test_a_swiss_and_top_cut_event_runs_through_the_cli_and_the_api(
    client: Client, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    # Accounts and tokens: the command line.
    taikai(capsys, "user", "create", "boss", "--organizer")
    for name in ("head", "floor", "helper"):
        taikai(capsys, "user", "create", name)
    boss = Api(client, token=taikai(capsys, "token", "create", "boss"))
    eid = _create_event(boss)
    head, floor = _staff(client, capsys, boss, eid)
    _players(boss, eid)
    _round_one_undone_then_played(client, boss, eid)
    cheat = _round_two_with_a_dq(boss, head, floor, eid)
    _play(boss, eid, 2)
    assert boss.post(f"/events/{eid}/rounds").status_code == 201
    _play(boss, eid, 3)
    assert boss.get(f"/events/{eid}/rounds/3").json()["open_tables"] == 0

    standings, cut, semis, final = _top_cut(boss, eid)

    # Final placings: champion, finalist, both semifinal losers, the rest by Swiss standings, the DQ last.
    side = _winner_side(final)
    champion = final["player_a" if side == "a" else "player_b"]["id"]
    finalist = final["player_b" if side == "a" else "player_a"]["id"]
    semi_losers = {m["player_b" if _winner_side(m) == "a" else "player_a"]["id"] for m in semis}
    rest = [row["player"]["id"] for row in standings if row["player"]["id"] not in set(cut) | {cheat}]
    placings = placings_for(Event.objects.get(pk=int(eid)))
    order = [str(row.player_id) for row in placings]
    assert order[:2] == [champion, finalist]
    assert set(order[2:4]) == semi_losers and [row.rank for row in placings[2:4]] == [3, 3]
    assert order[4:-1] == rest
    assert order[-1] == cheat and placings[-1].disqualified
    assert not any(row.disqualified for row in placings[:-1])
