"""The match record as JSON (the `taikai match result` input contract) -> core.match dataclasses.

One reading of the contract, shared by the CLI, the web services and the API.
"""

from __future__ import annotations

from typing import Any

from taikai.core.match import Drawn, Duel, Format, LifePoints, MatchRecord, Player, TimedOut, Won
from taikai.core.problems import Problem

_TOP_KEYS = frozenset({"format", "duels", "time_called_between_duels"})
_DUEL_KEYS = {
    "winner": frozenset({"winner", "time_called", "extra_duel"}),
    "draw": frozenset({"draw", "time_called", "extra_duel"}),
    "time": frozenset({"time", "sudden_death", "extra_duel"}),
}


class RecordFormatError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def parse_record(data: Any, format_flag: str | None = None) -> MatchRecord:
    """A decoded JSON match record -> MatchRecord; RecordFormatError names the field and the duel."""
    if not isinstance(data, dict):
        raise RecordFormatError(Problem("match-not-object"))
    _refuse_unknown_keys(data, _TOP_KEYS, 0)
    duels = data.get("duels")
    if not isinstance(duels, list):
        raise RecordFormatError(Problem("match-bad-type", field="duels", expected="list", duel=0))
    between = data.get("time_called_between_duels", False)
    if not isinstance(between, bool):
        raise RecordFormatError(Problem("match-bad-type", field="time_called_between_duels", expected="bool", duel=0))
    fmt = _format(data.get("format"), format_flag)
    return MatchRecord(fmt, tuple(_duel(d, i) for i, d in enumerate(duels, start=1)), between)


def _format(given: object, flag: str | None) -> Format:
    if given is None and flag is None:
        raise RecordFormatError(Problem("match-format-missing"))
    if given is not None and flag is not None and given != flag:
        raise RecordFormatError(Problem("match-format-conflict", given=given, flag=flag))
    value = given if given is not None else flag
    if value not in {f.value for f in Format}:
        raise RecordFormatError(Problem("match-unknown-format", format=value))
    return Format(value)


def _refuse_unknown_keys(data: dict[str, Any], allowed: frozenset[str], duel: int) -> None:
    for key in data:
        if key not in allowed:
            raise RecordFormatError(Problem("match-unknown-field", field=key, duel=duel))


def _duel(data: object, duel: int) -> Duel:
    if not isinstance(data, dict):
        raise RecordFormatError(Problem("match-duel-not-object", duel=duel))
    kinds = [kind for kind in _DUEL_KEYS if kind in data]
    if len(kinds) != 1:
        raise RecordFormatError(Problem("match-duel-kind", duel=duel))
    kind = kinds[0]
    _refuse_unknown_keys(data, _DUEL_KEYS[kind], duel)
    extra_duel = _flag(data, "extra_duel", duel)
    if kind == "winner":
        return Won(_player(data["winner"], duel), _flag(data, "time_called", duel), extra_duel)
    if kind == "draw":
        if data["draw"] is not True:
            raise RecordFormatError(Problem("match-bad-type", field="draw", expected="true", duel=duel))
        return Drawn(_flag(data, "time_called", duel), extra_duel)
    sudden = data.get("sudden_death")
    return TimedOut(_life_points(data["time"], duel), None if sudden is None else _player(sudden, duel), extra_duel)


def _flag(data: dict[str, Any], key: str, duel: int) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise RecordFormatError(Problem("match-bad-type", field=key, expected="bool", duel=duel))
    return value


def _player(value: object, duel: int) -> Player:
    if value not in ("A", "B"):
        raise RecordFormatError(Problem("match-unknown-player", player=value, duel=duel))
    return Player(value)


def _life_points(value: object, duel: int) -> LifePoints:
    if not isinstance(value, dict):
        raise RecordFormatError(Problem("match-bad-type", field="time", expected='{"A": LP, "B": LP}', duel=duel))
    for key in value:
        _player(key, duel)
    lp: dict[str, int] = {}
    for player in ("A", "B"):
        points = value.get(player)
        if points is None:
            raise RecordFormatError(Problem("match-lp-missing", player=player, duel=duel))
        if isinstance(points, bool) or not isinstance(points, int):
            raise RecordFormatError(Problem("match-bad-type", field=f"time.{player}", expected="integer", duel=duel))
        lp[player] = points
    return LifePoints(lp["A"], lp["B"])
