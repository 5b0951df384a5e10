"""The penalty ladder and the prize (CS 1.2, CS 1.3; RULES.md PEN-2, PEN-8), as properties over random final
orders, prize tables and moments: a heavier rung never leaves the entrant a better prize, and a DQ's prize
depends only on what was secured before it. Players and teams go through the same ``award``."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from taikai.core.pairing.types import PlayerId
from taikai.core.placings import secured_places
from taikai.core.prizes import Awards, PrizeRank, Sanction, award, penalty_sanction
from taikai.core.ruleset import builtin
from taikai.core.sheet import Entrant, EventFacts, RoundFacts, Stage, Table, sheet

CS = builtin("harajuku-cs-1.2")


def _ranks(sizes: list[int]) -> list[PrizeRank]:
    out, first = [], 1
    for k, size in enumerate(sizes):
        out.append(PrizeRank(f"prize{k}", first, first + size - 1))
        first += size
    return out


def _value(a: Awards, who: str) -> float:
    """How good the entrant's prize is, lower is better: a prize held 2i, a playoff for it 2i+1, none inf."""
    for i, r in enumerate(a.ranks):
        if who in r.entrants:
            return 2 * i
        if r.playoff is not None and who in r.playoff.candidates:
            return 2 * i + 1
    return math.inf


@st.composite
def moments(draw: st.DrawFn) -> tuple[list[PrizeRank], list[list[str]], int | None, int]:
    """A prize table, the final order of the others (tied groups), the place x has secured at the moment
    (None: nothing yet, e.g. Swiss rounds to play) and the place x would end on playing on after a match loss."""
    ranks = _ranks(draw(st.lists(st.integers(1, 4), min_size=1, max_size=5)))
    others = [f"p{i}" for i in range(draw(st.integers(2, 14)))]
    groups: list[list[str]] = []
    for e in others:
        if len(groups) > 0 and draw(st.booleans()) and draw(st.booleans()):
            groups[-1].append(e)
        else:
            groups.append([e])
    secured = draw(st.none() | st.integers(1, len(others) + 1))
    lost_at = secured if secured is not None else draw(st.integers(1, len(others) + 1))
    return ranks, groups, secured, lost_at


def _with_x(groups: list[list[str]], place: int) -> list[list[str]]:
    """The order with x placed at ``place``: tied with the group that holds that place, if any, else after all."""
    out, at, placed = [], 1, False
    for g in groups:
        if not placed and at <= place < at + len(g):
            out.append(["x", *g])
            placed = True
        else:
            out.append(list(g))
        at += len(g)
    return out if placed else [*out, ["x"]]


@settings(max_examples=400, deadline=None)
@given(moments(), st.integers(1, 4))
def test_pen_8_cs_1_3_a_heavier_rung_never_leaves_a_better_prize(
    moment: tuple[list[PrizeRank], list[list[str]], int | None, int], steps: int
) -> None:
    # CS 1.3 (注意＜…＜マッチの敗北＜受賞資格を下げるマッチの敗北＜失格＜受賞資格を下げる失格＜受賞資格を失う失格,
    # 右側ほど重い), PEN-2, PEN-8: at the same moment each rung from 4 (match loss) to 8 leaves x no better off.
    ranks, groups, secured, lost_at = moment
    order = _with_x(groups, lost_at)  # rungs 4 and 5 lose the match now and play on to ``lost_at``

    def dq(downgrade: int, prize_loss: bool = False) -> Sanction:
        return penalty_sanction(drop=True, downgrade_steps=downgrade, prize_loss=prize_loss, decided_place=secured)

    ladder = [
        Sanction(),  # 4 マッチの敗北
        Sanction(downgrade_steps=1),  # 5 受賞資格を一段階下げるマッチの敗北
        dq(0),  # 6 失格
        dq(1),  # 7 受賞資格を一段階下げる失格
        dq(steps),  # 7, with the steps the judge added
        dq(0, prize_loss=True),  # 8 受賞資格を失う失格
    ]
    values = [_value(award(ranks, order, {"x": s}), "x") for s in ladder]
    assert values == sorted(values), values
    if secured is None:  # nothing decided yet: no DQ leaves a prize
        assert values[2:] == [math.inf] * 4


@settings(max_examples=300, deadline=None)
@given(moments(), moments(), st.integers(0, 3), st.booleans())
def test_pen_2_cs_1_2_a_a_dqs_prize_depends_only_on_what_was_secured_before_it(
    moment: tuple[list[PrizeRank], list[list[str]], int | None, int],
    later: tuple[list[PrizeRank], list[list[str]], int | None, int],
    steps: int,
    teams: bool,
) -> None:
    # PEN-2, CS 1.2 A (その時点で決まっていた受賞資格): whatever the others play after the DQ (two different final
    # orders), x's prize is the same; entrants are players or teams alike (CS 1.1/1.2: one award).
    ranks, groups, secured, _ = moment
    rest = [[e for e in g] for g in later[1]]
    x = "team-x" if teams else "x"
    s = penalty_sanction(drop=True, downgrade_steps=steps, prize_loss=False, decided_place=secured)
    first = award(ranks, [*groups, [x]], {x: s})
    second = award(ranks, [[x], *rest], {x: s})
    assert _value(first, x) == _value(second, x)


def _bracket(rounds: list[list[tuple[str, str, str]]], swiss: list[str]) -> tuple[dict[PlayerId, int], list[str]]:
    ids = list(swiss)
    facts = EventFacts(
        tuple(Entrant(i) for i in ids),
        (
            RoundFacts(1, Stage.SWISS, tuple(Table(a, b, "a") for a, b in zip(ids[::2], ids[1::2], strict=True))),
            *(
                RoundFacts(2 + k, Stage.ELIMINATION, tuple(Table(a, b, r) for a, b, r in tables))
                for k, tables in enumerate(rounds)
            ),
        ),
    )
    order = [(pid, k + 1) for k, pid in enumerate(swiss)]
    return secured_places(sheet(facts, CS), order, swiss_over=True), ids


def test_pen_2_a_semifinalist_has_best_4_secured_the_finalists_2nd() -> None:
    # PEN-2, CS 1.2 A: the stage reached, not the seed: during a semifinal both semifinalists have 3rd (ベスト4)
    # secured; a semifinal winner has 2nd; the Swiss players outside the cut keep their Swiss place.
    swiss = ["a", "b", "c", "d", "e", "f"]
    during, _ = _bracket([[("a", "d", ""), ("b", "c", "")]], swiss)
    assert during["a"] == during["d"] == during["b"] == 3 and during["e"] == 5 and during["f"] == 6
    half, _ = _bracket([[("a", "d", "b"), ("b", "c", "")]], swiss)
    assert half["d"] == 2 and half["a"] == 3 and half["b"] == 3  # d won: through to the final
    final, _ = _bracket([[("a", "d", "b"), ("b", "c", "a")], [("d", "b", "a")]], swiss)
    assert final["d"] == 1 and final["b"] == 2 and final["a"] == final["c"] == 3


def test_pen_2_nothing_is_secured_in_swiss_before_the_last_round() -> None:
    # PEN-2, CS 1.2 A: standings in progress are not decided.
    facts = EventFacts(tuple(Entrant(i) for i in "abcd"), (RoundFacts(1, Stage.SWISS, (Table("a", "b", "a"),)),))
    line = sheet(facts, CS)
    assert secured_places(line, [("a", 1), ("b", 2), ("c", 3), ("d", 4)], swiss_over=False) == {}
    cut = secured_places(line, [("a", 1), ("b", 2)], swiss_over=True, cut=["a", "b"])
    assert cut == {"a": 2, "b": 2}  # the coming top 2: the final's loser's place


def test_a_semifinalist_still_playing_is_said_to_be_in_the_top_4() -> None:
    # PEN-2 (the words beside a secured place): during a semifinal the placings say "still playing (top 4)",
    # as the secured place is 3rd; they said top 2 before the table was decided.
    from taikai.core.placings import Stage as PlacingStage
    from taikai.core.placings import placings

    ids = ["a", "b", "c", "d", "e", "f"]
    facts = EventFacts(
        tuple(Entrant(i) for i in ids),
        (
            RoundFacts(1, Stage.SWISS, (Table("a", "b", "a"), Table("c", "d", "a"), Table("e", "f", "a"))),
            RoundFacts(2, Stage.ELIMINATION, (Table("a", "d", ""), Table("b", "c", "a"))),
        ),
    )
    placed = {p.id: p for p in placings(sheet(facts, CS), [(pid, k + 1) for k, pid in enumerate(ids)])}
    assert (placed["a"].stage, placed["a"].best) == (PlacingStage.IN_BRACKET, 4)
    assert (placed["b"].stage, placed["b"].best) == (PlacingStage.IN_BRACKET, 2)  # through to the final
    assert (placed["c"].stage, placed["c"].best) == (PlacingStage.BEST, 4)


def _one_round_cut_of_two(swiss_rounds: int, declined: tuple[str, ...] = ()) -> dict[str, int | None]:
    """Four players, round 1 played (a beat b, c beat d) of ``swiss_rounds``, a top 2 planned: each one's decided
    place (None: nothing secured)."""
    from taikai.core.placings import decided_place
    from taikai.core.progress import EventFormat, RoundPlan

    facts = EventFacts(
        tuple(Entrant(i) for i in "abcd"),
        (RoundFacts(1, Stage.SWISS, (Table("a", "b", "a"), Table("c", "d", "a"))),),
    )
    plan, cut = RoundPlan(swiss_rounds, 2), EventFormat.SWISS_CUT
    return {
        e: decided_place(facts, e, CS, seed=7, plan=plan, format=cut, closed=False, declined=declined) for e in "abcd"
    }


def test_pen_2_with_the_top_cut_next_its_players_have_the_finals_losers_place_secured() -> None:
    # PEN-2, CS 1.2 A: the Swiss is over and the top 2 comes next: the two it takes have 2nd secured (the final's
    # loser), the rest their Swiss place; a player who declined their place is not taken, the next one is.
    taken = _one_round_cut_of_two(swiss_rounds=1)
    assert taken["a"] == taken["c"] == 2 and sorted([taken["b"], taken["d"]]) == [3, 4]  # ranked 3rd, 4th by draw
    declined = _one_round_cut_of_two(swiss_rounds=1, declined=("c",))
    assert declined["a"] == 2 and declined["c"] == 3
    assert sorted([declined["b"], declined["d"]]) == [2, 4]  # the better of the two moves up into the cut


def test_pen_2_before_the_last_swiss_round_the_coming_cut_secures_nothing() -> None:
    # PEN-2, CS 1.2 A: one Swiss round of two played: nothing is decided yet, cut or not.
    assert _one_round_cut_of_two(swiss_rounds=2) == dict.fromkeys("abcd")
