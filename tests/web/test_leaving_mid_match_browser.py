"""Issue 23, findings 4 and 10, on a phone (390×844, ja-JP): the head judge disqualifies a player whose table
is being played. The opponent's page says, in words, that the match was lost by the DQ and shows the result
with its reason; the disqualified player reads it too. The head judge then withdraws the DQ (a mis-tap): both
read that the head judge withdrew it and that they play on. PEN-1, PEN-6."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from taikai.events.actors import Staff
from taikai.events.models import Match, StaffRole
from taikai.judging.services import penalties as penalty_services
from taikai.judging.services import penalty_reversal
from tests.factories import ARTIFACTS, VenuePage, screenshot, staff
from tests.web.test_phone_browser import _event, _phone, _table_one, organizer  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_dq_mid_match_is_said_on_the_opponents_phone_and_its_withdrawal_too(
    venue_page: VenuePage,
    organizer: User,  # noqa: F811
) -> None:
    event, links = _event(organizer)
    match = _table_one(event)
    cheat, opponent = match.player_a, match.player_b
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    dq = penalty_services.issue_penalty(event, by=Staff(head), player=cheat, infraction="INF-19")

    page = _phone(venue_page, links[opponent.pk])
    notice = page.locator(".card.notice").filter(has_text="失格により")
    expect(notice).to_contain_text("第1ラウンド 1番卓")
    expect(notice).to_contain_text(f"{cheat.name} の失格により、このマッチは {cheat.name} の負けになりました")
    expect(notice).to_contain_text(f"{opponent.name} の勝ち 2–0（{cheat.name} の失格による）")
    screenshot(page, "issue23-dq-mid-match-opponent-phone")
    own = _phone(venue_page, links[cheat.pk])
    expect(own.locator(".badge.disqualified")).to_be_visible()
    expect(own.locator(".card.notice").filter(has_text="失格により")).to_be_visible()
    screenshot(own, "issue23-dq-mid-match-disqualified-phone")

    penalty_reversal.withdraw_penalty(dq, by=Staff(head), reason="押し間違い（別の卓の選手）")
    page.reload()
    withdrawn = page.locator(".card.notice").filter(has_text="ヘッドジャッジが自身の罰則を取り消しました")
    expect(withdrawn).to_contain_text("対戦を続けて、結果を報告してください")
    expect(page.locator(".card.notice").filter(has_text="失格により")).to_have_count(0)
    screenshot(page, "issue23-dq-withdrawn-opponent-phone")
    own.reload()
    expect(own.locator(".card.notice").filter(has_text="ヘッドジャッジが失格を取り消しました")).to_be_visible()
    expect(own.locator(".badge.disqualified")).to_have_count(0)
    assert Match.objects.get(pk=match.pk).status == Match.Status.PENDING


def test_a_drop_mid_match_from_the_phone_concedes_it_and_reg_2_marks_the_standings_row(
    venue_page: VenuePage,
    organizer: User,  # noqa: F811
) -> None:  # END-1 (the drop concedes), REG-2 (参加資格)
    event, links = _event(organizer)
    match = _table_one(event)
    leaver, opponent = match.player_a, match.player_b
    own = _phone(venue_page, links[leaver.pk])
    own.on("dialog", lambda dialog: dialog.accept())
    own.locator("details.more-actions > summary").click()  # the drop is under その他 (PIN・ドロップ)
    own.locator("form[action$='/drop/'] button").click()
    own.wait_for_load_state()
    page = _phone(venue_page, links[opponent.pk])
    notice = page.locator(".card.notice").filter(has_text="棄権（ドロップ）")
    expect(notice).to_contain_text(f"{leaver.name} が対戦中に棄権（ドロップ）したため")
    expect(page.locator("#match-status .state.ok")).to_contain_text("確定した結果: 勝ち")
    # said from the opponent's side beside the result (issue 24), not only in the notice they may close
    expect(page.locator("#decided")).to_contain_text(
        "対戦相手が対戦中にドロップ（棄権）したため、このマッチはあなたの勝ちです。"
    )
    screenshot(page, "issue23-drop-mid-match-opponent-phone")

    other = Match.objects.select_related("player_a").get(round__event=event, round__number=1, table=2)
    from taikai.events.services import participation

    participation.mark_ineligible(other.player_a, by=Staff(organizer), reason="IDの登録情報に誤り")
    standings = venue_page(viewport={"width": 390, "height": 844})
    standings.goto(f"{standings.base_url}/e/{event.pk}/standings/")
    row = standings.locator("tr", has_text=other.player_a.name)
    expect(row.locator(".ineligible")).to_have_text("参加資格なし")
    screenshot(standings, "issue23-reg2-standings-phone")


def test_the_rules_page_says_the_readings_on_a_phone(venue_page: VenuePage, organizer: User) -> None:  # noqa: F811
    # TIME-E-6, PEN-1, PEN-6: the readings where the text is silent, as a judge reads them at the table
    page = venue_page(viewport={"width": 390, "height": 844})
    page.goto(f"{page.base_url}/judging/rules/")
    expect(page.locator("#silent-elimination")).to_contain_text("エキストラデュエル")
    expect(page.locator("#leaving")).to_contain_text("相手プレイヤーがマッチの勝者")
    expect(page.locator("#withdrawal")).to_contain_text("理由を記録して取り消せます")
    page.locator("#silent-elimination").screenshot(path=str(ARTIFACTS / "issue23-rules-readings-phone.png"))
