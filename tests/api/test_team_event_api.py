"""A team event run end to end over the API alone (issue 23, finding 11): teams registered with new players
and formed from registered ones, a seat changed, team rounds paired from a seed, a member's DQ becoming the
team's (PEN-4, CS 1.1), and the team standings, the teams list and the prizes saying so."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.core.rungs import RUNGS
from taikai.events.actors import Staff, System
from taikai.events.models import Event
from taikai.tokens.services import create_site_token, create_token
from tests.factories import Api, staff_user

pytestmark = pytest.mark.django_db

A_WINS = {"duels": [{"winner": "A"}, {"winner": "A"}]}
B_WINS = {"duels": [{"winner": "B"}, {"winner": "B"}]}


def _cgid(team: int, seat: int) -> str:
    return f"{4000000000 + team * 10 + seat}"


def _members(team: int) -> list[dict[str, str]]:
    return [{"name": f"チーム{team}の{s}", "card_game_id": _cgid(team, i)} for i, s in enumerate("ABC")]


def _play(api: Api, eid: str, number: int, skip: frozenset[str] = frozenset()) -> None:
    """Every open seat: the player registered first wins."""
    for m in api.get(f"/events/{eid}/rounds/{number}/matches?limit=100").json()["items"]:
        if m["is_bye"] or m["status"] == "confirmed" or m["id"] in skip:
            continue
        a_first = int(m["player_a"]["id"]) < int(m["player_b"]["id"])
        r = api.post(f"/events/{eid}/matches/{m['id']}/result", A_WINS if a_first else B_WINS)
        assert r.status_code == 200, r.content


def _event(client: Client, organizer: User) -> tuple[Api, Api, str]:
    _row, site = create_site_token(by=System("test"), username=organizer.username)
    boss = Api(client, token=site)
    r = boss.post(
        "/events",
        {
            "name": "チーム戦 API 杯",
            "date": "2027-03-14",
            "ruleset": "harajuku-cs-1.2",
            "format": "swiss",
            "swiss_rounds": 2,
            "is_team_event": True,
        },
    )
    assert r.status_code == 201, r.content
    eid = r.json()["id"]
    event = Event.objects.get(pk=eid)
    staff_user(organizer, event, "head", "head_judge")
    _row, token = create_token(event, by=Staff(organizer), username="head", role="head_judge")
    return boss, Api(client, token=token), eid


def _teams(boss: Api, eid: str) -> tuple[str, list[str]]:
    """Four teams of three, checked in: (the id of チーム2, the players it was formed from; the third left its seat)."""
    # Teams: two registered with new players, one formed from players registered first.
    for t in (0, 1):
        r = boss.post(f"/events/{eid}/teams", {"name": f"チーム{t}", "members": _members(t)})
        assert r.status_code == 201, r.content
        assert [m["seat"] for m in r.json()["members"]] == ["A", "B", "C"]
    loose = [boss.post(f"/events/{eid}/players", m).json()["id"] for m in _members(2)]
    r = boss.post(f"/events/{eid}/teams", {"name": "チーム2", "players": loose})
    assert r.status_code == 201, r.content
    team2 = r.json()["id"]
    assert [m["id"] for m in r.json()["members"]] == loose
    # A seat changes hands before round 1: the player now in seat C is a new registration.
    sub = boss.post(f"/events/{eid}/players", {"name": "補欠", "card_game_id": _cgid(2, 9)}).json()
    left = boss.get(f"/events/{eid}/players?limit=100").json()["items"]
    leaving = next(p for p in left if p["id"] == loose[2])
    assert leaving["team"] == team2 and leaving["seat"] == "C"
    r = boss.put(f"/events/{eid}/players/{loose[2]}/team", {"team": None, "version": leaving["version"]})
    assert r.status_code == 200 and r.json()["team"] is None
    r = boss.put(f"/events/{eid}/players/{sub['id']}/team", {"team": team2, "seat": "C"})
    assert r.status_code == 200 and (r.json()["team"], r.json()["seat"]) == (team2, "C")
    assert boss.post(f"/events/{eid}/teams", {"name": "チーム3", "members": _members(3)}).status_code == 201
    for p in boss.get(f"/events/{eid}/players?limit=100").json()["items"]:
        if p["team"] is not None:
            assert boss.post(f"/events/{eid}/players/{p['id']}/check-in", {}).status_code == 200
    return team2, loose


def test_pen_4_a_team_event_runs_over_the_api_and_a_members_dq_is_the_teams(client: Client, organizer: User) -> None:
    # PEN-4 (CS 1.1): a member's DQ or worse is the whole team's.
    boss, head, eid = _event(client, organizer)

    team2, loose = _teams(boss, eid)

    # Round 1: teams paired as units, seat against seat.
    r = boss.post(f"/events/{eid}/rounds", {"seed": "23"})
    assert r.status_code == 201 and r.json()["seed"] == "23" and r.json()["tables"] == 6  # 2 team tables × 3 seats
    _play(boss, eid, 1)
    # Teams are fixed once round 1 is paired.
    late = boss.put(f"/events/{eid}/players/{loose[2]}/team", {"team": team2, "seat": "C"})
    assert late.status_code == 400 and late.json()["error"]["code"] == "teams-fixed"

    # Round 2: the head judge disqualifies one member during the round (PEN-4).
    assert boss.post(f"/events/{eid}/rounds", {}).status_code == 201
    assert boss.post(f"/events/{eid}/rounds/2/clock/start", {}).status_code == 200
    teams = {t["name"]: t for t in boss.get(f"/events/{eid}/teams").json()["items"]}
    cheat = teams["チーム2"]["members"][0]["id"]
    table = next(
        m
        for m in boss.get(f"/events/{eid}/rounds/2/matches").json()["items"]
        if cheat in (m["player_a"]["id"], (m["player_b"] or {}).get("id"))
    )
    dq = {"player": cheat, "infraction": "INF-1", "rung": "dq", "reason": "marked cards", "match": table["id"]}
    r = head.post(f"/events/{eid}/penalties", dq)
    assert r.status_code == 201, r.content
    assert r.json()["effects"]["disqualified"] is True

    members = {m["id"] for m in teams["チーム2"]["members"]}
    dqs = [p for p in head.get(f"/events/{eid}/penalties").json()["items"] if p["player"]["id"] in members]
    assert sorted(p["player"]["id"] for p in dqs) == sorted(members)  # each member has the team's DQ
    assert {p["rung"] for p in dqs} == {"dq"}
    teams = {t["name"]: t for t in boss.get(f"/events/{eid}/teams").json()["items"]}
    assert teams["チーム2"]["dropped_after_round"] == 2
    assert all(t["dropped_after_round"] is None for name, t in teams.items() if name != "チーム2")

    seats = [
        m
        for m in boss.get(f"/events/{eid}/rounds/2/matches").json()["items"]
        if members & {m["player_a"]["id"], (m["player_b"] or {}).get("id")}
    ]
    # PEN-1 with PEN-4: every seat of the team's table is lost, not only the disqualified member's.
    assert len(seats) == 3 and all(m["status"] == "confirmed" for m in seats)
    assert all(m["result"] == ("b" if m["player_a"]["id"] in members else "a") for m in seats)
    _play(boss, eid, 2)
    standings = boss.get(f"/events/{eid}/team-standings").json()["items"]
    assert sorted(row["name"] for row in standings) == ["チーム0", "チーム1", "チーム2", "チーム3"]


def test_a_team_cannot_be_formed_twice_from_one_player_or_outside_a_team_event(client: Client, organizer: User) -> None:
    boss, _head, eid = _event(client, organizer)
    ids = [boss.post(f"/events/{eid}/players", m).json()["id"] for m in _members(5)]
    assert boss.post(f"/events/{eid}/teams", {"name": "一", "players": ids}).status_code == 201
    boss.lang = "ja"
    again = boss.post(f"/events/{eid}/teams", {"name": "二", "players": ids})
    assert again.status_code == 400 and again.json()["error"]["code"] == "player-has-team"
    assert "すでにチーム" in again.json()["error"]["message"]
    both = boss.post(f"/events/{eid}/teams", {"name": "三", "players": ids, "members": _members(6)})
    assert both.status_code == 400 and both.json()["error"]["code"] == "team-members-or-players"
    taken = boss.post(f"/events/{eid}/players", {"name": "x", "card_game_id": _cgid(7, 0)}).json()
    team = boss.get(f"/events/{eid}/teams").json()["items"][0]["id"]
    r = boss.put(f"/events/{eid}/players/{taken['id']}/team", {"team": team, "seat": "A"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "seat-taken"
    stale = boss.put(f"/events/{eid}/players/{taken['id']}/team", {"team": None, "version": taken["version"] + 5})
    assert stale.status_code == 409 and stale.json()["error"]["params"]["version"] == taken["version"]

    solo = Api(boss.client, token=boss.token)
    r = solo.post("/events", {"name": "個人戦", "date": "2027-03-14", "ruleset": "harajuku-cs-1.2", "format": "swiss"})
    r = solo.post(f"/events/{r.json()['id']}/teams", {"name": "x", "members": _members(8)})
    assert r.status_code == 400 and r.json()["error"]["code"] == "not-team-event"


def test_an_incomplete_team_is_not_paired(client: Client, organizer: User) -> None:
    boss, _head, eid = _event(client, organizer)
    for t in (0, 1):
        assert boss.post(f"/events/{eid}/teams", {"name": f"チーム{t}", "members": _members(t)}).status_code == 201
    member = boss.get(f"/events/{eid}/teams").json()["items"][0]["members"][1]
    assert boss.put(f"/events/{eid}/players/{member['id']}/team", {"team": None}).status_code == 200
    for p in boss.get(f"/events/{eid}/players").json()["items"]:
        boss.post(f"/events/{eid}/players/{p['id']}/check-in", {})
    r = boss.post(f"/events/{eid}/rounds", {})
    assert r.status_code == 400 and r.json()["error"]["code"] == "team-incomplete"
    assert r.json()["error"]["params"]["team"] == "チーム0"


def test_the_rung_description_names_every_rung_of_the_ladder(client: Client) -> None:
    # PEN-1: the server accepts the 8 rungs; the schema's description is drawn from the same list.
    schema = Api(client).get("/openapi.json").json()
    rung = schema["components"]["schemas"]["PenaltyIn"]["properties"]["rung"]
    assert all(f"`{name}`" in rung["description"] for name in RUNGS) and len(RUNGS) == 8
