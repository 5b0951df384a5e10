"""A log entry in words (issue 22): the action's text from the registry, who did it, which table or player it
was about, and each changed field as "before → after" in words — a result as 「山田 太郎 の勝ち 2–1」, never JSON.

A table's state has words of its own (``_MatchWords``); every other field goes through ``values``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Model
from django.utils.translation import gettext as _

from taikai.audit.actions import describe
from taikai.audit.models import AuditEntry
from taikai.eventlog.subjects import Subjects
from taikai.eventlog.values import NOTHING, UNSHOWN, label, model_of, redact, text, value
from taikai.events.models import Match, Player
from taikai.events.result_words import basis_text, outcome_text

MATCH_STATUS = dict(Match.Status.choices)
MATCH_KEYS = {"result", "status", "basis", "duels", "record", "duel_wins_a", "duel_wins_b", "duel_draws"}


@dataclass(frozen=True)
class Change:
    """One field: its label, and the value before and after in words (``before`` None: there was no before)."""

    field: str
    label: str
    before: str | None
    after: str


@dataclass(frozen=True)
class LogLine:
    id: int
    at: dt.datetime
    action: str
    text: str
    actor: str
    subject: str
    changes: list[Change]
    reason: str


def lines(entries: list[AuditEntry], *, show_private: bool) -> list[LogLine]:
    """The entries of one page in words; the tables and players they name are read in a few queries."""
    subjects = Subjects.of(entries)
    return [_line(e, subjects, show_private) for e in entries]


def _line(entry: AuditEntry, subjects: Subjects, show_private: bool) -> LogLine:
    match = subjects.match(entry)
    model = model_of(entry.object_type)
    before, after = redact(entry.before, show_private), redact(entry.after, show_private)
    if match is not None and (_is_match_state(before) or _is_match_state(after)):
        changes = _MatchWords(match).changes(before, after)
    else:
        changes = _changes(before, after, model)
    data = redact(entry.data or {}, show_private)
    for key, stored in data.items():
        if match is not None and key not in UNSHOWN and key != "reason":
            changes.append(Change(key, label(key), None, _MatchWords(match).value(key, stored)))
        elif key not in UNSHOWN and key != "reason":
            changes.append(Change(key, label(key, model), None, value(key, stored, model=model, show_private=True)))
    return LogLine(
        id=entry.pk,
        at=entry.at,
        action=entry.action,
        text=describe(entry.action),
        actor=subjects.actor(entry),
        subject=subjects.subject(entry),
        changes=changes,
        reason=str((entry.data or {}).get("reason") or ""),
    )


def _changes(before: Any, after: Any, model: type[Model] | None) -> list[Change]:
    """Field by field, what differs; a value that is not a set of fields reads as one "value"."""
    if isinstance(before, dict) or isinstance(after, dict):
        old, new = before if isinstance(before, dict) else {}, after if isinstance(after, dict) else {}
        out = []
        for key in [*new, *(k for k in old if k not in new)]:
            if key in UNSHOWN:
                continue
            was = value(key, old[key], model=model, show_private=True) if key in old else None
            now = value(key, new[key], model=model, show_private=True) if key in new else NOTHING
            if was != now:
                out.append(Change(key, label(key, model), was, now))
        return out
    if before is None and after is None:
        return []
    was = None if before is None else text(before)
    return [Change("value", _("Value"), was, text(after))]


def _is_match_state(stored: Any) -> bool:
    return isinstance(stored, dict) and bool(MATCH_KEYS & set(stored))


class _MatchWords:
    """A table's state (either shape: results' ``duels`` triple or judging's ``duel_wins_*``) in words."""

    def __init__(self, match: Match) -> None:
        self.match = match

    def name(self, side: str) -> str:
        player: Player | None = self.match.player_a if side.lower() == "a" else self.match.player_b
        return player.name if player is not None else NOTHING

    def result(self, state: dict[str, Any]) -> str:
        result = state.get("result") or ""
        duels = state.get("duels") or [state.get(f"duel_{k}") for k in ("wins_a", "wins_b", "draws")]
        basis = str(state.get("basis") or "")
        if result not in ("a", "b", "draw"):
            return NOTHING
        if len(duels) != 3 or not all(isinstance(n, int) for n in duels):
            return _("Draw") if result == "draw" else _("%(name)s wins") % {"name": self.name(result)}
        a, b, d = duels
        if result == "draw":
            return outcome_text(None, a, b, d, basis)
        winner = self.match.player_a if result == "a" else self.match.player_b
        first, second = (a, b) if result == "a" else (b, a)
        return outcome_text(winner, first, second, d, basis)

    def duels(self, state: dict[str, Any]) -> str:
        record = state.get("record") or {}
        rows = record.get("duels") if isinstance(record, dict) else state.get("duels")  # or a time procedure's
        if not isinstance(rows, list) or not rows or not all(isinstance(row, dict) for row in rows):
            return NOTHING  # results' (a, b, draws) count is not the duels
        return "、".join(self.name(row["winner"]) if row.get("winner") in ("A", "B") else _("Draw") for row in rows)

    def changes(self, before: Any, after: Any) -> list[Change]:
        fields: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
            ("result", self.result),
            ("status", lambda s: str(MATCH_STATUS.get(s.get("status") or "", NOTHING))),
            ("basis", lambda s: basis_text(str(s.get("basis") or "")) or NOTHING),
            ("duels", self.duels),
        ]
        old = before if _is_match_state(before) else None
        new = after if _is_match_state(after) else {}
        out = []
        for key, say in fields:
            was = say(old) if old is not None else None
            now = say(new)
            if was != now and not (old is None and now == NOTHING):
                out.append(Change(key, label(key), was, now))
        if any(c.field == "result" for c in out):  # the result says it; the duels only when the outcome stayed
            out = [c for c in out if c.field != "duels"]
        extra = [(k, v) for k, v in new.items() if k not in MATCH_KEYS and k not in UNSHOWN]
        return out + [Change(k, label(k), None, self.value(k, v)) for k, v in extra]

    def value(self, key: str, stored: Any) -> str:
        """A field of the table's time procedure or report: a side ("A", "b") is that player's name."""
        if key in ("turn_player", "side") and isinstance(stored, str) and stored.lower() in ("a", "b"):
            return self.name(stored)
        return value(key, stored, show_private=True)
