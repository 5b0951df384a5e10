"""Final placings shown everywhere after a top cut (issue 14.2): the event page, the standings (staff and
public), the CSV, the organizer's report, the projector, the API and the bracket.

The top cut is played so that Swiss order and placings disagree: the Swiss leader loses the final, and the
Swiss runner-up loses its semifinal, so a page still in Swiss order lists them 1st and 2nd.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.events.services.standings import standings_for
from tests.factories import make_event

pytestmark = pytest.mark.django_db

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
B_WINS_2_1 = ResultInput(({"winner": "A"}, {"winner": "B"}, {"winner": "B"}))


def cut_event(organizer: User) -> tuple[Event, list[str]]:
    """8 players, 3 Swiss rounds, a top 4; returns the event and the Swiss order's names (best first)."""
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, swiss_rounds=3, top_cut=4)
    by = Staff(organizer)
    for _ in range(3):
        rnd = round_services.pair_next_round(event, by=by)
        for m in rnd.matches.filter(is_bye=False):
            result_services.enter_result(m, by=by, result=A_WINS)
    swiss = [r.name for r in standings_for(event)]
    semis = round_services.pair_next_round(event, by=by)
    for m in semis.matches.select_related("player_a", "player_b"):
        # Seed 1 beats seed 4; seed 3 beats seed 2 (the Swiss runner-up goes out in the semifinal).
        result_services.enter_result(m, by=by, result=A_WINS if m.player_a.name == swiss[0] else B_WINS_2_1)
    final = round_services.pair_next_round(event, by=by)
    m = final.matches.select_related("player_a", "player_b").get()
    leader_is_a = m.player_a.name == swiss[0]
    result_services.enter_result(m, by=by, result=B_WINS_2_1 if leader_is_a else A_WINS)  # the leader loses
    event.refresh_from_db()
    return event, swiss


def expected_top(swiss: list[str]) -> list[str]:
    # Champion: seed 3 (beat seed 2 and the leader); runner-up: the leader; best 4: seeds 2 and 4, in seed order.
    return [swiss[2], swiss[0], swiss[1], swiss[3]]


def names_in_order(html: str, names: list[str]) -> list[str]:
    found = sorted((html.index(n), n) for n in names if n in html)
    return [n for _, n in found]


def test_the_standings_pages_list_the_runner_up_second(organizer: User, client: Client) -> None:
    event, swiss = cut_event(organizer)
    assert event.status == Event.Status.FINISHED
    top = expected_top(swiss)
    public = client.get(f"/e/{event.pk}/standings/").content.decode()
    assert names_in_order(public, swiss) == top + swiss[4:]
    for word in ("優勝", "準優勝", "ベスト4"):
        assert word in public
    client.force_login(organizer)
    staff = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert names_in_order(staff, swiss) == top + swiss[4:]


def test_the_event_page_and_the_projector_name_the_champion(organizer: User, client: Client) -> None:
    event, swiss = cut_event(organizer)
    champion = expected_top(swiss)[0]
    page = client.get(f"/e/{event.pk}/").content.decode()
    assert "優勝" in page and champion in page
    projector = client.get(f"/e/{event.pk}/projector/").content.decode()
    assert "最終順位" in projector and champion in projector
    assert names_in_order(projector, swiss)[:4] == expected_top(swiss)


def test_the_csv_and_the_report_are_in_placings_order(organizer: User, client: Client) -> None:
    event, swiss = cut_event(organizer)
    client.force_login(organizer)
    body = client.get(f"/events/{event.pk}/standings.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [r["name"] for r in rows] == expected_top(swiss) + swiss[4:]
    top4 = [(r["rank"], r["stage"]) for r in rows[:4]]
    assert top4 == [("1", "優勝"), ("2", "準優勝"), ("3", "ベスト4"), ("3", "ベスト4")]
    report = client.get(f"/events/{event.pk}/report/").content.decode()
    assert "最終順位" in report
    winners = report[report.index("入賞者") : report.index("最終順位")]
    assert names_in_order(winners, swiss) == expected_top(swiss)


def test_the_api_gives_the_placings(organizer: User, client: Client) -> None:
    event, swiss = cut_event(organizer)
    data = client.get(f"/api/v1/events/{event.pk}/placings").json()
    assert data["count"] == 8
    first = data["items"][:4]
    assert [i["player"]["name"] for i in first] == expected_top(swiss)
    assert [i["stage"] for i in first] == ["champion", "finalist", "top-4", "top-4"]
    assert [i["rank"] for i in first] == [1, 2, 3, 3]
    assert set(first[0]) == {"rank", "player", "stage", "points", "disqualified", "prize"}
    assert data["items"][4]["stage"] == "swiss" and data["items"][4]["rank"] == 5


def test_the_bracket_shows_stage_names_seeds_and_duel_wins(organizer: User, client: Client) -> None:
    event, swiss = cut_event(organizer)
    page = client.get(f"/e/{event.pk}/bracket/").content.decode()
    assert "準決勝" in page and "決勝" in page and "ラウンド" not in page
    assert '<span class="seed" title="シード">1</span> <span class="name">' + swiss[0] in page
    assert '<span class="score">2</span>' in page and '<span class="score">1</span>' in page
    client.cookies["taikai_language"] = "en"
    english = client.get(f"/e/{event.pk}/bracket/").content.decode()
    assert "Semifinals" in english and "Final" in english
