"""The follower's pages are the venue's: its templates rendered from the copy, marked with the copy's age, and
a one-tap result from the follower read at the venue as the venue's own page reads it (issue 29)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from taikai.core.match_record import Player as Side
from taikai.core.quick_results import quick_outcome
from taikai.events.actors import Staff
from taikai.events.models import Match
from taikai.events.services import results
from taikai.events.services.result_input import ResultInput
from taikai.follow.models import QueuedAction
from tests.factories import World, build_world
from tests.follow._sync import caught_up, follower_get, follower_page, queued, venue_pusher

pytestmark = pytest.mark.django_db

TABLE = re.compile(r'<div class="table-wrap"[^>]*>.*?</table></div>', re.S)


@pytest.fixture
def world(db: None) -> World:
    return build_world()


def _venue_and_follower(path: str) -> tuple[str, str]:
    with translation.override("ja"):
        venue = Client(headers={"accept-language": "ja"}).get(path)
        copy = follower_get(path)
    assert venue.status_code == copy.status_code == 200, path
    return venue.content.decode(), copy.content.decode()


@pytest.mark.parametrize("path", ["pairings/", "pairings/?order=kana", "pairings/1/?order=az", "standings/"])
def test_the_followers_pairings_and_standings_are_the_venues_page_marked_with_its_age(world: World, path: str) -> None:
    caught_up(venue_pusher())
    venue, copy = _venue_and_follower(f"/e/{world.event.pk}/{path}")
    tables = TABLE.findall(venue)
    assert tables and TABLE.findall(copy) == tables  # the same rows, in the same markup, byte for byte
    assert "会場の最終更新: " in copy and "会場の最終更新" not in venue
    for p in world.event.players.all():
        assert p.name in copy


def test_a_players_rounds_page_on_the_follower_is_the_venues(world: World) -> None:
    m = world.match()
    results.enter_result(m, by=Staff(world.organizer), result=ResultInput.from_json({"duels": [{"winner": "B"}] * 2}))
    caught_up(venue_pusher())
    for player in (m.player_a, m.player_b):
        venue, copy = _venue_and_follower(f"/e/{world.event.pk}/players/{player.pk}/")
        assert TABLE.findall(copy) == TABLE.findall(venue) != []
        assert "会場の最終更新: " in copy


def test_the_players_page_offers_the_venues_one_tap_choices(world: World) -> None:
    caught_up(venue_pusher())
    m = world.match()
    page = follower_page(world.token_of(m.player_b))
    assert re.findall(r'name="quick" value="([\w-]+)"', page)[:4] == ["win-2-0", "win-2-1", "loss-1-2", "loss-0-2"]
    assert "会場の最終更新: " in page
    assert f"{m.table}番卓" in page


def test_a_one_tap_result_from_the_follower_is_read_at_the_venue_as_its_own_page_reads_it(world: World) -> None:
    pusher = venue_pusher()
    caught_up(pusher)
    m = world.match()
    # A taps 「勝ち 2–1」 on the venue's page; B taps 「負け 1–2」 on the follower's: the same record, confirmed.
    ruleset, fmt = world.event.ruleset, m.round.format
    outcome = quick_outcome("win-2-1", ruleset, fmt)
    assert outcome is not None
    results.report_result(m, player=m.player_a, result=ResultInput.from_report(outcome.report(Side.A)))
    caught_up(pusher)
    action = queued(world, m.player_b, "report", "k-quick", quick="loss-1-2")
    caught_up(pusher)
    m.refresh_from_db()
    assert m.status == Match.Status.CONFIRMED and (m.duel_wins_a, m.duel_wins_b) == (2, 1)
    action.refresh_from_db()
    assert action.status == QueuedAction.Status.APPLIED
    assert "勝ち" not in follower_page(world.token_of(m.player_b)).split('data-decided="')[1].split("</p>")[0]


def test_a_choice_the_venue_does_not_offer_is_refused_with_its_reason(world: World) -> None:
    pusher = venue_pusher()
    caught_up(pusher)
    m = world.match()
    action = queued(world, m.player_a, "report", "k-bad-quick", quick="win-5-0")
    caught_up(pusher)
    action.refresh_from_db()
    assert action.status == QueuedAction.Status.REFUSED and action.code == "quick-not-allowed"
    assert action.message_ja in follower_page(world.token_of(m.player_a))
    assert Match.objects.get(pk=m.pk).status == Match.Status.PENDING


def test_the_opponents_report_can_be_confirmed_or_answered_with_ones_own_as_at_the_venue(world: World) -> None:
    pusher = venue_pusher()
    caught_up(pusher)
    m = world.match()
    results.report_result(m, player=m.player_a, result=ResultInput.from_report(_a_wins(world, m)))
    caught_up(pusher)
    page = follower_page(world.token_of(m.player_b))
    assert 'value="confirm"' in page and 'name="quick"' in page  # the venue's page offers both
    assert "結果が違うときは、自分で報告する" in page
    action = queued(world, m.player_b, "report", "k-against", quick="win-2-0")  # B says B won: not A's record
    caught_up(pusher)
    action.refresh_from_db()
    assert action.status == QueuedAction.Status.APPLIED
    assert Match.objects.get(pk=m.pk).status == Match.Status.DISPUTED  # as two reports that disagree at the venue


def _a_wins(world: World, m: Match) -> Any:
    outcome = quick_outcome("win-2-0", world.event.ruleset, m.round.format)
    assert outcome is not None
    return outcome.report(Side.A)


@pytest.mark.parametrize("path", ["charts/", "players/1/deck/"])
def test_a_venue_only_page_says_so_on_the_follower_with_the_way_back(world: World, path: str) -> None:
    caught_up(venue_pusher())
    m = world.match()
    url = f"/e/{world.event.pk}/{path}" if path == "charts/" else f"/p/{world.token_of(m.player_a)}/deck/"
    with translation.override("ja"):
        page = follower_get(url)
    assert page.status_code == 404
    text = page.content.decode()
    assert "このページは会場のtaikaiでのみ見られます" in text and "会場の最終更新: " in text
    assert (f'href="/p/{world.token_of(m.player_a)}/"' in text) == (path != "charts/")


def test_the_players_page_looks_again_sooner_while_an_action_waits_for_the_venue(world: World) -> None:
    caught_up(venue_pusher())
    m = world.match()
    assert 'data-poll="30"' in follower_page(world.token_of(m.player_a))
    queued(world, m.player_a, "report", "k-poll", quick="win-2-0")  # not sent: the venue's link is not turning
    page = follower_page(world.token_of(m.player_a))
    assert "会場に送信待ち" in page and 'data-poll="5"' in page
