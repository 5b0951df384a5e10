"""Prizes by the book through the services and every page that says them (issue 23, findings 1-3): a DQ's
prize is the one already decided (CS 1.2 A, PEN-2), a heavier rung is never better (CS 1.3, PEN-8), teams
are placed as players are (CS 1.1/1.2, PEN-4), and the prize page, the placings page, the player's page, the
API and the CSV say the same prize (they all read ``prizes_by_entrant``)."""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from taikai.core.progress import NextAction
from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player, StaffRole, Team
from taikai.events.services import progress
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services import teams as team_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import Penalty
from taikai.judging.services import penalties as svc
from taikai.judging.services import prizes
from taikai.judging.services.prizes import publish_prizes
from tests.factories import A_WINS, make_event, staff

pytestmark = pytest.mark.django_db
T = TypeVar("T")

RANKS = [("優勝", 1, 1, False), ("準優勝", 2, 2, False), ("ベスト4", 3, 4, True), ("5-8位", 5, 8, True)]
LADDER = ("match-loss", "match-loss-downgrade", "dq", "dq-downgrade", "dq-no-prize")  # rungs 4-8 (CS 1.3)


def _event(organizer: User, players: int, publish: bool = True, **kw: Any) -> tuple[Event, Any]:
    event = make_event(organizer, players, **kw)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    prizes.set_prize_ranks(event, by=Staff(organizer), ranks=RANKS)
    if publish:  # the public pages say prizes once the organizer published them
        publish_prizes(event, by=Staff(organizer))
    return event, head


def _open(event: Event) -> list[Match]:
    matches = Match.objects.filter(round__event=event, is_bye=False, status=Match.Status.PENDING)
    return list(matches.select_related("player_a", "player_b").order_by("round__number", "table"))


def _play_round(event: Event, organizer: User, winner: Callable[[Match], str] = lambda m: "A") -> None:
    for m in _open(event):
        who = winner(m)
        result = A_WINS() if who == "A" else ResultInput(({"winner": "B"}, {"winner": "B"}))
        result_services.enter_result(m, by=Staff(organizer), result=result)


def _next(event: Event, organizer: User) -> bool:
    """Pair the next round if there is one; False when the event has nothing left to pair."""
    if progress.plan(event).next_action not in (
        NextAction.PAIR_SWISS,
        NextAction.TOP_CUT,
        NextAction.PAIR_ELIMINATION,
    ):
        return False
    # A fixed seed per round: a forked example plays the same pairings whichever rung it tried (a fresh random
    # draw made the forks different events, and the ladder compared a 5-8位 in one with a final in another).
    round_services.pair_next_round(event, by=Staff(organizer), seed=1000 + event.rounds.count())
    return True


def _finish(event: Event, organizer: User, winner: Callable[[Match], str] = lambda m: "A") -> None:
    _play_round(event, organizer, winner)
    while _next(event, organizer):
        _play_round(event, organizer, winner)


def _prize(event: Event, player: Player) -> str:
    return prizes.prizes_by_entrant(event).get(prizes.entrant_of(event, player), prizes.EntrantPrize()).text


def _penalize(event: Event, head: User, player: Player, rung: str) -> Penalty:
    return svc.issue_penalty(
        event, by=Staff(head), player=player, infraction="INF-9", rung=rung, reason="the judge weighed it"
    )


# --- finding 1: a DQ takes the prize already decided, not a provisional place (PEN-2, CS 1.2 A) -------------


def test_pen_2_cs_1_2_a_a_semifinal_dq_with_downgrade_takes_the_prize_below_best_4(organizer: User) -> None:
    # PEN-2, PEN-3, CS 1.2 A: disqualified in a semifinal, the player had ベスト4 secured (not 準優勝 by seed):
    # one step below is 5-8位. The real finalists keep 優勝/準優勝; the vacated ベスト4 place goes to the next
    # player (the Swiss 5th), and whatever the final gives, the DQ's prize stays.
    event, head = _event(organizer, 8, format=Event.Format.SWISS_CUT, top_cut=4, swiss_rounds=3)
    for _ in range(3):
        _next(event, organizer)
        _play_round(event, organizer)
    _next(event, organizer)  # the top cut: two semifinals
    semi1, semi2 = _open(event)
    seed1 = semi1.player_a
    pen = _penalize(event, head, seed1, "dq-downgrade")
    assert pen.decided_place == 3
    before_final = _prize(event, seed1)
    assert before_final == "5-8位 (受賞資格降格)"
    _finish(event, organizer)  # semi 2 and the final: A wins each
    final = Match.objects.filter(round__event=event).order_by("-round__number").first()
    assert final is not None
    champion, runner_up = final.player_a, final.player_b
    swiss5 = Player.objects.get(pk=int(prizes.final_order(event)[3][0]))  # after the bracket: the Swiss 5th
    assert _prize(event, champion) == "優勝" and _prize(event, runner_up) == "準優勝"
    assert _prize(event, semi2.player_b) == "ベスト4" and _prize(event, swiss5) == "ベスト4"  # 繰り上げ
    assert _prize(event, seed1) == before_final  # nothing played after the DQ changed it


def test_pen_2_cs_1_2_a_a_dq_in_round_1_before_any_result_leaves_no_prize(organizer: User) -> None:
    # PEN-2, CS 1.2 A: in Swiss nothing is decided until every Swiss round is over (it gave 準優勝 through the
    # random tiebreak order).
    event, head = _event(organizer, 8, swiss_rounds=3)
    _next(event, organizer)
    target = Player.objects.get(pk=int(prizes.final_order(event)[0][0]))  # first by the tiebreak draw alone
    assert _penalize(event, head, target, "dq-downgrade").decided_place is None
    _finish(event, organizer)
    assert _prize(event, target) == "受賞なし"


# --- finding 2: the ladder is monotone (CS 1.3 右側ほど重い, PEN-8) -------------------------------------------


def test_pen_8_cs_1_3_in_a_semifinal_no_rung_is_better_than_a_lighter_one(organizer: User) -> None:
    # PEN-8, CS 1.3: the same semifinal, each of rungs 4-8: マッチの敗北 ベスト4; 受賞資格を下げるマッチの敗北, 失格 and
    # 受賞資格を下げる失格 the prize below ベスト4; 受賞資格を失う失格 none (a plain DQ gave 5-8 while the downgrade
    # DQ gave 準優勝).
    event, head = _event(organizer, 8, format=Event.Format.SWISS_CUT, top_cut=4, swiss_rounds=3)
    for _ in range(3):
        _next(event, organizer)
        _play_round(event, organizer)
    _next(event, organizer)
    seed1 = _open(event)[0].player_a

    def prize_after(rung: str) -> str:
        _penalize(event, head, seed1, rung)
        _finish(event, organizer)
        return _prize(event, seed1)

    got = [_forked(partial(prize_after, rung)) for rung in LADDER]
    assert got == ["ベスト4", "5-8位 (受賞資格降格)", "5-8位 (受賞資格降格)", "5-8位 (受賞資格降格)", "受賞なし"]


def test_pen_8_a_plain_dq_in_swiss_before_the_last_round_leaves_no_prize(organizer: User) -> None:
    # PEN-8, PEN-2: after round 2 of 3 the leader's plain DQ and DQ with downgrade both leave nothing (the
    # downgrade DQ gave 2nd while the plain DQ gave nothing).
    event, head = _event(organizer, 8, swiss_rounds=3)
    for _ in range(2):
        _next(event, organizer)
        _play_round(event, organizer)
    leader = Player.objects.get(pk=int(prizes.final_order(event)[0][0]))

    def prize_after(rung: str) -> str:
        _penalize(event, head, leader, rung)
        _finish(event, organizer)
        return _prize(event, leader)

    assert [_forked(partial(prize_after, rung)) for rung in ("dq", "dq-downgrade")] == ["受賞なし"] * 2


# --- finding 3: a team is placed as a player is (CS 1.1/1.2, PEN-4, PEN-8) ----------------------------------


def _teams(organizer: User, teams: int = 4) -> tuple[Event, Any]:
    event, head = _event(organizer, 0, is_team_event=True, swiss_rounds=2)
    prizes.set_prize_ranks(
        event, by=Staff(organizer), ranks=[("優勝", 1, 1, False), ("準優勝", 2, 2, False), ("3位", 3, 3, False)]
    )
    for t in range(teams):
        team_services.register_team(
            event,
            by=Staff(organizer),
            name=f"チーム{t}",
            members=[{"name": f"T{t}{s}", "card_game_id": f"{3000000000 + t * 10 + i}"} for i, s in enumerate("ABC")],
        )
    return event, head


def test_pen_4_pen_8_cs_1_1_a_teams_plain_dq_is_placed_as_a_players_is(organizer: User) -> None:
    # PEN-4, PEN-8, CS 1.1: a member's plain DQ is the team's; before the last Swiss round the team had nothing
    # decided, so no prize (it kept its 3位).
    event, head = _teams(organizer)
    _next(event, organizer)
    _play_round(event, organizer)
    third = Team.objects.get(pk=int(prizes.final_order(event)[2][0]))
    member = third.members.order_by("seat").first()
    assert member is not None
    pen = _penalize(event, head, member, "dq")
    assert pen.decided_place is None
    _finish(event, organizer)
    assert _prize(event, member) == "受賞なし"
    assert third.pk not in {int(e) for r in prizes.prize_standings(event).awards.ranks for e in r.entrants}


def test_pen_4_pen_8_cs_1_1_after_the_last_round_a_teams_plain_dq_is_one_step_down(organizer: User) -> None:
    # PEN-4, PEN-8, CS 1.1/1.2: every Swiss round over, the first team's plain DQ leaves it 準優勝 (one step
    # below its 優勝), as it would a player; the next team is promoted.
    event, head = _teams(organizer)
    _finish(event, organizer)
    order = prizes.final_order(event)
    first = Team.objects.get(pk=int(order[0][0]))
    member = first.members.order_by("seat").first()
    assert member is not None
    assert _penalize(event, head, member, "dq").decided_place == 1
    assert _prize(event, member) == "準優勝 (受賞資格降格)"
    second = Team.objects.get(pk=int(order[1][0])).members.first()
    assert second is not None and _prize(event, second) == "優勝"


def test_pen_3_prizes_reach_the_public_pages_once_published(organizer: User, client: Client) -> None:
    # PEN-3: like GET …/prizes, the placings page, the player's page and GET …/placings say prizes only once the
    # organizer published the list; the staff standings and the CSV say them at once.
    event, _head = _event(organizer, 4, publish=False, format=Event.Format.ELIMINATION)
    _next(event, organizer)
    _finish(event, organizer)
    champion = Player.objects.get(pk=int(prizes.final_order(event)[0][0]))
    assert _prize(event, champion) == "優勝"
    public = client.get(f"/e/{event.pk}/standings/").content.decode()
    assert 'class="prize-name"' not in public
    path = client.get(f"/e/{event.pk}/players/{champion.pk}/").content.decode()
    assert 'class="place">優勝</strong>' in path  # the place won in the final is a fact of the bracket
    assert 'class="prize-name"' not in path  # the prize is not said before the list is published
    assert {i["prize"] for i in client.get(f"/api/v1/events/{event.pk}/placings").json()["items"]} == {""}
    client.force_login(organizer)
    body = client.get(f"/events/{event.pk}/standings.csv").content.decode("utf-8-sig")
    assert {r["name"]: r["prize"] for r in csv.DictReader(io.StringIO(body))}[champion.name] == "優勝"
    assert '<td class="prize-name">優勝</td>' in client.get(f"/events/{event.pk}/standings/").content.decode()
    publish_prizes(event, by=Staff(organizer))
    client.logout()
    assert '<td class="prize-name">優勝</td>' in client.get(f"/e/{event.pk}/standings/").content.decode()
    path = client.get(f"/e/{event.pk}/players/{champion.pk}/").content.decode()
    assert '<strong class="prize-name">優勝</strong>' in path


# --- every page says the same prize; a property over random events (PEN-2, PEN-3, PEN-8) --------------------


class _Undo(Exception):
    pass


def _forked(fn: Callable[[], T]) -> T:
    """Run ``fn`` and undo everything it wrote: the same moment, tried several ways."""
    out: list[T] = []
    try:
        with transaction.atomic():
            out.append(fn())
            raise _Undo
    except _Undo:
        pass
    cache.clear()  # built pages and standings keyed by the undone changes
    return out[0]


def _surfaces(event: Event, client: Client) -> dict[str, dict[int, str]]:
    """Each player's prize as the placings page, the player's page, the API and the CSV say it, and as
    ``prizes_by_entrant`` gives it; the prize page's holders are checked against it too."""
    players = {p.pk: p for p in Player.objects.filter(event=event)}
    expected = {pk: _prize(event, p) for pk, p in players.items()}
    by_name = {p.name: pk for pk, p in players.items()}
    html = client.get(f"/e/{event.pk}/standings/").content.decode()
    page: dict[int, str] = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S):
        name = re.search(r'/players/\d+/">([^<]+)</a>', row)
        if name is not None:
            prize = re.search(r'<td class="prize-name">([^<]*)</td>', row)
            page[by_name[name.group(1)]] = prize.group(1) if prize else ""
    api = client.get(f"/api/v1/events/{event.pk}/placings?limit=100").json()["items"]
    body = client.get(f"/events/{event.pk}/standings.csv").content.decode("utf-8-sig")
    awards = prizes.prize_standings(event).awards
    assert awards is not None
    prize_page = client.get(f"/events/{event.pk}/judging/prizes/").content.decode()
    names = prizes.entrant_names(event)
    for award in awards.ranks:  # the prize page lists each holder under the prize
        cell = prize_page.split(f"<td>{award.rank.label}</td>", 1)[1].split("</tr>", 1)[0]
        assert all(names[e] in cell for e in award.entrants), award.rank.label
    mine = {
        pk: re.search(r'class="prize-name">([^<]*)<', client.get(f"/e/{event.pk}/players/{pk}/").content.decode())
        for pk in players
    }
    return {
        "expected": {pk: text for pk, text in expected.items() if pk in page},
        "placings": page,
        "player": {pk: m.group(1) if m else "" for pk, m in mine.items() if pk in page},
        "api": {int(r["player"]["id"]): r["prize"] for r in api},
        "csv": {by_name[r["name"]]: r["prize"] for r in csv.DictReader(io.StringIO(body))},
    }


def _rank(event: Event, player: Player) -> float:
    """How good the player's prize is, lower is better (a playoff counts half a rank below the prize)."""
    awards = prizes.prize_standings(event).awards
    entrant = prizes.entrant_of(event, player)
    assert awards is not None
    for i, r in enumerate(awards.ranks):
        if entrant in r.entrants:
            return 2 * i
        if r.playoff is not None and entrant in r.playoff.candidates:
            return 2 * i + 1
    return math.inf


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # an example costs seconds: no shrinking
)
@given(
    st.sampled_from(["elimination", "cut"]),
    st.integers(0, 4),
    st.integers(0, 3),
    st.lists(st.booleans(), min_size=8, max_size=8),
)
@example(shape="cut", moment=0, table=2, coin=[True, False, False, False, True, True, True, False])  # CI's case
def test_pen_2_pen_8_random_events_agree_everywhere_and_the_ladder_holds(
    organizer: User, shape: str, moment: int, table: int, coin: list[bool]
) -> None:
    # PEN-2, PEN-3, PEN-8 (CS 1.2, CS 1.3): a random event, penalized at a random moment with each of rungs
    # 4-8 in turn: (a) a heavier rung never leaves the player a better prize than a lighter one; (b) the
    # placings page, the player's page, the prize page, the API and the CSV agree; (c) a DQ's prize is the one
    # it had when issued, whatever is played after it.
    def example() -> None:
        if shape == "cut":
            event, head = _event(organizer, 8, format=Event.Format.SWISS_CUT, top_cut=4, swiss_rounds=3)
        else:
            event, head = _event(organizer, 8, format=Event.Format.ELIMINATION)
        flips = iter(coin * 8)
        for _ in range(moment if shape == "cut" else moment % 3):  # whole rounds before the moment (coin results)
            if not _next(event, organizer):
                break
            _play_round(event, organizer, lambda m: "A" if next(flips) else "B")
        _next(event, organizer)
        tables = _open(event)
        assert tables  # the moment is always one with tables being played
        target = tables[table % len(tables)].player_a
        client = Client()
        client.force_login(organizer)

        def outcome(rung: str) -> tuple[float, str, str]:
            _penalize(event, head, target, rung)
            at_dq = _prize(event, target)
            rest = iter(coin[::-1] * 8)
            _finish(event, organizer, lambda m: "A" if next(rest) else "B")
            seen = _surfaces(event, client)
            expected = seen.pop("expected")
            assert expected and all(view == expected for view in seen.values()), seen  # (b)
            return _rank(event, target), at_dq, _prize(event, target)

        results = [_forked(partial(outcome, rung)) for rung in LADDER]
        values = [r[0] for r in results]
        assert values == sorted(values), (LADDER, values)  # (a)
        for rung, (_v, at_dq, final) in zip(LADDER, results, strict=True):
            if rung.startswith("dq"):
                assert at_dq == final, rung  # (c)

    _forked(example)


def test_pen_8_pen_2_the_rules_page_says_taikais_reading(organizer: User, client: Client) -> None:
    # PEN-8, PEN-2 (CS 1.2, CS 1.3): where the text is silent the rules page says taikai's reading, drawn from
    # the event's ruleset: a plain 失格 one step below the decided prize, nothing decided in Swiss until every
    # round is over, and (CS ruleset) no cap on the steps.
    event, _head = _event(organizer, 4)
    ja = client.get(f"/judging/rules/?event={event.pk}", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    section = ja.split('id="dq-prize"', 1)[1].split("</section>", 1)[0]
    assert "PEN-8" in section and "決まっていた受賞資格を一段階下げます" in section
    assert "全回戦が終わるまで何も決まっていません" in section and "上限はありません" in section
    client.cookies.load({"taikai_language": "en"})
    en = client.get(f"/judging/rules/?event={event.pk}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "lowers the decided prize by one step" in en and "no cap on the steps" in en
