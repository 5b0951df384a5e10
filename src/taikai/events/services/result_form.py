"""The duel-by-duel result form: what it offers for a match, and its fields filled in from a stored record."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from taikai.core import match_json
from taikai.core.match import intentional_draw_allowed
from taikai.core.match_json import RecordFormatError
from taikai.core.ruleset import Ruleset
from taikai.events.models import Match


def form_values(record: dict[str, Any] | None, *, flip: bool = False, ruleset: Ruleset | None = None) -> dict[str, str]:
    """The duel-by-duel form's field values for a stored record (to pre-fill a correction, or the duels a
    penalty already decided). ``flip`` shows it from player B's side ("me" = B); with the ``ruleset``, an
    extra duel lands on the form's extra-duel row."""
    if not record:
        return {}
    try:
        report = match_json.parse_report(record)
    except RecordFormatError:
        return {}  # a record this form cannot show is entered afresh
    rows = ruleset.match.max_duels if ruleset is not None else 0
    return match_json.form_fields(report, regular_rows=rows, flip=flip)


@dataclass(frozen=True)
class ResultForm:
    """What the match's duel-by-duel form offers, from its event's ruleset and its round's format."""

    rows: tuple[match_json.FormRow, ...]
    intentional_draw: bool  # END-2
    extra_turns: int  # TIME-E-1, TIME-S-1
    extra_duel_turns: int  # TIME-E-5
    extra_duel_lp: int  # TIME-E-5


def result_form(match: Match) -> ResultForm:
    fmt = match.round.format
    ruleset = match.round.event.ruleset
    time = ruleset.time
    return ResultForm(
        match_json.form_rows(ruleset, fmt),
        intentional_draw_allowed(fmt, ruleset),
        time.extra_turns,
        time.extra_duel_turns,
        time.extra_duel_lp,
    )
