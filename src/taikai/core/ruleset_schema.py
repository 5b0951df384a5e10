"""Validation of a ruleset document: every key known, typed, and consistent, and the fixed names a
ruleset may choose from (rungs, tiebreakers, fixes, regions, extra-deck kinds).

Each check appends a Problem naming the dotted key (``deck.main_min``), so ``taikai ruleset check``
can list every mistake in an organizer's file at once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from fractions import Fraction
from typing import Any

from taikai.core.problems import Problem
from taikai.core.rungs import RUNGS  # PEN-1: the rungs taikai can apply; a ruleset orders them
from taikai.core.tiebreakers import TIEBREAKERS  # one function each; a ruleset orders them

EXTRA_DECK_KINDS = ("fusion", "synchro", "xyz", "link")
REGIONS = ("ocg", "tcg", "korean")
FIXES = ("remove-object", "restore-deck-size", "restore-registered-deck")
Check = Callable[[Any], bool]


def _nonneg_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _pos_int(v: Any) -> bool:
    return _nonneg_int(v) and v > 0


def _str(v: Any) -> bool:
    return isinstance(v, str)


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _str_list(choices: Collection[str] | None = None) -> Check:
    def check(v: Any) -> bool:
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            return False
        return choices is None or all(x in choices for x in v)

    return check


def _fraction(v: Any) -> bool:
    try:
        f = Fraction(str(v))
    except (ValueError, ZeroDivisionError):
        return False
    return 0 <= f <= 1


def _one_of(choices: Collection[str]) -> Check:
    return lambda v: isinstance(v, str) and v in choices


# section -> key -> (check, expected-description)
SCHEMA: dict[str, dict[str, tuple[Check, str]]] = {
    "ruleset": {
        "name": (_str, "string"),
        "version": (_pos_int, "positive integer"),
        "title_ja": (_str, "string"),
        "title_en": (_str, "string"),
        "based_on": (_str, "string"),
    },
    "deck": {
        "main_min": (_pos_int, "positive integer"),
        "main_max": (_pos_int, "positive integer"),
        "extra_min": (_nonneg_int, "integer >= 0"),
        "extra_max": (_nonneg_int, "integer >= 0"),
        "side_min": (_nonneg_int, "integer >= 0"),
        "side_max": (_nonneg_int, "integer >= 0"),
        "copy_limit": (_pos_int, "positive integer"),
        "extra_deck_kinds": (_str_list(EXTRA_DECK_KINDS), "list of " + "/".join(EXTRA_DECK_KINDS)),
        "legal_regions": (_str_list(REGIONS), "list of " + "/".join(REGIONS)),
        "enforce_release_date": (_bool, "true or false"),
        "banlist": (_str, "string"),
    },
    "match": {
        "duels_to_win": (_pos_int, "positive integer"),
        "max_duels": (_pos_int, "positive integer"),
        "loop_limit": (_pos_int, "positive integer"),
    },
    "time": {
        "match_minutes": (_pos_int, "positive integer"),
        "interval_minutes": (_nonneg_int, "integer >= 0"),
        "turn_guideline_minutes": (_pos_int, "positive integer"),
        "extension_threshold_minutes": (_nonneg_int, "integer >= 0"),
        "extension_max_minutes": (_pos_int, "positive integer"),
        "round_change_max_minutes": (_pos_int, "positive integer"),
        "extra_turns": (_nonneg_int, "integer >= 0"),
        "extra_duel_turns": (_pos_int, "positive integer"),
        "extra_duel_lp": (_pos_int, "positive integer"),
    },
    "formats.swiss": {
        "match_draws": (_bool, "true or false"),
        "sudden_death": (_bool, "true or false"),
        "extra_duel": (_bool, "true or false"),
    },
    "formats.elimination": {
        "match_draws": (_bool, "true or false"),
        "sudden_death": (_bool, "true or false"),
        "extra_duel": (_bool, "true or false"),
    },
    "scoring": {
        "win": (_nonneg_int, "integer >= 0"),
        "draw": (_nonneg_int, "integer >= 0"),
        "loss": (_nonneg_int, "integer >= 0"),
        "bye": (_nonneg_int, "integer >= 0"),
        "late_entry_missed_round": (_one_of(("loss", "none")), "loss or none"),
    },
    "standings": {
        "tiebreakers": (_str_list(TIEBREAKERS), "list of " + "/".join(TIEBREAKERS)),
        "omw_floor": (_fraction, 'fraction between 0 and 1, e.g. "1/3"'),
        "code_digits": (lambda v: isinstance(v, list) and all(_pos_int(x) for x in v), "list of integers"),
    },
    "team": {
        "seats": (_str_list(), "list of seat names"),
        "seat_wins_to_win": (_pos_int, "positive integer"),
    },
    "penalties": {
        "ladder": (_str_list(RUNGS), "list of " + "/".join(RUNGS)),
        "head_judge_only_from": (_one_of(RUNGS), "a rung of the ladder"),
        "database_from": (_one_of(RUNGS), "a rung of the ladder"),
        "downgrade_rungs": (_str_list(RUNGS), "list of rungs"),
        "team_propagation_from": (_one_of(RUNGS), "a rung of the ladder"),
        "infractions": (lambda v: isinstance(v, list), "list of [[penalties.infractions]] tables"),
        "max_downgrade_steps": (lambda v: _pos_int(v) or v == "any", 'integer >= 1, or "any" (no cap)'),
    },
    "tournament": {
        "top_cut": (lambda v: isinstance(v, list), "list of [[tournament.top_cut]] tables"),
        "swiss_rounds": (lambda v: isinstance(v, list), "list of [[tournament.swiss_rounds]] tables"),
    },
}
OPTIONAL = {
    "ruleset.based_on",
    "penalties.team_propagation_from",
    "penalties.max_downgrade_steps",
    "penalties.head_judge_only_from",  # PEN-6 is CS 3's: OFF alone reserves no rung to a head judge
    "penalties.database_from",  # PEN-5 is CS 1.3's: OFF alone keeps no violator database
    "time.extension_threshold_minutes",  # TIME-4 is CS 3.1's: OFF alone adds no time
    "time.extension_max_minutes",  # taikai's bounds (core.ruleset.TimeRules), not the rule texts'
    "time.round_change_max_minutes",
    "match.loop_limit",
}
INFRACTION_KEYS: dict[str, tuple[Check, str]] = {
    "id": (_str, "string"),
    "off": (_str, "string"),
    "default": (_one_of(RUNGS), "a rung of the ladder"),
    "fix": (_one_of(FIXES), "one of " + "/".join(FIXES)),
    "escalates": (_bool, "true or false"),
    "default_if_intentional": (_bool, "true or false"),
    "kind": (lambda v: isinstance(v, str) and v != "", "a non-empty name"),
    "judged_alone": (_bool, "true or false"),
    "after_time": (_bool, "true or false"),
}


def _section(doc: dict[str, Any], dotted: str) -> Any:
    node: Any = doc
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _check_keys(doc: dict[str, Any], problems: list[Problem]) -> None:
    known_top = {s.split(".")[0] for s in SCHEMA}
    for key in doc:
        if key not in known_top:
            problems.append(Problem("unknown-key", key=key))
    formats = doc.get("formats", {})
    if isinstance(formats, dict):
        for key in formats:
            if key not in ("swiss", "elimination"):
                problems.append(Problem("unknown-key", key=f"formats.{key}"))
    for section, keys in SCHEMA.items():
        table = _section(doc, section)
        if not isinstance(table, dict):
            problems.append(Problem("missing-key", key=section))
            continue
        for key in table:
            if key not in keys:
                problems.append(Problem("unknown-key", key=f"{section}.{key}"))
        for key, (check, expected) in keys.items():
            dotted = f"{section}.{key}"
            if key not in table:
                if dotted not in OPTIONAL:
                    problems.append(Problem("missing-key", key=dotted))
            elif not check(table[key]):
                problems.append(Problem("bad-value", key=dotted, expected=expected, value=table[key]))


def _check_consistency(doc: dict[str, Any], problems: list[Problem]) -> None:
    deck = doc["deck"]
    for part in ("main", "extra", "side"):
        lo, hi = deck[f"{part}_min"], deck[f"{part}_max"]
        if lo > hi:
            problems.append(Problem("min-above-max", key=f"deck.{part}_min", min=lo, max=hi))
    match = doc["match"]
    if match["max_duels"] < 2 * match["duels_to_win"] - 1:
        problems.append(
            Problem(
                "too-few-duels", key="match.max_duels", value=match["max_duels"], duels_to_win=match["duels_to_win"]
            )
        )
    if doc["formats"]["elimination"]["match_draws"]:
        problems.append(Problem("elimination-draws", key="formats.elimination.match_draws"))  # MATCH-2
    _check_ladder(doc["penalties"], problems)
    seats = doc["team"]["seats"]
    if doc["team"]["seat_wins_to_win"] > len(seats):
        problems.append(Problem("too-many-seat-wins", key="team.seat_wins_to_win", seats=len(seats)))
    for name in ("top_cut", "swiss_rounds"):
        _check_bands(doc["tournament"][name], f"tournament.{name}", "cut" if name == "top_cut" else "rounds", problems)
    ids: set[Any] = set()
    for i, inf in enumerate(doc["penalties"]["infractions"]):
        _check_infraction(inf, i, doc["penalties"]["ladder"], problems)
        if isinstance(inf, dict) and inf.get("id") in ids:
            problems.append(Problem("duplicate-infraction", key=f"penalties.infractions[{i}].id", value=inf["id"]))
        ids.add(inf.get("id") if isinstance(inf, dict) else None)


def _check_ladder(pen: dict[str, Any], problems: list[Problem]) -> None:
    """PEN-1: the ladder lists fixed rungs, each once; a ruleset may leave rungs out (OFF alone has no CS 1.2
    rungs). Every rung the penalties name must be on it."""
    ladder = pen["ladder"]
    if not ladder or len(set(ladder)) != len(ladder):
        problems.append(Problem("bad-ladder", key="penalties.ladder", expected=list(RUNGS)))
        return
    named = [(k, pen.get(k)) for k in ("head_judge_only_from", "database_from", "team_propagation_from")]
    named += [("downgrade_rungs", r) for r in pen["downgrade_rungs"]]
    for key, rung in named:
        if rung is not None and rung not in ladder:
            problems.append(Problem("rung-not-on-ladder", key=f"penalties.{key}", value=rung))


def _check_bands(bands: list[Any], key: str, value_key: str, problems: list[Problem]) -> None:
    if not bands:
        problems.append(Problem("missing-key", key=key))
        return
    last: int = 0
    for i, band in enumerate(bands):
        where = f"{key}[{i}]"
        if not isinstance(band, dict):
            problems.append(Problem("bad-value", key=where, expected="table", value=band))
            continue
        for k in band:
            if k not in ("max_players", value_key):
                problems.append(Problem("unknown-key", key=f"{where}.{k}"))
        if not _nonneg_int(band.get(value_key)):
            problems.append(
                Problem("bad-value", key=f"{where}.{value_key}", expected="integer >= 0", value=band.get(value_key))
            )
        top = band.get("max_players")
        if top is None:
            if i != len(bands) - 1:
                problems.append(Problem("open-band-not-last", key=where))
        elif not _pos_int(top) or top <= last:
            problems.append(Problem("bands-not-increasing", key=f"{where}.max_players", value=top))
        else:
            last = top


def _check_infraction(inf: Any, i: int, ladder: list[str], problems: list[Problem]) -> None:
    where = f"penalties.infractions[{i}]"
    if not isinstance(inf, dict):
        problems.append(Problem("bad-value", key=where, expected="table", value=inf))
        return
    for k, v in inf.items():
        if k not in INFRACTION_KEYS:
            problems.append(Problem("unknown-key", key=f"{where}.{k}"))
        elif not INFRACTION_KEYS[k][0](v):
            problems.append(Problem("bad-value", key=f"{where}.{k}", expected=INFRACTION_KEYS[k][1], value=v))
    for k in ("id", "off"):
        if k not in inf:
            problems.append(Problem("missing-key", key=f"{where}.{k}"))
    if inf.get("default") in RUNGS and inf["default"] not in ladder:
        problems.append(Problem("rung-not-on-ladder", key=f"{where}.default", value=inf["default"]))


def check(doc: dict[str, Any]) -> list[Problem]:
    """Every problem of a merged ruleset document, each naming its dotted key; none means it can be built."""
    problems: list[Problem] = []
    _check_keys(doc, problems)
    # Consistency needs every value present and typed; an unknown key alone does not prevent it.
    if all(p.code == "unknown-key" for p in problems):
        _check_consistency(doc, problems)
    return problems
