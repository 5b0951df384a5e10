"""The time procedure and core.match agree, by property: every match played by the rules is accepted, and a
record is refused exactly when no play through the procedure produces it (RULES.md TIME-E, TIME-S, MATCH-1)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taikai.core import time_procedure as tp
from taikai.core.match import MatchRecordError, Next, evaluate
from taikai.core.match_record import Drawn, Duel, Format, LifePoints, MatchRecord, Player, TimedOut, Won
from taikai.core.ruleset import builtin
from taikai.core.time_procedure import Input, Phase, TimeProcedureError

DKT = builtin("dkt-2011")
A, B = Player.A, Player.B


# --- properties: the state machine and core.match agree --------------------------------------------


@st.composite
def played_matches(draw: st.DrawFn, fmt: Format | None = None) -> tp.TimeProcedure | MatchRecord:
    """A match played by the rules: normal duels, possibly time called, driven to its end."""
    fmt = fmt or draw(st.sampled_from(list(Format)))
    rec = MatchRecord(fmt)
    results: list[Duel] = [Won(A), Won(B), Drawn()]  # a drawn duel in either format (MATCH-2 forbids match draws)
    while not evaluate(rec, DKT).finished:
        if evaluate(rec, DKT).next is Next.EXTRA_DUEL:  # 1-1-1 in single elimination (TIED_AFTER_MOST_DUELS)
            extras: list[Duel] = [Won(A, extra_duel=True), Won(B, extra_duel=True), Drawn(extra_duel=True)]
            rec = replace(rec, duels=(*rec.duels, draw(st.sampled_from(extras))))
            continue
        action = draw(st.sampled_from(["duel", "duel", "time", "between"]))
        if action == "duel":
            rec = replace(rec, duels=(*rec.duels, draw(st.sampled_from(results))))
            continue
        if action == "between":
            proc = tp.call_time_between_duels(rec, DKT)
        else:
            proc = tp.call_time(rec, DKT, draw(st.sampled_from(list(Player))))
        return drive(draw, proc)
    return rec


def drive(draw: st.DrawFn, proc: tp.TimeProcedure) -> tp.TimeProcedure:
    lp = st.integers(min_value=1, max_value=4)  # small, so equal LP come up often
    while proc.phase is not Phase.DONE:
        replayed = proc.phase is Phase.EXTRA_DUEL_TURN and any(
            isinstance(d, Drawn) and d.extra_duel for d in proc.record.duels
        )  # a drawn extra duel is played again (TIME-E-6 reading): once is enough to end the generation
        step = draw(st.sampled_from(sorted(proc.expects - ({Input.DRAW} if replayed else set()))))
        if step is Input.WIN:
            proc = tp.duel_won(proc, draw(st.sampled_from(list(Player))))
        elif step is Input.DRAW:
            proc = tp.duel_drawn(proc)
        elif step is Input.TURN_END:
            proc = tp.turn_ended(proc)
        elif step is Input.LIFE_POINTS:
            proc = tp.life_points(proc, draw(lp) * 1000, draw(lp) * 1000)
        else:
            proc = tp.first_player(proc, draw(st.sampled_from(list(Player))))
    return proc


def final_record(played: tp.TimeProcedure | MatchRecord) -> MatchRecord:
    return played.record if isinstance(played, tp.TimeProcedure) else played


@settings(max_examples=300, deadline=None)
@given(played_matches())
def test_no_record_played_by_the_rules_is_refused(played: tp.TimeProcedure | MatchRecord) -> None:
    state = evaluate(final_record(played), DKT)
    assert state.finished
    if isinstance(played, tp.TimeProcedure):
        assert state == played.state


@settings(max_examples=300, deadline=None)
@given(played_matches(Format.ELIMINATION))
def test_time_e_6_a_finished_single_elimination_match_always_has_a_winner(
    played: tp.TimeProcedure | MatchRecord,
) -> None:  # MATCH-2
    state = evaluate(final_record(played), DKT)
    assert state.finished and state.winner is not None and not state.draw


@settings(max_examples=300, deadline=None)
@given(played_matches(Format.SWISS), st.integers(min_value=1, max_value=9000), st.integers(min_value=1, max_value=9000))
def test_time_s_7_a_swiss_outcome_after_time_depends_only_on_duel_wins(
    played: tp.TimeProcedure | MatchRecord, lp_a: int, lp_b: int
) -> None:
    rec = final_record(played)
    state = evaluate(rec, DKT)
    timed = [i for i, d in enumerate(rec.duels) if isinstance(d, TimedOut)]
    if not (rec.time_called_between_duels or timed or any(getattr(d, "time_called", False) for d in rec.duels)):
        return
    leader = state.score.leader
    assert (state.winner, state.draw) == (leader, leader is None)
    # Other LP with the same duel result give the same match outcome.
    for i in timed:
        old = rec.duels[i]
        assert isinstance(old, TimedOut)
        winner = old.lp.leader
        new_lp = LifePoints(max(lp_a, lp_b) + 1, min(lp_a, lp_b)) if winner is A else LifePoints(lp_b, lp_b)
        if winner is B:
            new_lp = LifePoints(min(lp_a, lp_b), max(lp_a, lp_b) + 1)
        duels = (*rec.duels[:i], TimedOut(new_lp), *rec.duels[i + 1 :])
        other = evaluate(replace(rec, duels=duels), DKT)
        assert (other.winner, other.draw, other.score) == (state.winner, state.draw, state.score)


def impossible_variants(rec: MatchRecord) -> list[tuple[str, MatchRecord]]:
    """Mutations of a finished, rule-abiding record that the rules cannot produce."""
    variants = [("an extra duel after the end", replace(rec, duels=(*rec.duels, Won(B, extra_duel=True))))]
    if not rec.time_called_between_duels and not any(d.extra_duel for d in rec.duels):
        # (With time called between duels, an appended regular duel would just move that moment; after 1-1-1
        # in single elimination the extra duel is due with or without time.)
        variants.append(("a duel after the end", replace(rec, duels=(*rec.duels, Won(A)))))
        variants.append(("time between duels after the end", replace(rec, time_called_between_duels=True)))
    for i, duel in enumerate(rec.duels):
        if isinstance(duel, TimedOut):
            bad = TimedOut(LifePoints(-duel.lp.a, duel.lp.b), duel.sudden_death, duel.extra_duel)
            variants.append(("negative LP", replace(rec, duels=(*rec.duels[:i], bad, *rec.duels[i + 1 :]))))
            sd = TimedOut(LifePoints(duel.lp.a + 1, duel.lp.b), A, duel.extra_duel)
            variants.append(("sudden death, unequal LP", replace(rec, duels=(*rec.duels[:i], sd, *rec.duels[i + 1 :]))))
        if rec.format is Format.SWISS and not duel.extra_duel:
            extra = Won(A, extra_duel=True)
            variants.append(
                ("an extra duel in Swiss", replace(rec, duels=(*rec.duels[:i], extra, *rec.duels[i + 1 :])))
            )
            eq = TimedOut(LifePoints(1000, 1000), sudden_death=B)
            variants.append(("sudden death in Swiss", replace(rec, duels=(*rec.duels[:i], eq, *rec.duels[i + 1 :]))))
        if duel.extra_duel and not isinstance(duel, TimedOut):
            twice = (*rec.duels[:i], Drawn(time_called=True, extra_duel=True), *rec.duels[i + 1 :])
            variants.append(("time called in the extra duel", replace(rec, duels=twice)))
    return variants


@settings(max_examples=300, deadline=None)
@given(played_matches())
def test_every_impossible_variant_of_a_played_match_is_refused(played: tp.TimeProcedure | MatchRecord) -> None:
    for name, variant in impossible_variants(final_record(played)):
        with pytest.raises(MatchRecordError) as caught:
            evaluate(variant, DKT)
        duel = caught.value.problem.params["duel"]
        assert 0 <= duel <= len(variant.duels), name


# --- every refused record is impossible: an independent replay through the procedure ---------------


def replay(rec: MatchRecord) -> bool:
    """Can ``rec`` be played? Normal duels one by one, then the judge's procedure for the time-called ones."""
    prior = MatchRecord(rec.format)
    proc: tp.TimeProcedure | None = None
    try:
        for duel in rec.duels:
            if proc is None and not duel.extra_duel and not _time_called(duel):
                if evaluate(prior, DKT).next is not Next.DUEL:
                    return False
                prior = replace(prior, duels=(*prior.duels, duel))
                continue
            if proc is None and duel.extra_duel:
                if rec.time_called_between_duels:
                    proc = tp.call_time_between_duels(prior, DKT)
                elif evaluate(prior, DKT).next is Next.EXTRA_DUEL:
                    # 1-1-1 in single elimination: the extra duel is played with no time called
                    proc = tp.TimeProcedure(DKT, prior, Phase.EXTRA_DUEL_RPS, evaluate(prior, DKT))
                else:
                    return False
            if proc is None:
                if rec.time_called_between_duels:
                    return False  # time cannot be called twice
                proc = tp.call_time(prior, DKT, A)
            elif proc.phase is Phase.EXTRA_DUEL_RPS and duel.extra_duel:
                proc = tp.first_player(proc, A)
            else:
                return False
            proc = _play_timed_duel(proc, duel)
            if proc is None:
                return False
        if rec.time_called_between_duels and proc is None:
            tp.call_time_between_duels(prior, DKT)
    except (TimeProcedureError, MatchRecordError):
        return False
    return True


def _time_called(duel: Duel) -> bool:
    return isinstance(duel, TimedOut) or duel.time_called


def _play_timed_duel(proc: tp.TimeProcedure, duel: Duel) -> tp.TimeProcedure | None:
    if isinstance(duel, Won):
        if duel.extra_duel and duel.time_called:
            return None
        return tp.duel_won(proc, duel.winner)
    if isinstance(duel, Drawn):
        return None if duel.extra_duel and duel.time_called else tp.duel_drawn(proc)
    if not duel.extra_duel and proc.phase is Phase.EXTRA_DUEL_TURN:
        return None
    while proc.phase in (Phase.FINISH_TURN, Phase.EXTRA_TURN, Phase.EXTRA_DUEL_TURN):
        proc = tp.turn_ended(proc)
    proc = tp.life_points(proc, duel.lp.a, duel.lp.b)
    if proc.phase is Phase.SUDDEN_DEATH:
        return proc if duel.sudden_death is None else tp.duel_won(proc, duel.sudden_death)
    return None if duel.sudden_death is not None else proc


any_duel: st.SearchStrategy[Duel] = st.one_of(
    st.builds(Won, st.sampled_from(list(Player)), st.booleans(), st.booleans()),
    st.builds(Drawn, st.booleans(), st.booleans()),
    st.builds(
        TimedOut,
        st.builds(LifePoints, st.sampled_from([-500, 0, 1000, 2000]), st.sampled_from([-500, 0, 1000, 2000])),
        st.none() | st.sampled_from(list(Player)),
        st.booleans(),
    ),
)


@settings(max_examples=1500, deadline=None)
@given(st.builds(MatchRecord, st.sampled_from(list(Format)), st.lists(any_duel, max_size=5).map(tuple), st.booleans()))
def test_a_record_is_refused_exactly_when_it_cannot_be_played(rec: MatchRecord) -> None:
    try:
        evaluate(rec, DKT)
    except MatchRecordError:
        accepted = False
    else:
        accepted = True
    assert accepted == replay(rec)


@st.composite
def near_valid_records(draw: st.DrawFn) -> MatchRecord:
    """A played match, cut short and perhaps with one duel or the between-duels flag changed."""
    rec = final_record(draw(played_matches()))
    duels = list(rec.duels[: draw(st.integers(min_value=0, max_value=len(rec.duels)))])
    if len(duels) > 0 and draw(st.booleans()):
        duels[draw(st.integers(min_value=0, max_value=len(duels) - 1))] = draw(any_duel)
    between = rec.time_called_between_duels if draw(st.booleans()) else draw(st.booleans())
    return replace(rec, duels=tuple(duels), time_called_between_duels=between)


@settings(max_examples=1500, deadline=None)
@given(near_valid_records())
def test_a_near_valid_record_is_refused_exactly_when_it_cannot_be_played(rec: MatchRecord) -> None:
    try:
        evaluate(rec, DKT)
    except MatchRecordError:
        accepted = False
    else:
        accepted = True
    assert accepted == replay(rec)
