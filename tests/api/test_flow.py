"""A small event followed through the API alone: register, check in, pair, report and confirm, standings."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event
from tests.factories import Api

WIN_A = {"duels": [{"winner": "A"}, {"winner": "A"}]}
WIN_B = {"duels": [{"winner": "B"}, {"winner": "A"}, {"winner": "B"}]}


def _register_four(api: Api, event_id: int) -> dict[str, str]:
    tokens = {}
    for i, name in enumerate(["山田 太郎", "佐藤 花子", "Alice Smith", "Bob Jones"]):
        r = api.post(f"/events/{event_id}/players", {"name": name, "card_game_id": f"{2000000000 + i}"})
        assert r.status_code == 201, r.content
        player = r.json()
        assert player["name"] == name and player["checked_in"] is False
        r = api.post(f"/events/{event_id}/players/{player['id']}/check-in", {})
        assert r.status_code == 200, r.content
        assert r.json()["player"]["checked_in"] is True
        tokens[player["id"]] = r.json()["player_token"]
    return tokens


def _play_round(api: Api, event_id: int, number: int, tokens: dict[str, str]) -> None:
    r = api.post(f"/events/{event_id}/rounds")
    assert r.status_code == 201, r.content
    assert r.json()["number"] == number and r.json()["tables"] == 2
    assert api.post(f"/events/{event_id}/rounds/{number}/clock/start", {}).status_code == 200
    matches = api.get(f"/events/{event_id}/rounds/{number}/matches").json()["items"]
    first, second = matches
    # Table 1: both players report through their own links (END-4: the opponent's matching report confirms).
    a, b = (api.as_player(tokens[first[side]["id"]]) for side in ("player_a", "player_b"))
    r = a.post(f"/events/{event_id}/matches/{first['id']}/result", {**WIN_A, "idempotency_key": f"r{number}"})
    assert r.status_code == 200 and r.json()["status"] == "reported" and r.json()["result"] == ""
    r = b.post(f"/events/{event_id}/matches/{first['id']}/confirm", {"version": r.json()["version"]})
    assert r.status_code == 200 and r.json()["status"] == "confirmed" and r.json()["result"] == "a"
    # Table 2: staff enter the slip.
    r = api.post(f"/events/{event_id}/matches/{second['id']}/result", WIN_B)
    assert r.status_code == 200 and r.json()["status"] == "confirmed" and r.json()["result"] == "b"
    assert r.json()["duels"] == {"a": 1, "b": 2, "draws": 0}


def test_a_small_event_runs_through_the_api_alone(organizer_api: Api, api_event: Event) -> None:
    eid = api_event.pk
    tokens = _register_four(organizer_api, eid)
    assert (
        organizer_api.put(f"/events/{eid}/players/{next(iter(tokens))}/archetype", {"name": "Snake-Eye"}).status_code
        == 200
    )
    for number in (1, 2):
        _play_round(organizer_api, eid, number, tokens)
    public = Api(organizer_api.client)
    rounds = public.get(f"/events/{eid}/rounds").json()
    assert [r["open_tables"] for r in rounds["items"]] == [0, 0]
    standings = public.get(f"/events/{eid}/standings").json()
    assert standings["count"] == 4
    top = standings["items"][0]
    assert top["rank"] == 1 and top["wins"] == 2 and top["points"] == 6
    assert set(top) >= {"omw", "omw_percent", "oomw", "oomw_percent", "code"}
    assert "/" in top["omw"] and top["code"]
    assert [row["points"] for row in standings["items"]] == [6, 3, 3, 0]
    event = public.get(f"/events/{eid}").json()
    assert event["status"] == "running" and event["players"] == 4 and event["rounds"] == 2
    players = public.get(f"/events/{eid}/players").json()["items"]
    assert [p["archetype"] for p in players] == [None] * 4  # declared decks stay private while the event runs
    clock = public.get(f"/events/{eid}/clock").json()
    # Every table of round 2 is confirmed: the round is finished and its clock no longer counts (as on clock.json).
    assert clock["round"] == 2 and clock["status"] == "finished" and clock["paused"] is False
    assert clock["remaining"] == 0 and clock["ends_at"] is None and clock["tables_playing"] == []


def test_a_player_drops_themself_and_staff_pause_the_clock(organizer_api: Api, api_event: Event) -> None:
    eid = api_event.pk
    tokens = _register_four(organizer_api, eid)
    pid, token = next(iter(tokens.items()))
    r = organizer_api.as_player(token).post(f"/events/{eid}/players/{pid}/drop")
    assert r.status_code == 200 and r.json()["dropped_after_round"] == 0
    assert organizer_api.post(f"/events/{eid}/rounds").status_code == 201
    assert organizer_api.post(f"/events/{eid}/rounds/1/clock/start", {}).status_code == 200
    assert organizer_api.post(f"/events/{eid}/rounds/1/clock/pause", {}).status_code == 200
    clock = organizer_api.get(f"/events/{eid}/clock").json()
    assert clock["status"] == "paused" and clock["paused"] is True and clock["ends_at"] is None
    matches = organizer_api.get(f"/events/{eid}/rounds/1/matches").json()["items"]
    assert sum(m["is_bye"] for m in matches) == 1  # three players left: one bye


def test_the_top_cut_bracket_is_public(organizer: User, client: Client) -> None:
    from taikai.tokens.services import create_token
    from tests.factories import make_event

    event = make_event(organizer, 4, format="swiss_cut", swiss_rounds=1, top_cut=2)
    _row, token = create_token(event, by=Staff(organizer), username=organizer.username, role="organizer")
    api = Api(client, token=token)
    api.post(f"/events/{event.pk}/rounds")
    for m in api.get(f"/events/{event.pk}/rounds/1/matches").json()["items"]:
        assert api.post(f"/events/{event.pk}/matches/{m['id']}/result", WIN_A).status_code == 200
    r = api.post(f"/events/{event.pk}/rounds")
    assert r.status_code == 201 and r.json()["stage"] == "elimination"
    bracket = Api(client).get(f"/events/{event.pk}/bracket").json()
    assert len(bracket["rounds"]) == 1 and len(bracket["rounds"][0]["matches"]) == 1


def test_a_player_submits_a_deck_list_through_the_api(organizer_api: Api, api_event: Event) -> None:  # DECK-9
    from taikai.decks.demo import FORBIDDEN_SHEET, LEGAL_SHEET, _demo_list_name, load_demo_cards
    from taikai.events.models import Event

    load_demo_cards()
    eid = api_event.pk
    Event.objects.filter(pk=eid).update(banlist_name=_demo_list_name())  # the demo card set's F/L list
    tokens = _register_four(organizer_api, eid)
    (pid, token), (other, _) = list(tokens.items())[:2]
    me = organizer_api.as_player(token)
    r = me.put(f"/events/{eid}/players/{pid}/deck", {"text": FORBIDDEN_SHEET})
    assert r.status_code == 200 and r.json()["legal"] is False
    assert [p["code"] for p in r.json()["problems"]] == ["forbidden"]
    r = me.put(f"/events/{eid}/players/{pid}/deck", {"text": LEGAL_SHEET, "languages": ["ja", "en"]})
    body = r.json()
    assert r.status_code == 200 and body["legal"] is True and body["counts"]["main"] == 40
    assert body["mixed_languages"] is True and body["locked"] is False
    assert me.put(f"/events/{eid}/players/{other}/deck", {"text": LEGAL_SHEET}).status_code == 403
    assert me.put(f"/events/{eid}/players/{pid}/deck", {"text": "no such card x3"}).json()["legal"] is False


def test_a_players_loop_of_deck_lists_is_refused_and_staff_are_not_limited(
    organizer_api: Api, api_event: Event
) -> None:
    """Issue 16, under attack: each deck list is a whole deck check, so a player's loop of them is refused (429,
    with Retry-After, in the caller's language) after a few; staff entering lists for players are not limited."""
    from taikai.security import rates
    from taikai.security.refusals import MARK

    eid = api_event.pk
    tokens = _register_four(organizer_api, eid)
    (pid, token), (other, _) = list(tokens.items())[:2]
    me = organizer_api.as_player(token)
    me.lang = "ja"
    sent = [
        me.put(f"/events/{eid}/players/{pid}/deck", {"text": "3 灰流うらら"})
        for _ in range(rates.DECK_PER_PLAYER.limit)
    ]
    assert all(r.status_code == 200 for r in sent)
    refused = me.put(f"/events/{eid}/players/{pid}/deck", {"text": "3 灰流うらら"})
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "too-many-requests"
    assert "待ってから" in refused.json()["error"]["message"] and int(refused["Retry-After"]) > 9 * 60
    assert refused.has_header(MARK)  # answered from memory until then, before it takes a thread
    for _ in range(rates.DECK_PER_PLAYER.limit + 1):
        assert organizer_api.put(f"/events/{eid}/players/{other}/deck", {"text": "3 灰流うらら"}).status_code == 200


def test_a_players_report_on_a_version_they_never_saw_is_409(organizer_api: Api, api_event: Event) -> None:  # END-4
    eid = api_event.pk
    tokens = _register_four(organizer_api, eid)
    assert organizer_api.post(f"/events/{eid}/rounds").status_code == 201
    first = organizer_api.get(f"/events/{eid}/rounds/1/matches").json()["items"][0]
    a, b = (organizer_api.as_player(tokens[first[side]["id"]]) for side in ("player_a", "player_b"))
    url = f"/events/{eid}/matches/{first['id']}/result"
    assert a.post(url, {**WIN_A, "version": first["version"]}).status_code == 200
    # B's client still shows the table unreported: its report, on that version, is refused with the current one.
    r = b.post(url, {**WIN_A, "version": first["version"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    now = organizer_api.get(f"/events/{eid}/matches/{first['id']}").json()
    assert now["status"] == "reported" and r.json()["error"]["params"]["version"] == now["version"]
