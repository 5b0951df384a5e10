"""The event sheet: the one place a result becomes points, read alike by pairing and standings.

RULES.md gives match points, byes and late entries no IDs of their own (they are ruleset
parameters: scoring.win/draw/loss/bye, scoring.late_entry_missed_round); the IDs below are
the rules that do apply (PEN-1 drops and results from penalties, MATCH-2 in the bracket).
"""

from __future__ import annotations

import dataclasses
from typing import TypedDict, Unpack

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taikai.core import standings
from taikai.core.pairing import swiss
from taikai.core.pairing.team import team_result
from taikai.core.ruleset import Ruleset, builtin
from taikai.core.sheet import (
    Entrant,
    EventFacts,
    Reached,
    RoundFacts,
    SheetError,
    Stage,
    Table,
    advancing,
    pairing_input,
    sheet,
)

RULES = builtin("dkt-2011")
SWISS, ELIM = Stage.SWISS, Stage.ELIMINATION


class _ScoringChanges(TypedDict, total=False):
    win: int
    draw: int
    loss: int
    bye: int
    late_entry_missed_round: str


def _with_scoring(ruleset: Ruleset, **changes: Unpack[_ScoringChanges]) -> Ruleset:
    return dataclasses.replace(ruleset, scoring=dataclasses.replace(ruleset.scoring, **changes))


def _facts(ids: str, *rounds: tuple[Stage, tuple[Table, ...]], **entrants: Entrant) -> EventFacts:
    people = tuple(entrants.get(i, Entrant(i)) for i in ids)
    return EventFacts(people, tuple(RoundFacts(n, stage, tables) for n, (stage, tables) in enumerate(rounds, 1)))


def test_win_draw_loss_and_bye_become_the_rulesets_points() -> None:
    facts = _facts("abc", (SWISS, (Table("a", "b", "a"), Table("c"))), (SWISS, (Table("a", "c", "draw"), Table("b"))))
    s = sheet(facts, RULES)
    sc = RULES.scoring
    assert s.line("a").points == sc.win + sc.draw and (s.line("a").wins, s.line("a").draws) == (1, 1)
    assert s.line("b").points == sc.loss + sc.bye and (s.line("b").losses, s.line("b").byes) == (1, 1)
    assert s.line("c").wins == 1 and s.line("c").byes == 1  # a bye counts as a match win
    assert s.line("a").opponents == ("b", "c") and s.line("c").opponents == ("a",)


def test_points_follow_the_ruleset_not_literals() -> None:
    odd = _with_scoring(RULES, win=5, draw=2, loss=1, bye=4)
    s = sheet(_facts("abcd", (SWISS, (Table("a", "b", "b"), Table("c", "d", "draw")))), odd)
    assert [s.line(x).points for x in "abcd"] == [1, 5, 2, 2]


def test_an_unconfirmed_table_is_an_opponent_met_but_gives_no_points() -> None:
    s = sheet(_facts("ab", (SWISS, (Table("a", "b", ""),))), RULES)
    a = s.line("a")
    assert a.opponents == ("b",) and a.decided_opponents == () and a.points == 0 and a.matches == 0
    assert pairing_input(s, 2, 0).players[0].opponents == ("b",)  # no rematch while the result is pending


def test_a_late_entry_takes_a_loss_for_each_swiss_round_before_its_first() -> None:
    lossy = _with_scoring(RULES, loss=1)  # a loss worth a point shows that missed rounds are scored
    facts = _facts(
        "abz",
        (SWISS, (Table("a", "b", "a"),)),
        (SWISS, (Table("a", "b", "b"),)),
        (SWISS, (Table("a", "z", "b"), Table("b"))),
        z=Entrant("z", first_round=3),
    )
    z = sheet(facts, lossy).line("z")
    assert (z.missed, z.losses, z.wins, z.points) == (2, 2, 1, 2 * 1 + lossy.scoring.win)
    assert z.matches == 3  # the missed losses count as matches played (win rate)


def test_a_late_entry_under_none_keeps_no_record_for_the_missed_rounds() -> None:
    none = _with_scoring(RULES, late_entry_missed_round="none", loss=1)
    facts = _facts("abz", (SWISS, (Table("a", "b", "a"),)), z=Entrant("z", first_round=2))
    z = sheet(facts, none).line("z")
    assert (z.missed, z.losses, z.points, z.matches) == (1, 0, 0, 0)


def test_the_late_entry_rule_is_decided_once_for_pairing_and_standings() -> None:
    lossy = _with_scoring(RULES, loss=1)
    facts = _facts("abcz", (SWISS, (Table("a", "b", "a"), Table("c"))), z=Entrant("z", first_round=2))
    s = sheet(facts, lossy)
    paired = {p.id: p.points for p in pairing_input(s, 2, 7).players}
    ranked = {r.id: r.points for r in standings.rank(s, lossy)}
    assert paired == ranked and paired["z"] == 1


def test_a_dropped_or_disqualified_player_keeps_their_record_and_is_not_paired() -> None:  # PEN-1
    facts = _facts("abcd", (SWISS, (Table("a", "b", "b"), Table("c", "d", "a"))), b=Entrant("b", dropped_after=1))
    s = sheet(facts, RULES)
    assert s.line("b").dropped and s.line("b").points == RULES.scoring.win
    result = swiss.pair(pairing_input(s, 2, 1))
    assert "b" not in {x for p in result.pairings for x in p} | set(result.byes)


def test_a_penalty_match_loss_is_just_the_result_it_sets() -> None:  # PEN-1: match loss -> the match is lost
    played = sheet(_facts("ab", (SWISS, (Table("a", "b", "b"),))), RULES)
    assert played.line("a").points == RULES.scoring.loss and played.line("b").points == RULES.scoring.win


def test_the_bracket_gives_no_points_but_the_stage_reached() -> None:
    facts = _facts(
        "abcd",
        (SWISS, (Table("a", "b", "a"), Table("c", "d", "a"))),
        (ELIM, (Table("a", "d", "a"), Table("c", "b", "b"))),
        (ELIM, (Table("a", "b", "b"),)),
    )
    s = sheet(facts, RULES)
    assert s.line("a").points == RULES.scoring.win and s.line("a").wins == 1  # Swiss only
    assert s.line("b").reached == Reached.CHAMPION and s.advancing == ("b",)
    assert s.line("a").reached == Reached.ELIMINATION and s.line("a").eliminated
    assert (s.line("d").bracket_rounds, s.line("a").bracket_rounds) == (1, 2)


def test_swiss_only_players_and_an_unfinished_final_have_no_champion() -> None:
    facts = _facts("abc", (SWISS, (Table("a", "b", "a"), Table("c"))), (ELIM, (Table("a", "b", ""),)))
    s = sheet(facts, RULES)
    assert s.line("c").reached == Reached.SWISS
    assert all(line.reached != Reached.CHAMPION for line in s.lines) and s.advancing == ()


def test_advancing_keeps_table_order_with_byes_in_place() -> None:
    r = RoundFacts(1, ELIM, (Table(1), Table(4, 5, "b"), Table(2), Table(3, 6, "a")))
    assert advancing(r) == (1, 5, 2, 3)


def test_a_draw_does_not_finish_a_bracket_table() -> None:  # MATCH-2: no match draws in elimination
    assert not RoundFacts(1, ELIM, (Table(1, 2, "draw"),)).complete
    assert RoundFacts(1, SWISS, (Table(1, 2, "draw"),)).complete


@pytest.mark.parametrize(
    "facts, code",
    [
        (_facts("ab", (SWISS, (Table("a", "x", "a"),))), "unknown-player"),
        (_facts("ab", (SWISS, (Table("a", "b", "win"),))), "bad-result"),
        (_facts("ab", (SWISS, (Table("a", "a", "a"),))), "bad-result"),
        (EventFacts((Entrant("a"), Entrant("a"))), "duplicate-player"),
    ],
)
def test_impossible_facts_are_refused_with_a_code(facts: EventFacts, code: str) -> None:
    with pytest.raises(SheetError) as caught:
        sheet(facts, RULES)
    assert caught.value.problem.code == code


# --- pairing and standings see the same points --------------------------------------------------


def _recount(facts: EventFacts, ruleset: Ruleset) -> dict[object, int]:
    """An independent tally of the facts, to compare both readers of the sheet with."""
    sc = ruleset.scoring
    points: dict[object, int] = {e.id: 0 for e in facts.entrants}
    for r in facts.rounds:
        if r.stage != SWISS:
            continue
        seated = {t.a for t in r.tables} | {t.b for t in r.tables}
        for t in r.tables:
            if t.b is None:
                points[t.a] += sc.bye
            elif t.result == "draw":
                points[t.a] += sc.draw
                points[t.b] += sc.draw
            elif t.result:
                winner, loser = (t.a, t.b) if t.result == "a" else (t.b, t.a)
                points[winner] += sc.win
                points[loser] += sc.loss
        for e in facts.entrants:
            late = e.first_round is not None and r.number < e.first_round and e.id not in seated
            if late and sc.late_entry_missed_round == "loss":
                points[e.id] += sc.loss
    return points


def _assert_same_points(facts: EventFacts, ruleset: Ruleset, number: int, seed: int) -> None:
    s = sheet(facts, ruleset)
    paired = {p.id: p.points for p in pairing_input(s, number, seed).players}
    ranked = {r.id: r.points for r in standings.rank(s, ruleset, seed)}
    assert paired == ranked == _recount(facts, ruleset)


rulesets = st.builds(
    lambda loss, late: _with_scoring(RULES, loss=loss, late_entry_missed_round=late),
    st.integers(0, 1),
    st.sampled_from(["loss", "none"]),
)


@settings(max_examples=60)
@given(data=st.data(), ruleset=rulesets, size=st.integers(2, 9), rounds=st.integers(1, 5), seed=st.integers(0, 999))
def test_pairing_and_standings_see_the_same_points(
    data: st.DataObject, ruleset: Ruleset, size: int, rounds: int, seed: int
) -> None:
    entrants = [Entrant(k) for k in range(size)]
    played: list[RoundFacts] = []
    for number in range(1, rounds + 1):
        if number > 1 and data.draw(st.booleans(), label="late entry"):
            entrants.append(Entrant(len(entrants), first_round=number))
        active = [k for k, e in enumerate(entrants) if e.dropped_after is None]
        if number > 1 and len(active) > 2 and data.draw(st.booleans(), label="drop"):
            k = data.draw(st.sampled_from(active), label="who drops")
            entrants[k] = dataclasses.replace(entrants[k], dropped_after=number - 1)
        facts = EventFacts(tuple(entrants), tuple(played))
        _assert_same_points(facts, ruleset, number, seed)
        paired = swiss.pair(pairing_input(sheet(facts, ruleset), number, seed))
        results = data.draw(st.lists(st.sampled_from(["a", "b", "draw", ""]), min_size=len(paired.pairings)))
        tables = [Table(a, b, r) for (a, b), r in zip(paired.pairings, results, strict=False)]
        played.append(RoundFacts(number, SWISS, (*tables, *(Table(x) for x in paired.byes))))
    _assert_same_points(EventFacts(tuple(entrants), tuple(played)), ruleset, rounds + 1, seed)


@settings(max_examples=30)
@given(data=st.data(), teams=st.integers(2, 7), rounds=st.integers(1, 4), seed=st.integers(0, 999))
def test_team_pairing_and_team_standings_see_the_same_points(
    data: st.DataObject, teams: int, rounds: int, seed: int
) -> None:
    seat_result = st.lists(st.sampled_from(["a", "b", "draw"]), min_size=3, max_size=3)
    entrants = tuple(Entrant(f"T{k}") for k in range(teams))
    played: list[RoundFacts] = []
    for number in range(1, rounds + 1):
        facts = EventFacts(entrants, tuple(played))
        _assert_same_points(facts, RULES, number, seed)
        paired = swiss.pair(pairing_input(sheet(facts, RULES), number, seed))
        tables = [Table(a, b, team_result(data.draw(seat_result), RULES)) for a, b in paired.pairings]
        played.append(RoundFacts(number, SWISS, (*tables, *(Table(x) for x in paired.byes))))
    _assert_same_points(EventFacts(entrants, tuple(played)), RULES, rounds + 1, seed)


def test_the_sheets_columns_are_its_lines_fields_and_its_lines_are_made_once() -> None:
    # the standings read the columns, pairing and the pages the lines: the same records either way
    facts = _facts(
        "abcd",
        (SWISS, (Table("a", "b", "a"), Table("c", "d", ""))),
        (SWISS, (Table("a", "c", "draw"), Table("b"))),
        d=Entrant("d", dropped_after=1),
    )
    s = sheet(facts, RULES)
    for f in dataclasses.fields(s.lines[0]):
        assert s.columns[f.name] == tuple(getattr(line, f.name) for line in s.lines)
    assert s.lines is s.lines and s == sheet(facts, RULES) and hash(s) == hash(sheet(facts, RULES))
    assert s != sheet(facts.before(2), RULES) and s.points() == {ln.id: ln.points for ln in s.lines}
