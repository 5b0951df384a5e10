"""The duel record's one reader and writer: JSON and the result form's fields (STYLE habit 15)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taikai.core.match import evaluate
from taikai.core.match_json import (
    BASES,
    FormRow,
    RecordFormatError,
    Report,
    duel_json,
    duels_from_form,
    form_fields,
    form_rows,
    parse_record,
    parse_report,
    record_json,
    report_from_form,
    report_json,
)
from taikai.core.match_record import Drawn, Duel, Format, LifePoints, MatchRecord, Opening, Player, TimedOut, Won
from taikai.core.ruleset import builtin, parse_ruleset

DKT = builtin("dkt-2011")
A, B = Player.A, Player.B

players = st.sampled_from([A, B])
life_points = st.integers(min_value=0, max_value=9_999_999)  # what a person can type in the LP field
duels: st.SearchStrategy[Duel] = st.one_of(
    st.builds(Won, players, st.booleans(), st.booleans()),
    st.builds(Drawn, st.booleans(), st.booleans()),
    st.builds(TimedOut, st.builds(LifePoints, life_points, life_points), st.none() | players, st.booleans()),
)
openings = st.none() | st.builds(Opening, players, players)
reports = st.builds(Report, st.lists(duels, max_size=6).map(tuple), st.booleans(), st.sampled_from(BASES), openings)


def refused(reader: Any, *args: Any, **kwargs: Any) -> RecordFormatError:
    with pytest.raises(RecordFormatError) as caught:
        reader(*args, **kwargs)
    return caught.value


# --- round trips ----------------------------------------------------------------------------------


@given(report=reports, rows=st.integers(min_value=0, max_value=5), flip=st.booleans())
def test_a_report_written_to_form_fields_reads_back_the_same(report: Report, rows: int, flip: bool) -> None:
    assert report_from_form(form_fields(report, regular_rows=rows, flip=flip), flip=flip) == report


@given(report=reports)
def test_a_report_written_as_json_reads_back_the_same(report: Report) -> None:
    assert parse_report(report_json(report)) == report


@given(report=reports, fmt=st.sampled_from(list(Format)))
def test_a_match_record_written_as_json_reads_back_the_same(report: Report, fmt: Format) -> None:
    record = report.record(fmt)
    assert parse_record(record_json(record)) == record


@given(report=reports)
def test_player_b_filling_in_the_form_reports_the_same_match_mirrored(report: Report) -> None:
    # The form on B's phone says "me" for B: what B sees of A's win is "me lost".
    as_b = report_from_form(form_fields(report, flip=True))
    for seen, duel in zip(as_b.duels, report.duels, strict=True):
        if isinstance(duel, Won):
            assert isinstance(seen, Won) and seen.winner is duel.winner.opponent
        if isinstance(duel, TimedOut):
            assert isinstance(seen, TimedOut) and (seen.lp.a, seen.lp.b) == (duel.lp.b, duel.lp.a)


# --- the JSON shape -------------------------------------------------------------------------------


def test_a_duel_is_written_as_a_person_writes_it() -> None:
    assert duel_json(Won(A)) == {"winner": "A"}
    assert duel_json(Won(B, time_called=True)) == {"winner": "B", "time_called": True}
    assert duel_json(Drawn()) == {"draw": True}
    assert duel_json(TimedOut(LifePoints(800, 800), B, extra_duel=True)) == {
        "time": {"A": 800, "B": 800},
        "sudden_death": "B",
        "extra_duel": True,
    }


def test_a_stored_report_keeps_its_basis_and_ignores_the_rules_that_decided_it() -> None:
    stored = {"duels": [{"winner": "A"}], "time_called_between_duels": False, "basis": "concession-consent"}
    report = parse_report({**stored, "rules": ["MATCH-1"], "format": ""})
    assert report == Report((Won(A),), False, "concession-consent")
    assert report_json(report) == stored


def test_a_report_with_an_unknown_basis_names_it() -> None:
    error = refused(parse_report, {"duels": [], "basis": "bribe"})
    assert error.problem.code == "match-unknown-basis" and error.problem.params == {"basis": "bribe"}


def test_a_bad_duel_in_a_report_names_the_field_and_the_duel() -> None:
    error = refused(parse_report, {"duels": [{"winner": "A"}, {"winner": "A", "sideboard": 3}]})
    assert error.problem.code == "match-unknown-field"
    assert error.problem.params == {"field": "sideboard", "duel": 2}


# --- the form shape ------------------------------------------------------------------------------


def test_the_form_reads_rows_in_order_and_skips_the_rows_not_played() -> None:
    fields = {
        "duel1": "A",
        "duel2": "",
        "duel3": "time",
        "duel3_lp_a": "1,200",
        "duel3_lp_b": "９００",  # a Japanese phone keyboard's full-width digits
        "duel4": "B",
        "duel4_extra": "1",
        "between": "1",
    }
    report = report_from_form(fields)
    assert report == Report((Won(A), TimedOut(LifePoints(1200, 900)), Won(B, extra_duel=True)), True, "played")


def test_the_extra_duel_is_written_to_the_forms_extra_duel_row() -> None:
    # TIME-E-5: after 1-1 and time between duels, the extra duel is the form's row after the regular ones.
    report = Report((Won(A), Won(B), Won(A, extra_duel=True)), True)
    fields = form_fields(report, regular_rows=DKT.match.max_duels)
    assert fields["duel4"] == "A" and fields["duel4_extra"] == "1" and "duel3" not in fields


def test_the_penalty_forms_rows_have_their_own_prefix() -> None:
    assert duels_from_form({"prior1": "B", "prior2": "draw", "duel1": "A"}, prefix="prior") == (Won(B), Drawn())


@pytest.mark.parametrize(
    ("fields", "code", "duel"),
    [
        ({"duel2": "won"}, "form-duel-choice", 2),
        ({"duel1": "time", "duel1_lp_a": "800"}, "form-lp-missing", 1),
        ({"duel3": "time", "duel3_lp_a": "800", "duel3_lp_b": "-1"}, "form-lp-not-number", 3),
        ({"duel1": "time", "duel1_lp_a": "1e9", "duel1_lp_b": "5"}, "form-lp-not-number", 1),
        ({"duel1": "time", "duel1_lp_a": "8", "duel1_lp_b": "8", "duel1_sd": "C"}, "form-sudden-death-choice", 1),
    ],
)
def test_a_form_that_cannot_be_read_names_the_duel_with_a_code(fields: dict[str, str], code: str, duel: int) -> None:
    error = refused(report_from_form, fields)
    assert (error.problem.code, error.problem.params) == (code, {"duel": duel})


def test_a_form_with_an_unknown_basis_is_refused_with_a_code() -> None:
    assert refused(report_from_form, {"duel1": "A", "basis": "bribe"}).problem.code == "form-basis-choice"


def test_the_form_ignores_what_is_not_a_duel_row() -> None:
    fields = {"duel01": "A", "duel1x": "A", "duel1000": "A", "duel0": "A", "csrfmiddlewaretoken": "x", "duel1": "B"}
    assert report_from_form(fields).duels == (Won(B),)


# --- which rows the form has, from the ruleset ----------------------------------------------------


def test_a_swiss_form_has_the_rulesets_duels_with_draws_and_no_extra_duel() -> None:
    # MATCH-1 (best of 3), MATCH-2 (Swiss duels may be drawn), TIME-S-6 (no extra duel in Swiss)
    assert form_rows(DKT, Format.SWISS) == tuple(FormRow(n, False, True, False) for n in (1, 2, 3))


def test_an_elimination_form_adds_the_extra_duel_row_and_sudden_death() -> None:
    # TIME-E-3 (sudden death), TIME-E-5 (the extra duel), TIME-E-6: a drawn extra duel (flagged reading) is
    # played again, so the form has a row for the replay too
    rows = form_rows(DKT, Format.ELIMINATION)
    assert [r.number for r in rows] == [1, 2, 3, 4, 5]
    assert rows[-2:] == (FormRow(4, True, True, True), FormRow(5, True, True, True, replay=True))


def test_time_e_6_every_duel_core_asks_for_in_elimination_has_a_form_row() -> None:
    # 1-1-1 asks for the extra duel (TIED_AFTER_MOST_DUELS); a drawn extra duel asks for it again: both rows
    # exist and read back into the record core accepts
    fields = {"duel1": "A", "duel2": "draw", "duel3": "B", "duel4": "draw", "duel4_extra": "1", "duel5": "B",
              "duel5_extra": "1"}  # fmt: skip
    report = report_from_form(fields)
    state = evaluate(MatchRecord(Format.ELIMINATION, report.duels), DKT)
    assert (state.finished, state.winner, state.judge_flag) == (True, Player.B, True)
    assert form_fields(report, regular_rows=DKT.match.max_duels) == {**fields, "basis": "played"}


def test_match_2_an_elimination_forms_regular_duels_may_be_drawn() -> None:
    # MATCH-2 forbids match draws outside Swiss, not drawn duels (the form used to offer no draw there)
    assert [r.draw for r in form_rows(DKT, Format.ELIMINATION) if not r.extra_duel] == [True, True, True]


# --- MATCH-3: duel 1's rock-paper-scissors, recorded when known ---------------------------------------


def test_match_3_the_rock_paper_scissors_winner_and_their_choice_are_kept_in_the_record() -> None:
    stored = {"duels": [{"winner": "A"}], "basis": "played", "opening": {"rps_winner": "B", "first": "A"}}
    report = parse_report(stored)
    assert report.opening == Opening(B, A) and not report.opening.chose_first  # B won and chose to go second
    assert report_json(report)["opening"] == {"rps_winner": "B", "first": "A"}
    record = parse_record({"format": "swiss", "duels": [{"winner": "A"}], "opening": {"rps_winner": "A", "first": "A"}})
    assert record.opening == Opening(A, A) and record.opening.chose_first
    assert "opening" not in record_json(MatchRecord(Format.SWISS, (Won(A),)))  # optional: absent when unknown


def test_match_3_the_form_reads_the_opening_from_the_players_side() -> None:
    fields = {"duel1": "A", "rps_winner": "A", "first": "B"}  # "me" won RPS and chose to go second
    assert report_from_form(fields).opening == Opening(A, B)
    assert report_from_form(fields, flip=True).opening == Opening(B, A)  # filled in on B's phone
    assert report_from_form({"duel1": "A"}).opening is None
    assert refused(report_from_form, {"duel1": "A", "rps_winner": "A"}).problem.code == "form-opening-choice"
    assert refused(parse_report, {"opening": {"rps_winner": "C", "first": "A"}}).problem.code == (
        "match-unknown-player"
    )


def test_a_best_of_five_ruleset_gives_a_form_of_five_duels() -> None:
    text = '[ruleset]\nname = "bo5"\nextends = "dkt-2011"\n[match]\nduels_to_win = 3\nmax_duels = 5\n'
    best_of_five = parse_ruleset(text)
    assert [r.number for r in form_rows(best_of_five, Format.SWISS)] == [1, 2, 3, 4, 5]
    assert [r.number for r in form_rows(best_of_five, Format.ELIMINATION) if r.extra_duel] == [6, 7]


def test_record_json_is_the_cli_contract() -> None:
    record = MatchRecord(Format.ELIMINATION, (Won(A), Won(B)), True)
    assert record_json(record) == {
        "format": "elimination",
        "duels": [{"winner": "A"}, {"winner": "B"}],
        "time_called_between_duels": True,
    }
