"""Rulesets: every number and list of RULES.md as data (ルールセット).

A ruleset is a TOML document. Built-in ones live in ``taikai/core/rulesets/``; an organizer's own
file may ``extends`` one of them and override only what differs (tables merge key by key, lists
and values replace). ``parse_ruleset`` validates the merged document completely and raises
``RulesetError`` carrying one ``Problem`` per bad key, so an organizer sees every mistake at once.

An event stores ``Ruleset.to_dict()`` (and its ``fingerprint``) when it starts, so a later edit of
the file never changes a running or finished event.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any

from taikai.core import ruleset_schema
from taikai.core.problems import Problem


class RulesetError(Exception):
    """A ruleset document that cannot be used; ``problems`` says every reason."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class DeckRules:
    main_min: int
    main_max: int
    extra_min: int
    extra_max: int
    side_min: int
    side_max: int
    copy_limit: int
    extra_deck_kinds: tuple[str, ...]
    legal_regions: tuple[str, ...]
    enforce_release_date: bool
    banlist: str


@dataclass(frozen=True)
class MatchRules:
    duels_to_win: int
    max_duels: int
    loop_limit: int = 4  # LOOP-2 (CS 4.12): the time the same position arises when the first actor must deviate


@dataclass(frozen=True)
class TimeRules:
    match_minutes: int
    interval_minutes: int
    turn_guideline_minutes: int
    extra_turns: int
    extra_duel_turns: int
    extra_duel_lp: int
    # TIME-4 (CS 3.1): a ruling of this many minutes or more may add time. 0: the ruleset adds no time
    # (OFF alone has no rule for adding time).
    extension_threshold_minutes: int = 0
    # taikai's own bounds, not the rule texts': the most one table may be given at once (TIME-4), and the most a
    # round's clock may move in one change or show as remaining (TIME-1: a fire alarm, a venue problem).
    extension_max_minutes: int = 60
    round_change_max_minutes: int = 180


@dataclass(frozen=True)
class FormatRules:
    """What differs between Swiss (スイスドロー) and single elimination (トーナメント)."""

    match_draws: bool
    sudden_death: bool
    extra_duel: bool


@dataclass(frozen=True)
class Scoring:
    win: int
    draw: int
    loss: int
    bye: int
    late_entry_missed_round: str


@dataclass(frozen=True)
class StandingsRules:
    tiebreakers: tuple[str, ...]
    omw_floor: Fraction
    code_digits: tuple[int, ...]


@dataclass(frozen=True)
class TeamRules:
    seats: tuple[str, ...]
    seat_wins_to_win: int


@dataclass(frozen=True)
class SizeBand:
    """One row of an attendance table: applies up to ``max_players`` (None = no upper bound)."""

    max_players: int | None
    value: int


@dataclass(frozen=True)
class Infraction:
    id: str
    off: str
    default: str | None
    fix: str | None
    escalates: bool
    # The default applies only when the judge finds the act intentional (故意に, e.g. INF-5 / CS 2.2 D);
    # otherwise there is no default and the judge decides.
    default_if_intentional: bool = False
    # PEN-5 (CS 1.3: 同様の違反): infractions of one kind count for each other's escalation ("" in a document
    # without kinds: the infraction is its own kind).
    kind: str = ""
    # No earlier penalty is similar to this one by its catalog entry alone ("other": the judge decides).
    judged_alone: bool = False
    # Only after time was called at the player's match (INF-20, CS 2.1 B: 対戦時間終了後).
    after_time: bool = False


@dataclass(frozen=True)
class PenaltyRules:
    ladder: tuple[str, ...]
    head_judge_only_from: str | None  # PEN-6 (CS 3); None: no rung is reserved to a head judge (OFF alone)
    database_from: str | None  # PEN-5 (CS 1.3); None: no violator database (OFF alone)
    downgrade_rungs: tuple[str, ...]
    team_propagation_from: str | None
    infractions: tuple[Infraction, ...]
    # PEN-2: the most steps one penalty may lower a prize by; None: no cap (CS 1.2: 任意で増やすことができる)
    max_downgrade_steps: int | None = 3

    def rank(self, rung: str) -> int:
        """Position on the ladder, 0 = lightest (PEN-1)."""
        return self.ladder.index(rung)

    def infraction(self, infraction_id: str) -> Infraction:
        for inf in self.infractions:
            if inf.id == infraction_id:
                return inf
        raise KeyError(infraction_id)


@dataclass(frozen=True)
class Ruleset:
    name: str
    version: int
    title_ja: str
    title_en: str
    deck: DeckRules
    match: MatchRules
    time: TimeRules
    swiss: FormatRules
    elimination: FormatRules
    scoring: Scoring
    standings: StandingsRules
    team: TeamRules
    top_cut: tuple[SizeBand, ...]
    swiss_rounds: tuple[SizeBand, ...]
    penalties: PenaltyRules
    document: dict[str, Any] = field(repr=False, compare=False, hash=False)

    def format_rules(self, fmt: str) -> FormatRules:
        if fmt == "swiss":
            return self.swiss
        if fmt == "elimination":
            return self.elimination
        raise ValueError(fmt)

    def suggested_top_cut(self, players: int) -> int:
        return _band_value(self.top_cut, players)

    def suggested_swiss_rounds(self, players: int) -> int:
        return _band_value(self.swiss_rounds, players)

    def to_dict(self) -> dict[str, Any]:
        """The merged document: what an event stores, and what ``ruleset show --json`` prints."""
        return json.loads(json.dumps(self.document))  # type: ignore[no-any-return]

    @property
    def fingerprint(self) -> str:
        canonical = json.dumps(self.document, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _band_value(bands: tuple[SizeBand, ...], players: int) -> int:
    for band in bands:
        if band.max_players is None or players <= band.max_players:
            return band.value
    return bands[-1].value


# --- loading -------------------------------------------------------------------------------------

DEFAULT = "harajuku-cs-1.2"  # what a new event starts with, and what pages without an event show


def builtin_names() -> list[str]:
    folder = resources.files("taikai.core").joinpath("rulesets")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def builtin_text(name: str) -> str:
    if name not in builtin_names():
        raise RulesetError([Problem("unknown-ruleset", name=name)])
    return resources.files("taikai.core").joinpath("rulesets", f"{name}.toml").read_text("utf-8")


def builtin(name: str) -> Ruleset:
    """A built-in ruleset by name: ``dkt-2011``, ``harajuku-cs-1.2`` or ``modern``."""
    return parse_ruleset(builtin_text(name))


def parse_ruleset(text: str) -> Ruleset:
    """Parse a TOML ruleset, resolve ``extends`` against the built-ins, and validate it."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError([Problem("toml-syntax", detail=str(exc))]) from exc
    return from_document(resolve_extends(doc))


def resolve_extends(doc: dict[str, Any], seen: tuple[str, ...] = ()) -> dict[str, Any]:
    parent_name = doc.get("ruleset", {}).get("extends")
    if not parent_name:
        return doc
    if not isinstance(parent_name, str):
        raise RulesetError([Problem("bad-type", key="ruleset.extends", expected="string")])
    if parent_name in seen:
        raise RulesetError([Problem("extends-cycle", name=parent_name)])
    parent = resolve_extends(tomllib.loads(builtin_text(parent_name)), (*seen, parent_name))
    merged = _merge(parent, doc)
    merged["ruleset"].pop("extends", None)
    merged["ruleset"]["based_on"] = parent_name
    return merged


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def from_document(doc: dict[str, Any]) -> Ruleset:
    """Build a Ruleset from a merged document (as stored with an event), validating every key."""
    problems = ruleset_schema.check(doc)
    if problems:
        raise RulesetError(problems)
    return _construct(doc)


def _cap(value: int | str) -> int | None:
    """A cap, or "any": none (PEN-2 max_downgrade_steps)."""
    return None if value == "any" else int(value)


def _bands(rows: list[dict[str, Any]], value_key: str) -> tuple[SizeBand, ...]:
    return tuple(SizeBand(r.get("max_players"), r[value_key]) for r in rows)


def _construct(doc: dict[str, Any]) -> Ruleset:
    d, t, s, st, pen = doc["deck"], doc["time"], doc["scoring"], doc["standings"], doc["penalties"]
    return Ruleset(
        name=doc["ruleset"]["name"],
        version=doc["ruleset"]["version"],
        title_ja=doc["ruleset"]["title_ja"],
        title_en=doc["ruleset"]["title_en"],
        deck=DeckRules(
            **{k: d[k] for k in d if k not in ("extra_deck_kinds", "legal_regions")},
            extra_deck_kinds=tuple(d["extra_deck_kinds"]),
            legal_regions=tuple(d["legal_regions"]),
        ),
        match=MatchRules(**doc["match"]),
        time=TimeRules(**t),
        swiss=FormatRules(**doc["formats"]["swiss"]),
        elimination=FormatRules(**doc["formats"]["elimination"]),
        scoring=Scoring(**s),
        standings=StandingsRules(
            tiebreakers=tuple(st["tiebreakers"]),
            omw_floor=Fraction(str(st["omw_floor"])),
            code_digits=tuple(st["code_digits"]),
        ),
        team=TeamRules(seats=tuple(doc["team"]["seats"]), seat_wins_to_win=doc["team"]["seat_wins_to_win"]),
        top_cut=_bands(doc["tournament"]["top_cut"], "cut"),
        swiss_rounds=_bands(doc["tournament"]["swiss_rounds"], "rounds"),
        penalties=PenaltyRules(
            ladder=tuple(pen["ladder"]),
            head_judge_only_from=pen.get("head_judge_only_from"),
            database_from=pen.get("database_from"),
            downgrade_rungs=tuple(pen["downgrade_rungs"]),
            team_propagation_from=pen.get("team_propagation_from"),
            infractions=tuple(
                Infraction(
                    id=i["id"],
                    off=i["off"],
                    default=i.get("default"),
                    fix=i.get("fix"),
                    escalates=i.get("escalates", False),
                    default_if_intentional=i.get("default_if_intentional", False),
                    kind=i.get("kind", i["id"]),
                    judged_alone=i.get("judged_alone", False),
                    after_time=i.get("after_time", False),
                )
                for i in pen["infractions"]
            ),
            max_downgrade_steps=_cap(pen.get("max_downgrade_steps", 3)),
        ),
        document=doc,
    )
