"""taikai standings FILE|-: standings with tiebreakers and KTS codes, as JSON.

Input: {"players": [{"id": "p1", "dropped_after": null}, ...], "rounds": [[{"a": "p1", "b": "p2",
"result": "a"}, {"a": "p3", "bye": true}, ...], ...], "seed": 7 (optional, for the final draw)}.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("standings", help="standings and tiebreakers from results JSON / 順位表")
    p.add_argument("file", nargs="?", default="-", help="a JSON file, or - for stdin")
    p.add_argument("--ruleset", default="dkt-2011", help="a built-in ruleset name or a .toml file")
    p.set_defaults(func=cmd_standings)


def decimal(value: Fraction, places: int = 6) -> str:
    """Rounded half up to ``places``, trailing zeros dropped: 2/3 -> "0.666667", 1/2 -> "0.5"."""
    scaled = (value * 10**places + Fraction(1, 2)).__floor__()
    whole, frac = divmod(scaled, 10**places)
    digits = str(frac).zfill(places).rstrip("0") or "0"
    return f"{whole}.{digits}"


def cmd_standings(args: argparse.Namespace) -> int:
    from taikai.cli.ruleset import load
    from taikai.core import standings
    from taikai.core.ruleset import RulesetError

    try:
        ruleset = load(args.ruleset)
    except RulesetError as exc:
        sys.stderr.write(f"{args.ruleset}: {exc}\n")
        return 2
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        doc = json.loads(text)
        entrants, rounds, seed = _parse(doc)
        table = standings.compute(entrants, rounds, ruleset, seed)
    except (OSError, ValueError, KeyError, TypeError, standings.StandingsError) as exc:
        sys.stderr.write(f"{args.file}: {exc}\n")
        return 2
    rows = [
        {
            "rank": s.rank,
            "id": s.id,
            "points": s.points,
            "wins": s.wins,
            "losses": s.losses,
            "draws": s.draws,
            **{name: decimal(value) for name, value in s.values.items()},  # omw, oomw, ... in the ruleset's order
            "code": s.code,
        }
        for s in table
    ]
    print(json.dumps({"standings": rows}, ensure_ascii=False))
    return 0


def _parse(doc: Any) -> tuple[list[Any], list[list[Any]], Any]:
    from taikai.core.standings import MatchRecord

    entrants = [p["id"] for p in doc["players"]]
    rounds = []
    for played in doc.get("rounds") or []:
        records = []
        for m in played:
            if m.get("bye"):
                records.append(MatchRecord(m["a"], None, "bye"))
            else:
                records.append(MatchRecord(m["a"], m["b"], m["result"]))
        rounds.append(records)
    seed = doc.get("seed", 0)
    if not isinstance(seed, int | str):
        raise ValueError("seed must be an integer or a string")
    return entrants, rounds, seed
