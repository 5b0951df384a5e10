"""A whole 8-player Swiss event with a top 4, walked in a real browser as the people would."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from taikai.events.models import Event, Match
from taikai.events.services.accounts import ensure_first_organizer
from taikai.events.services.standings import StandingRow, standings_for
from tests.factories import PHONE, PROJECTOR, NewPage, SitePage, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("山田 太郎", "やまだ たろう"),
    ("佐藤 花子", "さとう はなこ"),
    ("鈴木 一郎", "すずき いちろう"),
    ("高橋 美咲", "たかはし みさき"),
    ("Alice Smith", ""),
    ("Bob Jones", ""),
    ("田中 健", "たなか けん"),
    ("伊藤 さくら", "いとう さくら"),
]


def _login(page: SitePage, username: str, password: str) -> None:
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")


def _create_event(page: SitePage) -> int:
    page.goto(page.base_url + "/events/new/")
    page.fill("input[name=name]", "ブラウザ杯")
    page.fill("input[name=date]", "2026-12-06")
    page.select_option("select[name=format]", "swiss_cut")
    page.fill("input[name=top_cut]", "4")
    page.click("button.primary")
    expect(page.locator("h1")).to_have_text("ブラウザ杯")
    return int(page.url.rstrip("/").split("/")[-1])


def _register_and_check_in(page: SitePage, event_id: int) -> dict[str, str]:
    links = {}
    for i, (name, kana) in enumerate(PLAYERS):
        page.goto(f"{page.base_url}/events/{event_id}/players/")
        page.fill("input[name=reg-name]", name)
        page.fill("input[name=reg-name_kana]", kana)
        page.fill("input[name=reg-card_game_id]", f"{2000000000 + i}")
        page.click("form.card button.primary")
        expect(page.locator("body")).to_contain_text(f"{name}さんを登録しました")
        # registration hands out the personal link and its QR code at once (issue 14, item 15)
        links[name] = page.locator("#player-link").get_attribute("href")
        if i == 0:
            screenshot(page, "slip")
    # the desk finds each player with the search box and checks them in (the ID card was shown)
    for i, (name, _) in enumerate(PLAYERS):
        page.goto(f"{page.base_url}/events/{event_id}/players/")
        page.fill("#checkin-search", f"{2000000000 + i}")
        assert page.locator("#player-table tbody tr:not([hidden])").count() == 1
        page.press("#checkin-search", "Enter")  # one match: Enter checks them in; the link stays
        expect(page.locator("body")).to_contain_text(f"{name}さんのチェックインを受け付けました")
    return links


def _report_on_phones(new_page: NewPage, links: dict[str, str], event: Event, round_number: int) -> None:
    """Player A reports on a phone; player B confirms on theirs."""
    phones: dict[str, Any] = {}
    for m in Match.objects.filter(round__event=event, round__number=round_number, is_bye=False):
        a, b = m.player_a.name, m.player_b.name
        for who in (a, b):
            if who not in phones:
                phones[who] = new_page(viewport=PHONE)
        pa, pb = phones[a], phones[b]
        pa.goto(links[a])
        pa.click("form.report button[value=win-2-1]")  # one tap
        expect(pa.locator("#match-status")).to_contain_text("対戦相手の確認を待っています")
        pb.goto(links[b])
        expect(pb.locator("body")).to_contain_text("対戦相手の報告")
        if round_number == 1 and m.table == 1:
            screenshot(pb, "player-confirm-phone")
        pb.click("button[name=confirm]")
        expect(pb.locator("body")).to_contain_text("確定した結果")


def _staff_enters(page: SitePage, event: Event, round_number: int) -> None:
    for m in Match.objects.filter(
        round__event=event, round__number=round_number, is_bye=False, status=Match.Status.PENDING
    ):
        page.goto(f"{page.base_url}/events/{event.pk}/matches/{m.pk}/result/")
        page.click("details.duel-detail > summary")  # the duel-by-duel form, one tap away (issue 24)
        page.check("input[name=duel1][value=B]")
        page.check("input[name=duel2][value=B]")
        page.click("button.primary")
        expect(page.locator("body")).to_contain_text("結果を保存しました")


def _three_swiss_rounds(new_page: NewPage, org: SitePage, event: Event, links: dict[str, str]) -> None:
    """Round 1 reported on the players' phones (the projector's clock running), rounds 2 and 3 entered by staff."""
    event_id = event.pk
    for round_number in (1, 2, 3):
        org.goto(f"{org.base_url}/events/{event_id}/")
        org.click("text=次のラウンドを組む")
        expect(org.locator("body")).to_contain_text(f"第{round_number}ラウンドの組み合わせを作成しました")
        org.click("text=時計をスタート")
        expect(org.locator("button", has_text="一時停止")).to_be_visible()
        if round_number == 1:
            proj = new_page(viewport=PROJECTOR)
            proj.goto(f"{proj.base_url}/e/{event_id}/projector/")
            proj.wait_for_function("document.getElementById('clock').textContent.indexOf(':') > 0")
            assert proj.locator("#clock").inner_text().startswith(("39:", "40:"))
            screenshot(proj, "projector")
            _report_on_phones(new_page, links, event, 1)
        else:
            _staff_enters(org, event, round_number)


def _a_round_one_result_corrected(org: SitePage, event: Event) -> None:
    event_id = event.pk
    # the organizer corrects a round-1 result (END-3: corrections are the organizer's), seeing what changes first
    jp = org
    m = Match.objects.get(round__event=event, round__number=1, table=1)
    jp.goto(f"{jp.base_url}/events/{event_id}/matches/{m.pk}/result/")
    # the form opens with the confirmed record (B, A, A: a tapped 2–1); the judge changes it to B, B
    jp.click("details.duel-detail > summary")
    expect(jp.locator("input[name=duel3][value=A]")).to_be_checked()
    jp.check("input[name=duel1][value=B]")
    jp.check("input[name=duel2][value=B]")
    jp.check("input[name=duel3][value='']")
    jp.fill("input[name=reason]", "結果記入ミス")
    jp.click("text=変わることを確認")
    expect(jp.locator("body")).to_contain_text("この訂正で変わること")
    jp.click("text=訂正を保存")
    expect(jp.locator("body")).to_contain_text("結果を訂正しました")
    m.refresh_from_db()
    assert m.result == "b"


def _standings_shown(org: SitePage, event: Event) -> list[StandingRow]:
    """The Swiss standings, as the public page shows them."""
    event_id = event.pk
    table = standings_for(event)
    org.goto(f"{org.base_url}/e/{event_id}/standings/")
    rows = org.locator("table.standings tbody tr")
    assert rows.count() == 8
    for i, row in enumerate(table):
        cells = rows.nth(i).locator("td")
        assert cells.nth(0).inner_text() == str(row.rank)
        assert cells.nth(1).inner_text().startswith(row.name)
        assert cells.nth(2).inner_text() == str(row.points)
    assert sum(r.points for r in table) == 3 * 4 * 3  # 12 matches, no draws
    screenshot(org, "standings-desktop")
    return table


def _top_four_played(org: SitePage, event: Event, table: list[StandingRow]) -> None:
    event_id = event.pk
    # the top 4: 1 v 4 and 2 v 3, then the final
    org.goto(f"{org.base_url}/events/{event_id}/")
    org.click("text=決勝トーナメントを組む")
    expect(org.locator("body")).to_contain_text("第4ラウンドの組み合わせを作成しました")
    cut = event.rounds.get(number=4)
    seeds = [r.player_id for r in table[:4]]
    assert [(m.player_a_id, m.player_b_id) for m in cut.matches.order_by("table")] == [
        (seeds[0], seeds[3]),
        (seeds[1], seeds[2]),
    ]
    _staff_enters(org, event, 4)
    org.goto(f"{org.base_url}/events/{event_id}/")
    org.click("text=次のラウンドを組む")
    expect(org.locator("body")).to_contain_text("第5ラウンドの組み合わせを作成しました")
    _staff_enters(org, event, 5)
    org.goto(f"{org.base_url}/e/{event_id}/bracket/")
    assert org.locator(".bracket-col").count() == 2
    screenshot(org, "bracket")
    org.goto(f"{org.base_url}/events/{event_id}/")
    expect(org.locator("body")).to_contain_text("すべてのラウンドが終わりました")


def test_eight_player_swiss_with_top_four(new_page: NewPage) -> None:
    username, password = ensure_first_organizer()
    judge = get_user_model().objects.create_user("judge1", password="judge-password-1")
    org = new_page()
    _login(org, username, password)
    event_id = _create_event(org)
    event = Event.objects.get(pk=event_id)
    org.goto(f"{org.base_url}/events/{event_id}/staff/")
    org.fill("input[name=username]", judge.username)
    org.select_option("select[name=role]", "judge")
    org.click("button.primary")
    expect(org.locator("body")).to_contain_text("スタッフの役割を保存しました")
    links = _register_and_check_in(org, event_id)
    screenshot(org, "players-console")

    _three_swiss_rounds(new_page, org, event, links)
    _a_round_one_result_corrected(org, event)
    table = _standings_shown(org, event)
    _top_four_played(org, event, table)

    phone = new_page(viewport=PHONE)
    phone.goto(f"{phone.base_url}/e/{event_id}/standings/")
    screenshot(phone, "standings-phone")
    phone.goto(f"{phone.base_url}/e/{event_id}/pairings/1/?order=kana")
    names = phone.locator("table.pairings tbody tr td:first-child").all_inner_texts()
    assert names[:2] == ["Alice Smith", "Bob Jones"] or names.index("伊藤 さくら") < names.index("山田 太郎")
