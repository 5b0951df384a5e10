"""Rulesets as data: every number of RULES.md is a parameter of the built-in rulesets."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from taikai.core.ruleset import RulesetError, builtin, builtin_names, from_document, parse_ruleset


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


def test_official_rules_alone_name_no_default_penalties_but_slow_plays_caution() -> None:  # INF-23
    pen = builtin("dkt-2011").penalties
    # OFF's numbered violations are "subject to penalties" with none named; OFF C starts slow play at 「注意」
    assert {inf.id: inf.default for inf in pen.infractions if inf.default} == {"INF-23": "caution"}
    assert pen.team_propagation_from is None


CS_ONLY_PENALTY_KEYS = ("head_judge_only_from", "database_from", "max_downgrade_steps", "team_propagation_from")


def test_dkt_2011_is_the_official_text_alone() -> None:  # PEN-2 PEN-3 PEN-5 PEN-6 TIME-4 (RULES.md: CS-only)
    r = builtin("dkt-2011")
    pen = r.penalties
    # CS 1.2's added rungs (受賞資格を一段階下げるマッチの敗北 / 失格) and its downgrades are not OFF's
    assert "match-loss-downgrade" not in pen.ladder and "dq-downgrade" not in pen.ladder
    assert pen.ladder == ("caution", "warning", "duel-loss", "match-loss", "dq", "dq-no-prize")
    assert pen.downgrade_rungs == ()
    assert pen.head_judge_only_from is None  # CS 3: the head judge as the only judge who may disqualify
    assert pen.database_from is None  # CS 1.3: the violator database
    assert r.time.extension_threshold_minutes == 0  # CS 3.1: OFF has no rule for adding time
    shown = r.to_dict()  # what `taikai ruleset show dkt-2011 --json` prints
    assert not set(CS_ONLY_PENALTY_KEYS) & set(shown["penalties"])
    assert "extension_threshold_minutes" not in shown["time"] and "loop_limit" not in shown["match"]
    ids = {inf.id for inf in pen.infractions}
    assert not ids & {"INF-19", "INF-20", "INF-22", "INF-24"}  # CS 2.1 A, 2.1 B, 4.3
    assert {"INF-21", "INF-23", "INF-OTHER"} <= ids


def test_harajuku_cs_adds_the_cs_only_rules_to_the_official_text() -> None:  # PEN-2 PEN-5 PEN-6 TIME-4
    cs = builtin("harajuku-cs-1.2")
    assert len(cs.penalties.ladder) == 8
    assert cs.penalties.downgrade_rungs == ("match-loss-downgrade", "dq-downgrade")
    assert (cs.penalties.head_judge_only_from, cs.penalties.database_from) == ("dq", "warning")
    assert cs.time.extension_threshold_minutes == 1
    assert cs.to_dict()["ruleset"]["based_on"] == "dkt-2011"


def test_an_event_stored_with_dkt_2011_version_1_keeps_what_it_was_created_with() -> None:  # PEN-6
    # Events store the merged document when created (Event.ruleset_document), so one set up on version 1
    # (which carried CS-only rules) goes on with them; the new version applies to events created from now.
    old = parse_ruleset((Path(__file__).parent / "rulesets" / "dkt-2011-v1.toml").read_text("utf-8"))
    assert old.version == 1 and builtin("dkt-2011").version == 2
    assert len(old.penalties.ladder) == 8 and old.penalties.head_judge_only_from == "dq"
    assert old.time.extension_threshold_minutes == 1
    assert from_document(old.to_dict()) == old


def test_a_ladder_may_leave_rungs_out_but_every_rung_named_must_be_on_it() -> None:  # PEN-1
    text = '[ruleset]\nextends = "dkt-2011"\n[penalties]\nhead_judge_only_from = "dq-downgrade"\n'
    with pytest.raises(RulesetError) as exc:
        parse_ruleset(text)
    assert [(p.code, p.params["key"]) for p in exc.value.problems] == [
        ("rung-not-on-ladder", "penalties.head_judge_only_from")
    ]
    text = '[ruleset]\nextends = "dkt-2011"\n[penalties]\nladder = ["caution", "caution"]\n'
    with pytest.raises(RulesetError) as exc:
        parse_ruleset(text)
    assert [p.code for p in exc.value.problems] == ["bad-ladder"]


def test_an_infraction_listed_twice_or_defaulting_off_the_ladder_is_named() -> None:
    doc = builtin("dkt-2011").to_dict()
    doc["penalties"]["infractions"] += [{"id": "INF-1", "off": "1", "default": "dq-downgrade"}]
    with pytest.raises(RulesetError) as exc:
        from_document(doc)
    assert sorted(p.code for p in exc.value.problems) == ["duplicate-infraction", "rung-not-on-ladder"]


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
