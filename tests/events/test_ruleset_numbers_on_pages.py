"""Every number a page shows comes from the event's ruleset ("every number is a ruleset parameter").

The event here plays best of five, 50-minute matches, 5 extra turns, a 7-turn extra duel at 6000 LP, in teams of
five: a page that still shows 3, 40, 4 or 8000 wrote the number into its template.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from taikai.core.ruleset import builtin
from taikai.events.actors import Staff
from taikai.events.models import Event, Match
from taikai.events.services import links
from taikai.events.services import rounds as round_services
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def _house_rules() -> dict[str, Any]:
    doc = builtin("harajuku-cs-1.2").to_dict()
    doc["match"].update(duels_to_win=3, max_duels=5)  # MATCH-1
    doc["time"].update(match_minutes=50, extra_turns=5, extra_duel_turns=7, extra_duel_lp=6000)  # TIME-1, TIME-E-5
    doc["team"]["seats"] = ["A", "B", "C", "D", "E"]
    return doc


@pytest.fixture
def staff_client(organizer: User) -> Client:
    client = Client()
    client.force_login(organizer)
    return client


def _page(client: Client, url: str, lang: str) -> str:
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


def _match(event: Event, organizer: User) -> Match:
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    return rnd.matches.filter(is_bye=False).select_related("player_a").order_by("table")[0]


def test_the_rules_reference_shows_the_events_numbers(organizer: User, staff_client: Client) -> None:
    # TIME-1, TIME-E-1, TIME-S-1, TIME-E-5, MATCH-1
    event = make_event(organizer, 0, ruleset_document=_house_rules())
    en = _page(staff_client, f"/judging/rules/?event={event.pk}", "en")
    assert "<strong>5 extra turns</strong>" in en and "<strong>50 minutes</strong>" in en
    assert "7 turns at 6000 LP" in en and "<strong>3 duel wins</strong> in at most 5 duels" in en
    assert "3 extra turns" not in en and "40 minutes" not in en and "8000" not in en
    ja = _page(staff_client, f"/judging/rules/?event={event.pk}", "ja")
    assert "5ターンのエキストラターン" in ja and "50分" in ja and "6000LP・7ターン" in ja
    assert "3ターンのエキストラターン" not in ja and "8000" not in ja


def test_the_rules_reference_without_an_event_shows_the_default_ruleset(staff_client: Client) -> None:
    default = builtin("harajuku-cs-1.2").time
    en = _page(staff_client, "/judging/rules/", "en")
    assert f"<strong>{default.extra_turns} extra turns</strong>" in en
    assert f"<strong>{default.match_minutes} minutes</strong>" in en
    assert f"{default.extra_duel_turns} turns at {default.extra_duel_lp} LP" in en
    unknown = _page(staff_client, "/judging/rules/?event=999999", "en")  # an unknown event: the default
    assert f"<strong>{default.extra_turns} extra turns</strong>" in unknown


def test_the_event_form_shows_the_events_team_size_and_time_numbers(organizer: User, staff_client: Client) -> None:
    event = make_event(organizer, 0, ruleset_document=_house_rules())
    en = _page(staff_client, f"/events/{event.pk}/edit/", "en")
    assert "Team event (5 players a team, seats A/B/C/D/E)" in en
    assert "This event: 50-minute matches, first to 3 duel wins, 5 extra turns after time" in en
    assert "extra duel of 7 turns at 6000 LP" in en
    assert "3 players a team" not in en
    ja = _page(staff_client, f"/events/{event.pk}/edit/", "ja")
    assert "5人1チーム" in ja and "1マッチ50分" in ja


def test_the_new_event_form_shows_each_rulesets_own_numbers(staff_client: Client) -> None:
    en = _page(staff_client, "/events/new/", "en")
    for name in ("dkt-2011", "modern"):
        time = builtin(name).time
        option = en.split(f'value="{name}"', 1)[1].split("</label>", 1)[0]  # that ruleset's own picker entry
        assert f"{time.match_minutes}-minute matches" in option
    assert f"Team event ({len(builtin('harajuku-cs-1.2').team.seats)} players a team" in en


def test_the_swiss_result_form_has_as_many_duels_as_the_ruleset(organizer: User, staff_client: Client) -> None:
    event = make_event(organizer, 2, ruleset_document=_house_rules())
    match = _match(event, organizer)
    page = _page(staff_client, f"/events/{event.pk}/matches/{match.pk}/result/", "en")
    assert 'name="duel5"' in page and 'name="duel6"' not in page  # MATCH-1: best of five; no extra duel in Swiss
    assert "time: LP after the 5 extra turns" in page
    assert 'value="draw"' in page and 'value="intentional-draw"' in page  # MATCH-2, END-2


def test_the_elimination_result_form_adds_the_extra_duel_of_the_ruleset(organizer: User, staff_client: Client) -> None:
    event = make_event(organizer, 2, ruleset_document=_house_rules(), format=Event.Format.ELIMINATION)
    match = _match(event, organizer)
    page = _page(staff_client, f"/events/{event.pk}/matches/{match.pk}/result/", "en")
    assert 'name="duel6_extra" value="1"' in page and "Extra duel (7 turns, 6000 LP)" in page  # TIME-E-5
    assert 'value="intentional-draw"' not in page  # TIME-E-6, END-2 (a drawn duel goes on: MATCH-2)
    assert 'name="duel1"' in page and 'value="draw"' in page
    assert 'name="duel1_sd"' in page  # TIME-E-3


def test_the_players_result_form_follows_the_ruleset_too(organizer: User) -> None:
    event = make_event(organizer, 2, ruleset_document=_house_rules())
    match = _match(event, organizer)
    token = links.issue_access(match.player_a, by=Staff(organizer))
    page = _page(Client(), f"/p/{token}/", "en")
    assert 'name="duel5"' in page and 'name="duel6"' not in page
    assert "Life points after the 5 extra turns" in page
    # MATCH-1 best of five: the one-tap outcomes are 3–0, 3–1, 3–2 and their losses; 2–2 at time (TIME-S-6)
    for code in ("win-3-0", "win-3-1", "win-3-2", "loss-2-3", "loss-0-3", "draw-2-2", "intentional-draw"):
        assert f'value="{code}"' in page
    assert 'value="win-2-0"' not in page
