"""The player's own page on the follower has what the venue's has (issue 29): the organizer's announcement, the
notices to that player (closed from there too), the card saying where their event ended, their deck list in
short; what needs the venue's own rows (setting a PIN, sending a deck list) is said to be done at the venue,
never a dead link."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import URLResolver, get_resolver
from django.utils import translation

from taikai.decks import services as deck_services
from taikai.decks.demo import LEGAL_SHEET
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.models import Notice
from taikai.events.services import announcements, links, results
from taikai.events.services import clock as clock_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.follow import urls_copy
from taikai.follow.models import QueuedAction
from tests.factories import World, build_world, played_event
from tests.follow._sync import caught_up, follower_get, follower_page, venue_pusher

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">')
NOTICE = re.compile(r'<section class="card notice".*?</section>', re.S)
FINISH = re.compile(r'<section class="card finish.*?</section>', re.S)
ANNOUNCEMENT = re.compile(r'<section class="announcement".*?</section>', re.S)


@pytest.fixture
def world(db: Any) -> World:
    return build_world()


def _venue_page(token: str, lang: str = "ja") -> str:
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
    page = client.get(f"/p/{token}/")
    assert page.status_code == 200
    return str(page.content.decode())


def _parts(pattern: re.Pattern[str], page: str) -> list[str]:
    return [CSRF.sub("", part) for part in pattern.findall(page)]


def _follower_post(url: str, data: dict[str, str]) -> Any:
    resolver = URLResolver(get_resolver().pattern, urls_copy)  # the follower's routes, as TAIKAI_ROLE=follower
    request = RequestFactory().post(url, data)
    found = resolver.resolve(request.path)
    return found.func(request, *found.args, **found.kwargs)


def test_a_notice_to_the_player_reads_on_the_follower_as_at_the_venue_and_closes_there(world: World) -> None:
    m = world.match()
    slip = ResultInput.from_json({"duels": [{"winner": "A"}, {"winner": "A"}]})
    results.report_result(m, player=m.player_a, result=slip)
    results.enter_result(m, by=Staff(world.organizer), result=slip)  # the desk decided a reported table: both told
    pusher = venue_pusher()
    caught_up(pusher)
    token = world.token_of(m.player_b)
    for lang in ("ja", "en"):
        venue = _parts(NOTICE, _venue_page(token, lang))
        assert venue and _parts(NOTICE, follower_page(token, lang)) == venue  # the same words, the same markup
    assert "受付が結果記入票から入力して確定しました" in follower_page(token)
    # Closed on the follower: gone from the page at once, and closed at the venue when it takes the action.
    (notice,) = Notice.objects.filter(player=m.player_b)
    assert _follower_post(f"/p/{token}/notices/{notice.pk}/close/", {}).status_code == 302
    assert NOTICE.findall(follower_page(token)) == []
    assert "送信待ち" not in follower_page(token)  # nothing to tell: closing is not an action that waits
    caught_up(pusher)
    notice.refresh_from_db()
    assert notice.closed_at is not None
    assert QueuedAction.objects.get(kind="close_notice").status == QueuedAction.Status.APPLIED
    assert NOTICE.findall(follower_page(token)) == [] and NOTICE.findall(_venue_page(token)) == []
    # The opponent's notice is theirs: still open on both sides.
    assert _parts(NOTICE, follower_page(world.token_of(m.player_a))) != []


def test_the_organizers_announcement_reads_on_the_follower_as_at_the_venue(world: World) -> None:
    announcements.announce(world.event, by=Staff(world.organizer), text="13時から第2ラウンドです", seen=0)
    caught_up(venue_pusher())
    token = world.token_of(world.match().player_a)
    venue = _parts(ANNOUNCEMENT, _venue_page(token))
    assert "13時から第2ラウンドです" in venue[0] and _parts(ANNOUNCEMENT, follower_page(token)) == venue
    url = f"/e/{world.event.pk}/announcement.json"  # what the page's script reads again
    assert follower_get(url).content == Client().get(url).content


def test_where_the_event_ended_reads_on_the_follower_as_at_the_venue(organizer: Any) -> None:
    event = played_event(organizer)  # a finished Swiss and top 4, one player dropped after round 1
    tokens = {p: links.issue_access(p, by=Staff(organizer)) for p in event.players.order_by("id")}
    caught_up(venue_pusher())
    cards = 0
    placing = re.compile(r'<p class="card placing big" id="final-placing">.*?</p>', re.S)
    for player, token in tokens.items():
        for lang in ("ja", "en"):
            venue = _parts(FINISH, _venue_page(token, lang))
            assert _parts(FINISH, follower_page(token, lang)) == venue, (player.name, lang)
            cards += len(venue)
        # "Why am I ranked here?" on the follower says the same final placing
        path = f"/e/{event.pk}/players/{player.pk}/"
        with translation.override("ja"):
            ours = placing.findall(Client(headers={"accept-language": "ja"}).get(path).content.decode())
            assert ours and placing.findall(follower_get(path).content.decode()) == ours
    assert cards == 2 * len(tokens)  # everyone's event is over: a card each, in each language
    pages = [follower_page(t) for t in tokens.values()]
    assert sum("おめでとうございます" in p for p in pages) == 1
    assert all('class="drop-form"' not in p for p in pages)  # nothing left to drop from, as at the venue


COUNTS = re.compile(r'<p class="deck-counts">.*?</p>', re.S)
BADGES = re.compile(r'<span class="badge[^"]*">[^<]*</span>')


def test_the_deck_list_reads_in_short_and_sending_one_or_a_pin_is_said_to_be_at_the_venue(
    demo_event: Any, organizer: Any
) -> None:  # DECK-9: the registered list, locked when the first round starts
    sent, other = list(demo_event.players.order_by("id")[:2])
    deck_services.submit_deck(sent, deck_services.DeckInput(text=LEGAL_SHEET), by=PlayerSelf(sent))
    tokens = {p: links.issue_access(p, by=Staff(organizer)) for p in (sent, other)}
    pusher = venue_pusher()
    caught_up(pusher)
    page = follower_page(tokens[sent])
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: "ja"})
    venue_deck = client.get(f"/p/{tokens[sent]}/deck/").content.decode()
    assert COUNTS.findall(page) == COUNTS.findall(venue_deck) != []
    assert BADGES.findall(page) == BADGES.findall(venue_deck) and "使用可能" in BADGES.findall(page)[0]
    assert "デッキリストの提出・変更は会場で行います" in page
    assert "このページを復元するPINは会場で設定します" in page
    # No link or form that would only reach the follower's "venue only" page.
    assert f"/p/{tokens[sent]}/deck/" not in page and f"/p/{tokens[sent]}/pin/" not in page
    assert "デッキリスト未提出" in follower_page(tokens[other])
    # The first round starts: lists lock, and the page says so instead of offering to send one.
    rnd = round_services.pair_next_round(demo_event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    caught_up(pusher)
    page = follower_page(tokens[other])
    assert "デッキリストは締め切られました" in page and "デッキリストの提出・変更は会場で行います" not in page
    assert "締切済み" in follower_page(tokens[sent])
