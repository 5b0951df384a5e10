"""Rulesets as data: every number of RULES.md is a parameter of the built-in rulesets."""

from __future__ import annotations

from fractions import Fraction

import pytest

from taikai.core.ruleset import RulesetError, builtin, builtin_names, parse_ruleset


def test_builtins_are_listed() -> None:
    assert builtin_names() == ["dkt-2011", "harajuku-cs-1.2", "modern"]


@pytest.mark.parametrize("name", ["dkt-2011", "harajuku-cs-1.2"])
def test_deck_sizes_and_copy_limit(name: str) -> None:  # DECK-1, DECK-2, DECK-3, DECK-5
    deck = builtin(name).deck
    assert (deck.main_min, deck.main_max) == (40, 60)
    assert (deck.extra_min, deck.extra_max) == (0, 15)
    assert (deck.side_min, deck.side_max) == (0, 15)
    assert deck.copy_limit == 3
    assert deck.extra_deck_kinds == ("fusion", "synchro", "xyz")


def test_modern_allows_link_monsters_in_the_extra_deck() -> None:  # DECK-2
    assert "link" in builtin("modern").deck.extra_deck_kinds
    assert "link" not in builtin("dkt-2011").deck.extra_deck_kinds


@pytest.mark.parametrize("name", ["dkt-2011", "harajuku-cs-1.2"])
def test_time_parameters(name: str) -> None:  # TIME-1, TIME-2, TIME-3, TIME-E-1, TIME-E-5
    r = builtin(name)
    assert r.time.match_minutes == 40
    assert r.time.interval_minutes == 3
    assert r.time.turn_guideline_minutes == 3
    assert r.time.extra_turns == 3
    assert (r.time.extra_duel_turns, r.time.extra_duel_lp) == (4, 8000)
    assert (r.match.duels_to_win, r.match.max_duels) == (2, 3)  # MATCH-1


def test_format_differences() -> None:  # MATCH-2, TIME-S-2, TIME-E-3
    r = builtin("dkt-2011")
    assert r.swiss.match_draws and not r.swiss.sudden_death and not r.swiss.extra_duel
    assert not r.elimination.match_draws and r.elimination.sudden_death and r.elimination.extra_duel


def test_scoring_and_tiebreakers() -> None:
    r = builtin("harajuku-cs-1.2")
    assert (r.scoring.win, r.scoring.draw, r.scoring.loss, r.scoring.bye) == (3, 1, 0, 3)
    assert r.standings.tiebreakers == ("match_points", "omw", "oomw", "random")
    assert r.standings.omw_floor == Fraction(0)


def test_penalty_ladder_and_cs_defaults() -> None:  # PEN-1, PEN-6, INF-14, INF-12
    pen = builtin("harajuku-cs-1.2").penalties
    assert pen.ladder[0] == "caution" and pen.ladder[-1] == "dq-no-prize" and len(pen.ladder) == 8
    assert pen.head_judge_only_from == "dq"
    assert pen.infraction("INF-14").default == "duel-loss"
    assert pen.infraction("INF-14").fix == "restore-deck-size"
    assert pen.infraction("INF-12").fix == "remove-object"
    assert pen.infraction("INF-19").default == "dq-no-prize"
    assert pen.team_propagation_from == "dq"  # PEN-4


def test_official_rules_alone_name_no_default_penalties() -> None:
    pen = builtin("dkt-2011").penalties
    assert all(inf.default is None for inf in pen.infractions)
    assert pen.team_propagation_from is None


@pytest.mark.parametrize(
    ("players", "cut", "rounds"),
    [
        (4, 0, 3),
        (8, 0, 3),
        (9, 4, 4),
        (16, 4, 4),
        (17, 4, 5),
        (32, 4, 5),
        (33, 8, 6),
        (128, 8, 7),
        (129, 16, 8),
        (512, 16, 9),
        (513, 32, 10),
        (2048, 32, 11),
        (2049, 64, 12),
        (5000, 64, 12),
    ],
)
def test_attendance_tables(players: int, cut: int, rounds: int) -> None:
    r = builtin("dkt-2011")
    assert r.suggested_top_cut(players) == cut
    assert r.suggested_swiss_rounds(players) == rounds


def test_misspelled_key_is_named() -> None:
    with pytest.raises(RulesetError) as exc:
        parse_ruleset('[ruleset]\nextends = "dkt-2011"\n[deck]\nmain_mn = 30\n')
    assert [(p.code, p.params["key"]) for p in exc.value.problems] == [("unknown-key", "deck.main_mn")]


def test_minimum_above_maximum_is_named() -> None:
    with pytest.raises(RulesetError) as exc:
        parse_ruleset('[ruleset]\nextends = "dkt-2011"\n[deck]\nmain_min = 70\n')
    assert [(p.code, p.params["key"]) for p in exc.value.problems] == [("min-above-max", "deck.main_min")]


def test_bad_types_and_bad_rungs_are_named() -> None:
    text = '[ruleset]\nextends = "dkt-2011"\n[time]\nmatch_minutes = "forty"\n[penalties]\ndatabase_from = "scolding"\n'
    with pytest.raises(RulesetError) as exc:
        parse_ruleset(text)
    keys = sorted(p.params["key"] for p in exc.value.problems)
    assert keys == ["penalties.database_from", "time.match_minutes"]


def test_elimination_match_draws_are_refused() -> None:  # MATCH-2
    with pytest.raises(RulesetError) as exc:
        parse_ruleset('[ruleset]\nextends = "dkt-2011"\n[formats.elimination]\nmatch_draws = true\n')
    assert exc.value.problems[0].code == "elimination-draws"


def test_organizer_ruleset_overrides_only_what_differs() -> None:
    r = parse_ruleset('[ruleset]\nextends = "harajuku-cs-1.2"\nname = "my-cs"\n[time]\nmatch_minutes = 50\n')
    assert r.name == "my-cs" and r.time.match_minutes == 50
    assert r.time.extra_turns == 3
    assert r.to_dict()["ruleset"]["based_on"] == "harajuku-cs-1.2"


def test_stored_document_rebuilds_the_same_ruleset() -> None:
    from taikai.core.ruleset import from_document

    r = builtin("modern")
    again = from_document(r.to_dict())
    assert again == r and again.fingerprint == r.fingerprint


def test_syntax_error_is_reported() -> None:
    with pytest.raises(RulesetError) as exc:
        parse_ruleset("[ruleset\n")
    assert exc.value.problems[0].code == "toml-syntax"
