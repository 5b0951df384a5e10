"""Issue 24, players' phones 1–5, without a browser: what the player's page (and "why am I ranked here") says from
the first page before pairing to the end of the event. The live updates themselves are proven in
tests/web/test_phone_follows_the_event_browser.py; here, that each state the page is swapped to says the right
thing."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.test import Client

from taikai.audit.feed import KINDS
from taikai.events import actions
from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player, StaffRole
from taikai.events.services import links
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.services import penalties as penalty_services
from tests.events.test_final_placings_pages import cut_event, expected_top
from tests.factories import make_event, staff

pytestmark = pytest.mark.django_db

TWO_NIL = ResultInput(({"winner": "A"}, {"winner": "A"}))
NOT_OUT = "次のラウンドの組み合わせはまだ出ていません"
NEXT_TABLE = "次のラウンドの卓は"


def _page(token: str, path: str = "") -> str:
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: "ja"})
    return re.sub(r"\s+", " ", client.get(f"/p/{token}/{path}").content.decode())


def _link(organizer: User, player: Player) -> str:
    return links.issue_access(player, by=Staff(organizer))


def _live_state(html: str) -> str:
    found = re.search(r'id="player-live"[^>]*data-state="([^"]*)"', html)
    assert found
    return found.group(1)


def test_the_page_opened_before_pairing_loads_the_clock_and_gets_its_tables_clock(organizer: User) -> None:
    event = make_event(organizer, 4)
    token = _link(organizer, event.players.first())
    before = _page(token)
    assert NOT_OUT in before and 'id="clock"' not in before
    assert "taikai/clock.js" in before  # the clock's script runs already, to start when the table appears
    round_services.pair_next_round(event, by=Staff(organizer))
    after = _page(token)
    assert re.search(rf'id="clock"[^>]*data-clock-url="/e/{event.pk}/clock\.json\?table=\d+"', after)


def test_the_page_carries_its_tables_clock_as_clock_json_answers_it(organizer: User) -> None:  # TIME-1, TIME-4
    # A live refresh then needs no second request for the clock: at a 2,000-player round, 2,000 fewer.
    event = make_event(organizer, 4)
    player = event.players.first()
    assert player is not None
    token = _link(organizer, player)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    table = Match.objects.get(models.Q(player_a=player) | models.Q(player_b=player), round=rnd).table
    found = re.search(r'id="clock"[^>]*data-clock-state="([^"]*)"', _page(token))
    assert found
    carried = json.loads(html.unescape(found.group(1)))
    polled = Client().get(f"/e/{event.pk}/clock.json?table={table}").json()
    assert abs(carried.pop("server_time") - polled.pop("server_time")) < 5
    assert carried == polled  # not started: the same numbers, its own table's clock included
    assert carried["table"]["table"] == table and carried["remaining"] == rnd.time_limit_seconds


def test_every_report_changes_the_live_state_and_a_penalty_duel_the_forms_key(organizer: User) -> None:  # PEN-1
    event = make_event(organizer, 4)
    match = round_services.pair_next_round(event, by=Staff(organizer)).matches.get(table=1)
    b = _link(organizer, match.player_b)
    pending = _page(b)
    form_key = re.search(r'id="report-form"[^>]*data-live-key="([^"]*)"', pending)
    assert form_key and "data-live-holdable" in pending
    result_services.report_result(match, player=match.player_a, result=TWO_NIL)
    reported = _page(b)
    assert _live_state(reported) != _live_state(pending) and "対戦相手の報告" in reported
    other = Match.objects.get(round=match.round, table=2)
    c = _link(organizer, other.player_a)
    key_before = re.search(r'id="report-form"[^>]*data-live-key="([^"]*)"', _page(c))
    judge = staff(event, "floor", StaffRole.Role.JUDGE)
    penalty_services.issue_penalty(event, by=Staff(judge), player=other.player_b, infraction="INF-14", prior_duels=[])
    key_after = re.search(r'id="report-form"[^>]*data-live-key="([^"]*)"', _page(c))
    assert key_before and key_after and key_after.group(1) != key_before.group(1)  # a held form is let go


def test_a_replaced_link_answers_as_gone_and_the_stream_tells_its_page(organizer: User) -> None:
    event = make_event(organizer, 2)
    player = event.players.first()
    old = _link(organizer, player)
    _link(organizer, player)  # the desk prints a new slip
    client = Client()
    page = client.get(f"/p/{old}/", HTTP_X_REQUESTED_WITH="taikai-live")
    assert page.status_code == 404 and page["X-Taikai-Page"] == "gone"
    assert "この個人用リンクは使えません" in page.content.decode()
    report = client.post(f"/p/{old}/report/", {"quick": "win-2-0"}, HTTP_ACCEPT="application/json")
    assert report.status_code == 404 and report["X-Taikai-Page"] == "gone"
    for action in (actions.PLAYER_ACCESS_ISSUED, actions.PLAYER_ACCESS_REVOKED, actions.PLAYER_ACCESS_RECOVERED):
        assert KINDS[action] == "access"


def _cut_tokens(organizer: User) -> tuple[Event, list[str], dict[str, str]]:
    event, swiss = cut_event(organizer)
    tokens = {p.name: _link(organizer, p) for p in event.players.all()}
    return event, swiss, tokens


def test_after_the_final_each_page_says_its_final_placing_and_offers_no_drop(organizer: User) -> None:
    event, swiss, tokens = _cut_tokens(organizer)
    assert event.status == Event.Status.FINISHED
    champion, runner_up, best4, _best4b = expected_top(swiss)
    for name, place in ((champion, "優勝"), (runner_up, "準優勝"), (best4, "ベスト4"), (swiss[5], "6位")):
        html = _page(tokens[name])
        assert f'最終順位: <strong class="place">{place}</strong>' in html, name
        assert NOT_OUT not in html and NEXT_TABLE not in html
        assert "大会からドロップ" not in html
    assert "優勝おめでとうございます" in _page(tokens[champion])
    assert "大会は終了しました" in _page(tokens[runner_up])


def test_the_champions_why_am_i_ranked_here_page_leads_with_the_final_placing(organizer: User) -> None:
    event, swiss, _tokens = _cut_tokens(organizer)
    champion = event.players.get(name=expected_top(swiss)[0])
    html = re.sub(r"\s+", " ", Client().get(f"/e/{event.pk}/players/{champion.pk}/").content.decode())
    assert '最終順位: <strong class="place">優勝</strong>' in html
    headline = html.index("最終順位")
    swiss_line = html.index("スイスドロー 3位")  # the Swiss place is said as the Swiss place, after it
    assert headline < swiss_line
    assert "上位の順位は決勝トーナメントの結果で決まり" in html


def test_a_player_out_of_the_top_cut_is_told_while_the_bracket_goes_on(organizer: User) -> None:
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, swiss_rounds=3, top_cut=4)
    by = Staff(organizer)
    for _ in range(3):
        rnd = round_services.pair_next_round(event, by=by)
        for m in rnd.matches.filter(is_bye=False):
            result_services.enter_result(m, by=by, result=TWO_NIL)
    semis = round_services.pair_next_round(event, by=by)
    in_cut = {p for m in semis.matches.all() for p in (m.player_a_id, m.player_b_id)}
    outside = event.players.exclude(pk__in=in_cut).first()
    html = _page(_link(organizer, outside))
    assert "予選（スイスドロー）で大会を終えました" in html and "最終順位" in html
    assert NOT_OUT not in html and "大会からドロップ" not in html
    semi = semis.matches.select_related("player_a", "player_b").first()
    result_services.enter_result(semi, by=by, result=TWO_NIL)
    loser, winner = _page(_link(organizer, semi.player_b)), _page(_link(organizer, semi.player_a))
    assert "決勝トーナメントで敗退しました" in loser and "ベスト4" in loser
    assert NEXT_TABLE not in loser and "大会からドロップ" not in loser
    assert NEXT_TABLE in winner and "最終順位" not in winner  # still in the bracket: waits for the final


def _live_tables(html: str) -> list[str] | None:
    found = re.search(r'id="player-live"[^>]*?(?: data-live-tables="([^"]*)")?>', html)
    assert found
    return found.group(1).split() if found.group(1) is not None else None


def test_the_page_lists_every_table_it_follows_until_it_shows_a_place_others_results_can_move(
    organizer: User,
) -> None:
    # live.js refreshes a page for a result at a table it lists only (a result at another table changes nothing
    # on it); once a place is shown, a correction at any table can move it, so the page follows every result.
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, swiss_rounds=3, top_cut=4)
    by = Staff(organizer)
    player = event.players.first()
    token = _link(organizer, player)
    assert _live_tables(_page(token)) == []  # not paired yet: no table of its own
    sat_at = []
    for _ in range(3):
        rnd = round_services.pair_next_round(event, by=by)
        mine = rnd.matches.get(models.Q(player_a=player) | models.Q(player_b=player))
        sat_at.append(f"events.match:{mine.pk}")
        assert _live_tables(_page(token)) == sat_at  # every table so far: a correction there says so here
        for m in rnd.matches.filter(is_bye=False):
            result_services.enter_result(m, by=by, result=TWO_NIL)
    semis = round_services.pair_next_round(event, by=by)
    in_cut = {p for m in semis.matches.all() for p in (m.player_a_id, m.player_b_id)}
    outside = event.players.exclude(pk__in=in_cut).first()
    html = _page(_link(organizer, outside))
    assert "最終順位" in html and _live_tables(html) is None


def test_a_swiss_event_says_the_final_place_when_it_ends(organizer: User) -> None:
    event = make_event(organizer, 4, swiss_rounds=1)
    by = Staff(organizer)
    rnd = round_services.pair_next_round(event, by=by)
    for m in rnd.matches.all():
        result_services.enter_result(m, by=by, result=TWO_NIL)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    loser = rnd.matches.first().player_b
    html = _page(_link(organizer, loser))
    assert re.search(r'最終順位: <strong class="place">\d位</strong>', html)
    assert "ご参加ありがとうございました" in html and NEXT_TABLE not in html


def test_a_duel_loss_by_penalty_is_said_on_both_pages(organizer: User) -> None:  # PEN-1
    event = make_event(organizer, 4)
    match = round_services.pair_next_round(event, by=Staff(organizer)).matches.get(table=1)
    a, b = _link(organizer, match.player_a), _link(organizer, match.player_b)
    judge = staff(event, "floor", StaffRole.Role.JUDGE)
    penalty_services.issue_penalty(event, by=Staff(judge), player=match.player_a, infraction="INF-14", prior_duels=[])
    assert "第1デュエルは、あなたへの罰則（デュエルの敗北）によりあなたの負けです。" in _page(a)
    assert "第1デュエルは、対戦相手への罰則（デュエルの敗北）によりあなたの勝ちです。" in _page(b)
    result_services.enter_result(
        Match.objects.get(pk=match.pk), by=Staff(organizer), result=ResultInput(({"winner": "B"}, {"winner": "B"}))
    )
    # still said once the result is final, after the notice is closed
    assert "第1デュエルは、対戦相手への罰則" in _page(b) and "確定した結果" in _page(b)


def test_a_win_by_the_opponents_disqualification_is_said_on_both_pages(organizer: User) -> None:  # PEN-1
    event = make_event(organizer, 4)
    match = round_services.pair_next_round(event, by=Staff(organizer)).matches.get(table=1)
    a, b = _link(organizer, match.player_a), _link(organizer, match.player_b)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    penalty_services.issue_penalty(event, by=Staff(head), player=match.player_a, infraction="INF-19")
    winner, cheat = _page(b), _page(a)
    assert "対戦相手の失格により、このマッチはあなたの勝ちです。" in winner and "確定した結果: 勝ち" in winner
    assert "あなたの失格により、このマッチはあなたの負けです。" in cheat
    assert KINDS[actions.PLAYER_DISQUALIFIED] == "players"


@pytest.mark.parametrize(
    ("ruling", "won", "lost"),
    [
        ("match-loss", "対戦相手への罰則（マッチの敗北）により", "罰則（マッチの敗北）により、このマッチは"),
        ("dq-forfeit", "対戦相手の失格により", "あなたの失格により"),
        ("drop-concession", "対戦相手が対戦中にドロップ（棄権）した", "対戦中にドロップ（棄権）したため"),
        ("ineligible-forfeit", "対戦相手が参加資格を失った", "参加資格を失ったため"),
    ],
)
def test_every_ruling_is_said_from_each_side(ruling: str, won: str, lost: str) -> None:  # PEN-1, REG-2
    from django.utils import translation

    from taikai.events.views.penalty_words import ruling_line

    match = Match(ruling=ruling, result="a", penalty_duels=[])
    with translation.override("ja"):
        assert won in ruling_line(match, "a") and "あなたの勝ち" in ruling_line(match, "a")
        assert lost in ruling_line(match, "b") and "負け" in ruling_line(match, "b")
    assert ruling_line(Match(ruling="", result="a", penalty_duels=[]), "a") == ""
