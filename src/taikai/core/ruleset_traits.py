"""What a ruleset forbids and what it changes from the ruleset it extends, read from its data: the ruleset picker
says it in words (the edge translates the codes), so a new ruleset file is described without anyone writing it.

``forbids`` names the deck restrictions (DECK-2 extra deck kinds, DECK-6 regions, DECK-7 release dates);
``changes`` every setting whose value differs from the parent's, as ``Problem("changed", key=..., before=...,
after=...)`` with the dotted key of the ruleset document (``time.match_minutes``).
"""

from __future__ import annotations

import dataclasses
import tomllib
from typing import Any

from taikai.core.problems import Problem
from taikai.core.ruleset import Ruleset, builtin, builtin_text
from taikai.core.ruleset_schema import EXTRA_DECK_KINDS, REGIONS

# Not settings a player or organizer compares: the name and titles, and the infraction catalog (compared by size).
_NOT_COMPARED = {"name", "version", "title_ja", "title_en", "document"}


def forbids(ruleset: Ruleset) -> tuple[Problem, ...]:
    deck = ruleset.deck
    out = [Problem("extra-kind-forbidden", kind=k) for k in EXTRA_DECK_KINDS if k not in deck.extra_deck_kinds]
    if set(deck.legal_regions) != set(REGIONS):
        out.append(Problem("regions-only", regions=tuple(r for r in REGIONS if r in deck.legal_regions)))
    if deck.enforce_release_date:
        out.append(Problem("unreleased-forbidden"))
    return tuple(out)


def parent_of(name: str) -> str | None:
    """The built-in ruleset a built-in one ``extends`` (None for a root ruleset)."""
    parent = tomllib.loads(builtin_text(name)).get("ruleset", {}).get("extends")
    return parent if isinstance(parent, str) else None


def changes(ruleset: Ruleset, parent: Ruleset) -> tuple[Problem, ...]:
    mine, theirs = _leaves(ruleset), _leaves(parent)
    return tuple(
        Problem("changed", key=key, before=theirs.get(key), after=value)
        for key, value in mine.items()
        if theirs.get(key) != value
    )


def described(name: str) -> tuple[tuple[Problem, ...], str | None, tuple[Problem, ...]]:
    """A built-in ruleset's (forbids, parent name, changes from the parent)."""
    ruleset, parent = builtin(name), parent_of(name)
    return forbids(ruleset), parent, changes(ruleset, builtin(parent)) if parent else ()


def _leaves(ruleset: Ruleset) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(ruleset):
        if f.name not in _NOT_COMPARED:
            _flatten(_plain(getattr(ruleset, f.name)), f.name, out)
    out["penalties.infractions"] = len(ruleset.penalties.infractions)  # the catalog, by its size
    return out


def _plain(value: Any) -> Any:
    return dataclasses.asdict(value) if dataclasses.is_dataclass(value) and not isinstance(value, type) else value


def _flatten(value: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(v, f"{prefix}.{k}", out)
    elif isinstance(value, list | tuple):
        out[prefix] = tuple(_frozen(_plain(v)) for v in value)
    else:
        out[prefix] = value


def _frozen(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, dict) else value
