"""The organizer's pages say things in words, in Japanese and English: no internal codes (snake_case tokens,
rule IDs such as "(PEN-6)", "+180s", "next: duel") where people read."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import clock as clock_services
from taikai.events.services import registration
from taikai.events.services import rounds as round_services
from tests.factories import make_event

CODES = [
    re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"),  # snake_case tokens
    re.compile(r"\((?:PEN|TIME|END|REG|MATCH|DECK|PRIZE)-[A-Z0-9-]+\)"),  # rule IDs shown as reasons
    re.compile(r"\+\d+s\b"),  # "+180s"
    re.compile(r"next: duel|次: duel"),
]
HIDDEN = re.compile(r"<(script|style|code|svg|title)\b.*?</\1>", re.S)


def visible_text(html: str) -> str:
    text = HIDDEN.sub(" ", html)
    text = re.sub(r"<[^>]+>", " ", text)  # attributes (names, classes, URLs) are not read
    return re.sub(r"\s+", " ", text)


def _pages(event: Event) -> list[tuple[str, str]]:
    e, p = event.pk, event.players.first().pk
    return [
        ("get", f"/events/{e}/"),
        ("get", f"/events/{e}/players/"),
        ("get", f"/events/{e}/players/{p}/edit/"),
        ("get", f"/events/{e}/staff/"),
        ("get", f"/events/{e}/rounds/1/"),
        ("get", f"/events/{e}/rounds/1/print/"),
        ("get", f"/events/{e}/rounds/1/slips/"),
        ("post", f"/events/{e}/rounds/1/repair/"),
        ("post", f"/events/{e}/rounds/1/undo/"),
        ("post", f"/events/{e}/players/slips/"),
        ("post", f"/events/{e}/players/{p}/reissue/"),
        ("post", f"/events/{e}/players/{p}/revoke/"),
        ("get", "/e/999999/"),
    ]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_organizer_pages_show_no_internal_codes(organizer: User, client: Client, lang: str) -> None:
    event = make_event(organizer, 5)  # an odd number: a bye
    registration.register_player(event, by=Staff(organizer), name="欠席", card_game_id="1888888888")
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    match = rnd.matches.filter(is_bye=False).first()
    clock_services.extend_time(match, by=Staff(organizer), seconds=180, reason="judge call", ruling_seconds=180)
    clock_services.start_round(rnd, by=Staff(organizer))
    clock_services.pause_round(rnd, by=Staff(organizer))
    client.force_login(organizer)
    client.cookies.load({"taikai_language": lang})
    for method, url in _pages(event):
        # follow: a refused action (pairing a started round again) answers on the round's page, in words
        response = getattr(client, method)(url, HTTP_ACCEPT_LANGUAGE=lang, follow=True)
        assert response.status_code in (200, 404), url
        # a player's link printed on a slip is a random token, which may hold "ab_cd": not a code shown
        text = re.sub(r"https?://\S+", "", visible_text(response.content.decode()))
        for code in CODES:
            assert not code.search(text), f"{url} ({lang}): {code.search(text).group(0)!r}"
        if url.endswith("/rounds/1/"):
            assert ("一時停止中" if lang == "ja" else "Paused") in text
            assert ("3分" if lang == "ja" else "3 min") in text  # the table's extension, in words
            assert ("不戦勝（卓なし）" if lang == "ja" else "Bye (win, no table)") in text


def test_tables_read_not_started_before_the_clock(organizer: User, client: Client) -> None:
    event = make_event(organizer, 4)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    client.force_login(organizer)
    text = visible_text(client.get(f"/events/{event.pk}/rounds/1/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert text.count("開始前") == 2 and "対戦中" not in text
    clock_services.start_round(rnd, by=Staff(organizer))
    text = visible_text(client.get(f"/events/{event.pk}/rounds/1/", HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "対戦中" in text and "開始前" not in text
