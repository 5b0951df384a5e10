"""Editing pairings and re-pairing over the API: on the version the client read, 409 with the current one when
stale, a table with a result kept (issue 22)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Round
from taikai.events.services import registration
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from tests.factories import Api, make_event

pytestmark = pytest.mark.django_db

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))


def _paired(event: Event, organizer: User) -> Round:
    for i in range(4):
        p = registration.register_player(event, by=Staff(organizer), name=f"選手{i}", card_game_id=f"{4000000000 + i}")
        registration.check_in(p, by=Staff(organizer))
    return round_services.pair_next_round(event, by=Staff(organizer))


def _swapped(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    t1, t2 = tables
    return [
        {"a": t1["player_a"]["id"], "b": t2["player_a"]["id"]},
        {"a": t1["player_b"]["id"], "b": t2["player_b"]["id"]},
    ]


def test_an_edit_on_the_version_read_is_applied(organizer_api: Api, api_event: Event, organizer: User) -> None:
    _paired(api_event, organizer)
    url = f"/events/{api_event.pk}/rounds/1/pairings"
    read = organizer_api.get(url).json()
    answer = organizer_api.put(url, {"version": read["version"], "pairs": _swapped(read["tables"])})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["version"] != read["version"]
    assert [t["player_b"]["id"] for t in body["tables"]] == [
        read["tables"][1]["player_a"]["id"],
        read["tables"][1]["player_b"]["id"],
    ]


def test_a_stale_edit_is_409_with_the_current_version_and_changes_nothing(
    organizer_api: Api, api_event: Event, organizer: User
) -> None:
    rnd = _paired(api_event, organizer)
    url = f"/events/{api_event.pk}/rounds/1/pairings"
    read = organizer_api.get(url).json()
    table1 = Match.objects.get(round=rnd, table=1)
    result_services.report_result(table1, player=table1.player_a, result=A_WINS)  # a player reports meanwhile
    answer = organizer_api.put(url, {"version": read["version"], "pairs": _swapped(read["tables"])})
    assert answer.status_code == 409
    error = answer.json()["error"]
    now = organizer_api.get(url).json()
    assert error["code"] == "pairings-changed-results"
    assert error["params"] == {"version": now["version"], "tables": "1"}
    assert now["tables"][0]["has_result"] and now["tables"][0]["status"] == "reported"
    assert Match.objects.get(pk=table1.pk).status == Match.Status.REPORTED


def test_an_edit_that_changes_a_table_with_a_result_is_refused(
    organizer_api: Api, api_event: Event, organizer: User
) -> None:
    rnd = _paired(api_event, organizer)
    result_services.enter_result(Match.objects.get(round=rnd, table=1), by=Staff(organizer), result=A_WINS)
    url = f"/events/{api_event.pk}/rounds/1/pairings"
    read = organizer_api.get(url).json()
    answer = organizer_api.put(url, {"version": read["version"], "pairs": _swapped(read["tables"])})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "table-has-result"
    assert organizer_api.get(url).json() == read


def test_a_repair_is_made_on_the_version_read_and_refused_when_stale(
    organizer_api: Api, api_event: Event, organizer: User
) -> None:
    rnd = _paired(api_event, organizer)
    url = f"/events/{api_event.pk}/rounds/1"
    read = organizer_api.get(f"{url}/pairings").json()
    stale = organizer_api.post(f"{url}/repair", {"version": "0-000000000000"})
    assert stale.status_code == 409 and stale.json()["error"]["params"]["version"] == read["version"]
    assert Round.objects.filter(pk=rnd.pk).exists()
    done = organizer_api.post(f"{url}/repair", {"version": read["version"]})
    assert done.status_code == 200 and not Round.objects.filter(pk=rnd.pk).exists()
    new = Round.objects.get(event=api_event, number=1)
    result_services.enter_result(new.matches.filter(is_bye=False).first(), by=Staff(organizer), result=A_WINS)
    refused = organizer_api.post(f"{url}/repair", {"version": organizer_api.get(f"{url}/pairings").json()["version"]})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "repair-result-in"


def test_a_judge_cannot_edit_pairings(client: Client, organizer: User) -> None:
    from taikai.tokens.services import create_token

    event = make_event(organizer, 4)
    round_services.pair_next_round(event, by=Staff(organizer))
    from tests.factories import staff_user

    staff_user(organizer, event, "judge_p", "judge")
    _row, token = create_token(event, by=Staff(organizer), username="judge_p", role="judge")
    judge = Api(client, token=token)
    read = judge.get(f"/events/{event.pk}/rounds/1/pairings").json()
    answer = judge.put(f"/events/{event.pk}/rounds/1/pairings", {"version": read["version"], "pairs": []})
    assert answer.status_code == 403
