"""The bracket's rounds are called 準々決勝 / 準決勝 / 決勝 on every page and printout that names a round (issue 24,
item 18): the round page, the console, the printed pairings, the result slips, the results entry, the projector and
the organizer's report; the projector no longer says the form's 「決勝トーナメント人数」."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import clock as clock_services
from taikai.events.services import rounds as round_services
from tests.events.test_organizer_desk import _play
from tests.factories import make_event

pytestmark = pytest.mark.django_db

STAGES = ["準々決勝", "準決勝", "決勝"]


@pytest.fixture
def bracket(organizer: User) -> Event:
    """Two Swiss rounds, then a top 8 up to its final, paired and being played."""
    event = make_event(organizer, 12, format=Event.Format.SWISS_CUT, swiss_rounds=2, top_cut=8)
    for _ in range(4):
        _play(event, organizer, round_services.pair_next_round(event, by=Staff(organizer), seed=3))
    round_services.pair_next_round(event, by=Staff(organizer), seed=3)
    assert list(event.rounds.values_list("stage", flat=True)) == ["swiss"] * 2 + ["elimination"] * 3
    return event


def _quarterfinal_started(organizer: User) -> tuple[Event, Any]:
    """Two Swiss rounds played, then the top 8's quarterfinal paired and its clock started."""
    event = make_event(organizer, 12, format=Event.Format.SWISS_CUT, swiss_rounds=2, top_cut=8)
    for _ in range(2):
        _play(event, organizer, round_services.pair_next_round(event, by=Staff(organizer), seed=3))
    quarterfinal = round_services.pair_next_round(event, by=Staff(organizer), seed=3)
    clock_services.start_round(quarterfinal, by=Staff(organizer))
    return event, quarterfinal


def _get(client: Client, url: str, lang: str = "ja") -> str:
    client.cookies.load({"taikai_language": lang})
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_each_staff_page_and_printout_names_the_bracket_round(client: Client, organizer: User, bracket: Event) -> None:
    client.force_login(organizer)
    base = f"/events/{bracket.pk}"
    for number, stage in enumerate(STAGES, start=3):
        for page in ("", "print/", "slips/", "results/", "edit/"):
            html = _get(client, f"{base}/rounds/{number}/{page}")
            assert stage in html, (number, page)
            assert f"第{number}ラウンド" not in html.split("<nav")[-1].split("</nav>")[-1], (number, page)
    console = _get(client, f"{base}/")
    assert all(name in console for name in ("第1ラウンド", "第2ラウンド", *STAGES))
    report = _get(client, f"{base}/report/")
    assert all(name in report for name in STAGES)


def test_the_projector_heads_the_top_cut_with_the_round_not_a_form_label(client: Client, bracket: Event) -> None:
    html = _get(client, f"/e/{bracket.pk}/projector/")
    assert "決勝トーナメント人数" not in html
    assert "<span>決勝</span>" in html


def test_a_sixteen_player_bracket_opens_with_its_first_round(client: Client, organizer: User) -> None:
    event = make_event(organizer, 16, format=Event.Format.ELIMINATION)
    rnd = round_services.pair_next_round(event, by=Staff(organizer), seed=1)
    client.force_login(organizer)
    assert "決勝トーナメント1回戦" in _get(client, f"/events/{event.pk}/rounds/{rnd.number}/")
    assert "Top cut, round 1" in _get(client, f"/events/{event.pk}/rounds/{rnd.number}/", "en")
    _play(event, organizer, rnd)
    rnd = round_services.pair_next_round(event, by=Staff(organizer), seed=1)
    assert "Quarterfinals" in _get(client, f"/events/{event.pk}/rounds/{rnd.number}/", "en")


def test_a_players_penalty_record_names_the_bracket_round_it_was_applied_to(
    client: Client,
    organizer: User,
) -> None:
    """PEN-1 on the player's record page: a penalty at the top cut's table says 準々決勝, not 第3ラウンド."""
    from taikai.events.services import links
    from taikai.judging.services import penalties

    event, quarterfinal = _quarterfinal_started(organizer)
    match = quarterfinal.matches.select_related("player_b").order_by("table").first()
    assert match is not None and match.player_b is not None
    penalties.issue_penalty(event, by=Staff(organizer), player=match.player_b, infraction="INF-14", rung="duel-loss")
    html = _get(client, f"/p/{links.issue_access(match.player_b, by=Staff(organizer))}/record/")
    assert f"準々決勝・{match.table}番卓に適用されました" in html
    assert "第3ラウンド" not in html


def test_the_notice_of_a_penalty_duel_in_the_top_cut_names_its_round(
    client: Client,
    organizer: User,
) -> None:
    """PEN-1 told on both players' pages: 「準々決勝 1番卓: 第1デュエルは罰則…」, not 第3ラウンド."""
    from taikai.events.services import links
    from taikai.judging.services import penalties

    event, quarterfinal = _quarterfinal_started(organizer)
    match = quarterfinal.matches.select_related("player_a", "player_b").order_by("table").first()
    assert match is not None and match.player_b is not None
    penalties.issue_penalty(event, by=Staff(organizer), player=match.player_b, infraction="INF-14", rung="duel-loss")
    for player in (match.player_a, match.player_b):
        html = _get(client, f"/p/{links.issue_access(player, by=Staff(organizer))}/")
        assert f"準々決勝 {match.table}番卓: 第1デュエルは罰則（デュエルの敗北）により" in html
        assert "第3ラウンド" not in html
    english = _get(client, f"/p/{links.issue_access(match.player_a, by=Staff(organizer))}/", "en")
    assert f"Quarterfinals, table {match.table}: duel 1 was lost" in english


def test_a_swiss_notice_still_says_its_round_number(
    client: Client,
    organizer: User,
) -> None:
    from taikai.events.services import links
    from taikai.judging.services import penalties

    event = make_event(organizer, 4)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    match = rnd.matches.select_related("player_b").order_by("table").first()
    assert match is not None and match.player_b is not None
    penalties.issue_penalty(event, by=Staff(organizer), player=match.player_b, infraction="INF-14", rung="duel-loss")
    html = _get(client, f"/p/{links.issue_access(match.player_b, by=Staff(organizer))}/")
    assert f"第1ラウンド {match.table}番卓: 第1デュエルは罰則（デュエルの敗北）により" in html


def test_the_penalty_form_names_the_top_cut_round_a_loss_lands_on(
    client: Client,
    organizer: User,
) -> None:
    """PEN-1 on the judge's penalty form: 「このラウンド: 準々決勝・1番卓」, not 第3ラウンド."""
    event, quarterfinal = _quarterfinal_started(organizer)
    match = quarterfinal.matches.order_by("table").first()
    assert match is not None
    client.force_login(organizer)
    html = _get(client, f"/events/{event.pk}/judging/penalties/new/?player={match.player_a_id}&infraction=INF-14")
    assert f"このラウンド: 準々決勝・{match.table}番卓" in html
    assert "第3ラウンド" not in html
