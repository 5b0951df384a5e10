"""A new tiebreaker is one core function and its label (docs/architecture.md, "Four changes a new engineer
makes"): registered here by monkeypatching the registry and the label only, it is on the standings page, the
CSV, the API and the player's path, in the ruleset's order."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.core import tiebreakers
from taikai.core.ruleset import builtin
from taikai.core.tiebreakers import Record, Rules, Shown, Tiebreaker, Values
from taikai.events import ruleset_words
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def opponents_points(records: Sequence[Record], ruleset: Rules, seed: int | str) -> Values:
    """A made-up tiebreaker: the sum of the real opponents' match points (a Buchholz score)."""
    return Values([sum(records[o].points for o in r.opponents) for r in records])


@pytest.fixture
def event(organizer: User, monkeypatch: pytest.MonkeyPatch) -> Event:
    monkeypatch.setitem(tiebreakers.TIEBREAKERS, "opp_points", Tiebreaker(opponents_points, Shown.NUMBER))
    monkeypatch.setitem(ruleset_words.TIEBREAKER_LABELS, "opp_points", "Opp. points")
    doc = builtin("harajuku-cs-1.2").to_dict()
    doc["standings"]["tiebreakers"] = ["match_points", "opp_points", "omw", "oomw", "random"]
    event = make_event(organizer, 4, ruleset_document=doc)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    for m in rnd.matches.all():
        result_services.enter_result(m, by=Staff(organizer), result=ResultInput(({"winner": "A"}, {"winner": "A"})))
    return event


def test_the_new_tiebreaker_is_a_column_of_the_standings_page(event: Event) -> None:
    page = Client().get(f"/e/{event.pk}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    head = page.split("<thead>")[1].split("</thead>")[0]
    assert head.index("Opp. points") < head.index("OMW%") < head.index("OOMW%")  # the ruleset's order
    win = event.ruleset.scoring.win
    rows = page.split("<tbody>")[1].split("</tbody>")[0].split("</tr>")
    # the two winners met players with 0 points, the two losers winners with `win` each
    assert all(f'<td class="num">{win}</td><td class="num">1-0-0</td><td class="num">0</td>' in r for r in rows[:2])
    assert all(f'<td class="num">0</td><td class="num">0-1-0</td><td class="num">{win}</td>' in r for r in rows[2:4])


def test_the_new_tiebreaker_is_a_column_of_the_csv(event: Event, organizer: User) -> None:
    staff = Client()
    staff.force_login(organizer)
    text = staff.get(f"/events/{event.pk}/standings.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    header = next(csv.reader(io.StringIO(text)))
    assert header[header.index("draws") + 1 : header.index("code")] == ["opp_points", "omw", "oomw"]
    win = event.ruleset.scoring.win
    assert sorted(int(r["opp_points"]) for r in rows) == [0, 0, win, win]


def test_the_new_tiebreaker_is_in_the_api_and_the_old_fields_stay(event: Event) -> None:
    items = Client().get(f"/api/v1/events/{event.pk}/standings").json()["items"]
    assert [t["name"] for t in items[0]["tiebreakers"]] == ["opp_points", "omw", "oomw"]
    win = event.ruleset.scoring.win
    assert sorted(i["tiebreakers"][0]["value"] for i in items) == ["0/1", "0/1", f"{win}/1", f"{win}/1"]
    assert all(i["tiebreakers"][1]["value"] == i["omw"] and i["omw_percent"] for i in items)


def test_the_new_tiebreaker_is_on_the_players_path(event: Event) -> None:
    loser = event.players.order_by("pk").last()
    page = Client().get(f"/e/{event.pk}/players/{loser.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Opp. points" in page and "OMW%" in page
