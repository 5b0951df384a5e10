"""Issue 13, what a disqualification leaves behind: team DQ copies are team consequences in the violator database,
not the teammates' violations (PEN-4, PEN-5), the prize of a DQ is the one decided at that point (CS 1.2 A), and
team prizes rank and downgrade the team (CS 1.2)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from taikai.core import prizes as core_prizes
from taikai.events.actors import Staff
from taikai.events.models import Event, Player, StaffRole, Team
from taikai.events.services import registration
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services import teams as team_services
from taikai.judging.models import Penalty
from taikai.judging.services import database, penalty_history, prizes
from taikai.judging.services import penalties as svc
from tests.factories import A_WINS, fresh, make_event, pair, play, player, staff

pytestmark = pytest.mark.django_db

# --- 7. team DQ copies are team consequences, not the teammates' violations (PEN-4, PEN-5, CS 1.3) ----------


def _team_event(organizer: User, name: str = "チーム戦", teams: int = 2) -> Event:
    event = make_event(organizer, 0, is_team_event=True, name=name)
    for t in range(teams):
        team_services.register_team(
            event,
            by=Staff(organizer),
            name=f"チーム{t}",
            members=[{"name": f"T{t}{s}", "card_game_id": f"{3000000000 + t * 10 + i}"} for i, s in enumerate("ABC")],
        )
    return event


def test_pen_5_a_teammates_dq_does_not_escalate_the_next_event(organizer: User) -> None:
    # PEN-4, PEN-5 (CS 1.3: the same violator repeating the same violation)
    first = _team_event(organizer)
    head = staff(first, "head", StaffRole.Role.HEAD_JUDGE)
    members = list(Player.objects.filter(event=first, team__name="チーム0").order_by("seat"))
    svc.issue_penalty(first, by=Staff(head), player=members[0], infraction="INF-9")
    copy = Penalty.objects.get(player=members[1])
    assert copy.team_source_id is not None and fresh(members[1]).disqualified
    exported = database.export_database(first, by=Staff(head), source="here")["records"]
    assert {(r["card_game_id"], r["team_consequence"]) for r in exported} == {
        (members[0].card_game_id, False),
        (members[1].card_game_id, True),
        (members[2].card_game_id, True),
    }
    second = make_event(organizer, 0, name="次の大会")
    again = registration.register_player(
        second, by=Staff(organizer), name=members[1].name, card_game_id=members[1].card_game_id
    )
    violator = registration.register_player(
        second, by=Staff(organizer), name=members[0].name, card_game_id=members[0].card_game_id
    )
    assert not penalty_history.suggestion(second, again, "INF-9").escalated  # never penalised themself
    rows = penalty_history.history(again.card_game_id)
    assert rows and all(r["team_consequence"] for r in rows)
    # The member who did it has an own DQ on record (it is already the top of the ladder).
    assert [r["team_consequence"] for r in penalty_history.history(violator.card_game_id)] == [False]


def test_pen_5_imported_team_consequences_stay_marked(organizer: User) -> None:
    # PEN-5: between servers of a series the mark travels with the record.
    event = make_event(organizer, 2)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    p = player(event, 0)
    data = {
        "format": database.FORMAT,
        "source": "elsewhere",
        "records": [
            {
                "key": "elsewhere:1",
                "card_game_id": p.card_game_id,
                "infraction": "INF-2",
                "rung": "dq",
                "event_name": "チーム戦",
                "event_date": "2026-11-01",
                "team_consequence": True,
            }
        ],
    }
    assert database.import_database(event, by=Staff(head), data=data) == 1
    assert penalty_history.suggestion(event, p, "INF-2").rung == "warning"  # the CS default, not one rung above a DQ


# --- 8. the prize of a DQ is the one decided at that point (CS 1.2 A) ---------------------------------------

RANKS3 = [core_prizes.PrizeRank("1st", 1, 1), core_prizes.PrizeRank("2nd", 2, 2), core_prizes.PrizeRank("3rd", 3, 3)]


def test_pen_2_a_dq_downgrade_starts_from_the_place_held_at_the_dq() -> None:
    # PEN-2 (CS 1.2 A: その時点で決まっていた受賞資格): x had 1st secured when disqualified, 4th on paper.
    sanction = core_prizes.Sanction(downgrade_steps=1, decided_place=1, disqualified=True)
    awards = core_prizes.award(RANKS3, [["a"], ["b"], ["c"], ["x"]], {"x": sanction})
    assert [r.entrants for r in awards.ranks] == [("a",), ("x",), ("b",)]
    assert awards.ranks[1].downgraded == ("x",) and awards.no_prize == ()


def test_pen_2_a_dq_before_the_last_swiss_round_has_nothing_decided(organizer: User) -> None:
    # PEN-2, CS 1.2 A: disqualified after round 2 of 3, the leader had secured nothing (a provisional standing
    # is not 決まっていた): no prize, whatever round 3 gives the others (issue 23 finding 1: it gave 2nd).
    event = make_event(organizer, 8, swiss_rounds=3)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    prizes.set_prize_ranks(
        event, by=Staff(organizer), ranks=[("1st", 1, 1, False), ("2nd", 2, 2, False), ("3rd", 3, 4, False)]
    )
    for _ in range(2):
        play(event, organizer, pair(event, organizer))
    leader = Player.objects.get(pk=int(prizes.final_order(event)[0][0]))
    pen = svc.issue_penalty(
        event, by=Staff(head), player=leader, infraction="INF-9", rung="dq-downgrade", reason="less clear"
    )
    assert pen.decided_place is None
    play(event, organizer, pair(event, organizer))  # round 3 without the disqualified player
    awards = prizes.prize_standings(event).awards
    assert awards is not None and awards.prize_of(str(leader.pk)) is None and str(leader.pk) in awards.no_prize
    assert [len(r.entrants) for r in awards.ranks] == [1, 1, 2]  # the prizes go to the others


def test_pen_2_a_dq_after_the_last_swiss_round_starts_from_the_swiss_place(organizer: User) -> None:
    # PEN-2, CS 1.2 A: every Swiss round over (no cut), the Swiss place is decided; one step below 1st is 2nd.
    event = make_event(organizer, 8, swiss_rounds=3)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    prizes.set_prize_ranks(
        event, by=Staff(organizer), ranks=[("1st", 1, 1, False), ("2nd", 2, 2, False), ("3rd", 3, 4, False)]
    )
    for _ in range(3):
        play(event, organizer, pair(event, organizer))
    order = prizes.final_order(event)
    leader = Player.objects.get(pk=int(order[0][0]))
    pen = svc.issue_penalty(
        event, by=Staff(head), player=leader, infraction="INF-9", rung="dq-downgrade", reason="less clear"
    )
    assert pen.decided_place == 1
    awards = prizes.prize_standings(event).awards
    assert awards is not None and awards.prize_of(str(leader.pk)) == 1  # 2nd: one step below 1st
    assert str(leader.pk) in awards.ranks[1].downgraded and awards.ranks[0].entrants == (order[1][0],)


# --- 3. team prizes (CS 1.2: 該当のプレイヤー及びチーム) ----------------------------------------------------


def test_pen_2_team_prizes_rank_teams_and_downgrade_the_team(organizer: User) -> None:
    # PEN-2, PEN-4: a member's match loss with downgrade lowers the team's prize; the next team is promoted.
    event = _team_event(organizer, teams=4)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    prizes.set_prize_ranks(event, by=Staff(organizer), ranks=[("優勝", 1, 1, False), ("準優勝", 2, 2, False)])
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    for m in rnd.matches.all():
        result_services.enter_result(m, by=Staff(organizer), result=A_WINS())
    order = prizes.final_order(event)
    teams = {str(t.pk) for t in Team.objects.filter(event=event)}
    assert {e for g in order for e in g} == teams  # the entrants are teams
    rnd2 = round_services.pair_next_round(event, by=Staff(organizer))
    top = Team.objects.get(pk=int(order[0][0]))
    seat = rnd2.matches.filter(player_a__team=top).first() or rnd2.matches.filter(player_b__team=top).first()
    assert seat is not None
    member = seat.player_a if seat.player_a.team_id == top.pk else seat.player_b
    svc.issue_penalty(
        event, by=Staff(head), player=member, infraction="INF-3", rung="match-loss-downgrade", reason="again"
    )
    standings = prizes.prize_standings(event)
    assert standings.teams and standings.names[str(top.pk)] == top.name
    sanctions = prizes.sanctions(event)
    assert set(sanctions) == {str(top.pk)} and sanctions[str(top.pk)].downgrade_steps == 1  # the team's, once
