"""The duel record (対戦記録) in its two shapes, read and written here only (STYLE habit 15).

* JSON: the `taikai match result` input contract, also what ``Match.record`` and ``ResultReport.record``
  store and what the API takes: ``{"duels": [{"winner": "A"}, {"draw": true}, {"time": {"A": 800, "B": 900},
  "sudden_death": "B"}, ...], "time_called_between_duels": false, "basis": "played"}``, optionally with
  ``"opening": {"rps_winner": "A", "first": "B"}`` (MATCH-3: who won duel 1's rock-paper-scissors and who
  went first by that player's choice).
* Form fields: the duel-by-duel result form. Row ``n`` is ``duel<n>`` = ``A`` | ``B`` | ``draw`` | ``time``
  (empty: not played), with ``duel<n>_lp_a`` / ``duel<n>_lp_b`` (the LP after the extra turns),
  ``duel<n>_sd`` (the sudden-death winner), ``duel<n>_tc`` (time was called during the duel) and
  ``duel<n>_extra`` (the extra duel, TIME-E-5); then ``between``, ``basis`` and, optional, ``rps_winner`` and
``first`` (MATCH-3). ``flip`` reads or writes
  the form from player B's side (the player's own page says "me" for the one holding the phone).

Every reader raises ``RecordFormatError`` carrying a ``Problem`` (a code with the field and the duel),
never a sentence; the edge translates it. Which rows a form has comes from the ruleset (``form_rows``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from taikai.core.match_record import Drawn, Duel, Format, LifePoints, MatchRecord, Opening, Player, TimedOut, Won
from taikai.core.problems import Problem, ProblemError
from taikai.core.ruleset import Ruleset

# How the match ended: played out (or by time), a concession (END-1), an intentional draw (END-2).
BASES = ("played", "concession-consent", "concession-own-turn", "intentional-draw")

_TOP_KEYS = frozenset({"format", "duels", "time_called_between_duels", "opening"})
# A stored report also says how the match ended; a stored match, which rules decided it (output only).
# Its format follows from the round: reports stored by earlier versions carry an empty one, ignored.
_REPORT_KEYS = frozenset({"duels", "time_called_between_duels", "basis", "rules", "format", "opening"})
_OPENING_KEYS = frozenset({"rps_winner", "first"})
_DUEL_KEYS = {
    "winner": frozenset({"winner", "time_called", "extra_duel"}),
    "draw": frozenset({"draw", "time_called", "extra_duel"}),
    "time": frozenset({"time", "sudden_death", "extra_duel"}),
}


class RecordFormatError(ProblemError):
    """A match record (JSON, stored or a form's fields) that cannot be read."""


@dataclass(frozen=True)
class Report:
    """A reported result: the duels in the order played, time between duels, and how the match ended.

    The format is not part of it: it follows from the round (Swiss or single elimination).
    """

    duels: tuple[Duel, ...] = ()
    time_called_between_duels: bool = False
    basis: str = "played"
    opening: Opening | None = None  # MATCH-3

    def record(self, fmt: Format) -> MatchRecord:
        return MatchRecord(fmt, self.duels, self.time_called_between_duels, self.opening)

    @classmethod
    def of(cls, record: MatchRecord, basis: str = "played") -> Report:
        return cls(record.duels, record.time_called_between_duels, basis, record.opening)


# --- JSON: read -------------------------------------------------------------------------------------


def parse_record(data: Any, format_flag: str | None = None) -> MatchRecord:
    """A decoded JSON match record -> MatchRecord; RecordFormatError names the field and the duel."""
    if not isinstance(data, dict):
        raise RecordFormatError(Problem("match-not-object"))
    _refuse_unknown_keys(data, _TOP_KEYS, 0)
    duels, between = _duels_and_between(data)
    return MatchRecord(_format(data.get("format"), format_flag), duels, between, _opening(data.get("opening")))


def parse_report(data: Any) -> Report:
    """A stored or posted report (the JSON record without its format, with its basis) -> Report."""
    if not isinstance(data, dict):
        raise RecordFormatError(Problem("match-not-object"))
    _refuse_unknown_keys(data, _REPORT_KEYS, 0)
    duels, between = _duels_and_between(data)
    return Report(duels, between, _basis(data.get("basis", "played")), _opening(data.get("opening")))


def _opening(data: object) -> Opening | None:
    """MATCH-3: ``{"rps_winner": "A", "first": "B"}``; absent or null when not recorded."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RecordFormatError(Problem("match-bad-type", field="opening", expected="object", duel=1))
    _refuse_unknown_keys(data, _OPENING_KEYS, 1)
    return Opening(_player(data.get("rps_winner"), 1), _player(data.get("first"), 1))


def _duels_and_between(data: dict[str, Any]) -> tuple[tuple[Duel, ...], bool]:
    duels = data.get("duels", [])
    if not isinstance(duels, list):
        raise RecordFormatError(Problem("match-bad-type", field="duels", expected="list", duel=0))
    between = data.get("time_called_between_duels", False)
    if not isinstance(between, bool):
        raise RecordFormatError(Problem("match-bad-type", field="time_called_between_duels", expected="bool", duel=0))
    return tuple(_duel(d, i) for i, d in enumerate(duels, start=1)), between


def _basis(value: object) -> str:
    if not isinstance(value, str) or value not in BASES:
        raise RecordFormatError(Problem("match-unknown-basis", basis=str(value)[:40]))
    return value


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


# --- JSON: write ------------------------------------------------------------------------------------


def duel_json(duel: Duel) -> dict[str, Any]:
    """One duel in the JSON shape; false flags are left out, as a person writes it."""
    out: dict[str, Any]
    if isinstance(duel, Won):
        out = {"winner": duel.winner.value}
        if duel.time_called:
            out["time_called"] = True
    elif isinstance(duel, Drawn):
        out = {"draw": True}
        if duel.time_called:
            out["time_called"] = True
    else:
        out = {"time": {"A": duel.lp.a, "B": duel.lp.b}}
        if duel.sudden_death is not None:
            out["sudden_death"] = duel.sudden_death.value
    if duel.extra_duel:
        out["extra_duel"] = True
    return out


def opening_json(opening: Opening) -> dict[str, str]:
    return {"rps_winner": opening.rps_winner.value, "first": opening.first.value}


def record_json(record: MatchRecord) -> dict[str, Any]:
    """The `taikai match result` contract: what ``parse_record`` reads back."""
    out: dict[str, Any] = {
        "format": record.format.value,
        "duels": [duel_json(d) for d in record.duels],
        "time_called_between_duels": record.time_called_between_duels,
    }
    if record.opening is not None:
        out["opening"] = opening_json(record.opening)
    return out


def report_json(report: Report) -> dict[str, Any]:
    """What ``Match.record`` and ``ResultReport.record`` store: what ``parse_report`` reads back."""
    out: dict[str, Any] = {
        "duels": [duel_json(d) for d in report.duels],
        "time_called_between_duels": report.time_called_between_duels,
        "basis": report.basis,
    }
    if report.opening is not None:
        out["opening"] = opening_json(report.opening)
    return out


# --- form fields --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FormRow:
    """One duel row of the result form, as the event's ruleset allows it."""

    number: int  # the fields are duel<number>, duel<number>_lp_a, ...
    extra_duel: bool  # the extra duel after time or after 1–1–1 (TIME-E-5)
    draw: bool  # a duel may end in a draw (any duel, MATCH-2; in the extra duel a flagged reading)
    sudden_death: bool  # equal LP after time go to sudden death (TIME-E-3)
    replay: bool = False  # the extra duel played again after a drawn one (core.match.DRAW_IN_EXTRA_DUEL)


def form_rows(ruleset: Ruleset, fmt: Format) -> tuple[FormRow, ...]:
    """The rows a result form shows: the most duels a match has (MATCH-1), then, where the format has one,
    the extra duel (TIME-E-5: after time, or after 1–1–1) and its replay after a drawn extra duel, so every
    duel ``core.match`` asks for has a row."""
    rules = ruleset.format_rules(fmt.value)
    # Any regular duel may end in a draw, in either format (MATCH-2 forbids match draws, not drawn duels).
    most = ruleset.match.max_duels
    rows = [FormRow(n, False, True, rules.sudden_death) for n in range(1, most + 1)]
    if rules.extra_duel:
        rows.append(FormRow(most + 1, True, True, rules.sudden_death))
        rows.append(FormRow(most + 2, True, True, rules.sudden_death, replay=True))
    return tuple(rows)


_ROW = re.compile(r"duel([1-9][0-9]{0,2})")  # a form has a handful of rows; ignore absurd numbers
_SWAP = {Player.A: Player.B, Player.B: Player.A}


def report_from_form(fields: Mapping[str, Any], *, flip: bool = False) -> Report:
    """The result form's fields (``request.POST`` or a plain dict) -> Report. Rows are read in order of
    their number; an empty row is a duel not played."""
    duels = duels_from_form(fields, flip=flip)
    basis = _text(fields, "basis") or "played"
    if basis not in BASES:
        raise RecordFormatError(Problem("form-basis-choice"))
    return Report(duels, bool(_text(fields, "between")), basis, _form_opening(fields, flip))


def _form_opening(fields: Mapping[str, Any], flip: bool) -> Opening | None:
    """MATCH-3, optional: both ``rps_winner`` and ``first`` (A | B), or neither."""
    given = {key: _text(fields, key) for key in ("rps_winner", "first")}
    if not any(given.values()):
        return None
    if any(value not in ("A", "B") for value in given.values()):
        raise RecordFormatError(Problem("form-opening-choice"))
    opening = Opening(Player(given["rps_winner"]), Player(given["first"]))
    return Opening(_SWAP[opening.rps_winner], _SWAP[opening.first]) if flip else opening


def duels_from_form(fields: Mapping[str, Any], *, prefix: str = "duel", flip: bool = False) -> tuple[Duel, ...]:
    """Only the duel rows of a form; ``prefix`` names them (the penalty form's rows are ``prior<n>``)."""
    pattern = _ROW if prefix == "duel" else re.compile(re.escape(prefix) + r"([1-9][0-9]{0,2})")
    numbers = sorted(int(m.group(1)) for key in fields if (m := pattern.fullmatch(str(key))))
    duels = (_form_duel(fields, f"{prefix}{n}", n) for n in numbers)
    found = tuple(d for d in duels if d is not None)
    return tuple(_flipped(d) for d in found) if flip else found


def _text(fields: Mapping[str, Any], key: str) -> str:
    value = fields.get(key)
    return value.strip() if isinstance(value, str) else ""


def _form_duel(fields: Mapping[str, Any], key: str, row: int) -> Duel | None:
    kind = _text(fields, key)
    if not kind:
        return None
    extra = bool(_text(fields, f"{key}_extra"))
    time_called = bool(_text(fields, f"{key}_tc"))
    if kind in ("A", "B"):
        return Won(Player(kind), time_called, extra)
    if kind == "draw":
        return Drawn(time_called, extra)
    if kind != "time":
        raise RecordFormatError(Problem("form-duel-choice", duel=row))
    lp = LifePoints(*(life_points_field(fields, f"{key}_lp_{side}", duel=row) for side in "ab"))
    sudden = _text(fields, f"{key}_sd")
    if sudden not in ("", "A", "B"):
        raise RecordFormatError(Problem("form-sudden-death-choice", duel=row))
    return TimedOut(lp, Player(sudden) if sudden else None, extra)


def life_points_field(fields: Mapping[str, Any], key: str, *, duel: int = 0) -> int:
    """A life-point field: a whole number ("8,000" and full-width digits read too)."""
    text = _text(fields, key).replace(",", "")
    if not text:
        raise RecordFormatError(Problem("form-lp-missing", duel=duel))
    if not text.isdecimal() or len(text) > 7:
        raise RecordFormatError(Problem("form-lp-not-number", duel=duel))
    return int(text)


def _flipped(duel: Duel) -> Duel:
    if isinstance(duel, Won):
        return Won(_SWAP[duel.winner], duel.time_called, duel.extra_duel)
    if isinstance(duel, Drawn):
        return duel
    sudden = None if duel.sudden_death is None else _SWAP[duel.sudden_death]
    return TimedOut(LifePoints(duel.lp.b, duel.lp.a), sudden, duel.extra_duel)


def form_fields(report: Report, *, regular_rows: int = 0, flip: bool = False) -> dict[str, str]:
    """A report as the result form's field values (to pre-fill a correction, or the duels a penalty already
    decided). The regular duels fill rows 1, 2, ...; the extra duel goes to the row after the
    ``regular_rows`` (the ruleset's most duels), where the form has it; what ``report_from_form`` reads back."""
    values: dict[str, str] = {}
    row = 0
    for duel in report.duels:
        if duel.extra_duel and row < regular_rows:
            row = regular_rows
        row += 1
        values.update(_duel_fields(_flipped(duel) if flip else duel, f"duel{row}"))
    if report.time_called_between_duels:
        values["between"] = "1"
    values["basis"] = report.basis
    if report.opening is not None:
        rps, first = report.opening.rps_winner, report.opening.first
        if flip:
            rps, first = _SWAP[rps], _SWAP[first]
        values["rps_winner"], values["first"] = rps.value, first.value
    return values


def _duel_fields(duel: Duel, key: str) -> dict[str, str]:
    values: dict[str, str] = {}
    if isinstance(duel, Won):
        values[key] = duel.winner.value
    elif isinstance(duel, Drawn):
        values[key] = "draw"
    else:
        values[key] = "time"
        values[f"{key}_lp_a"], values[f"{key}_lp_b"] = str(duel.lp.a), str(duel.lp.b)
        if duel.sudden_death is not None:
            values[f"{key}_sd"] = duel.sudden_death.value
    if not isinstance(duel, TimedOut) and duel.time_called:
        values[f"{key}_tc"] = "1"
    if duel.extra_duel:
        values[f"{key}_extra"] = "1"
    return values
