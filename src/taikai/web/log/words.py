"""A log entry in words (issue 22): the action's text from the registry, who did it, which table or player it
was about, and each changed field as "before → after" in words — a result as 「山田 太郎 の勝ち 2–1」, never JSON.

Fields nobody named here still read: the key in words and the value as text (yes/no, a time, a list).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from taikai.audit.actions import describe
from taikai.audit.models import AuditEntry
from taikai.events.models import Match, Player
from taikai.events.views.result_words import basis_text, outcome_text
from taikai.web.log.subjects import Subjects

NOTHING = "—"
HIDDEN = _lazy("(hidden)")
HIDDEN_VALUE = "***"  # what a private value reads as in the raw before/after of a reader not allowed it

LABELS = {
    "name": _lazy("Name"),
    "name_kana": _lazy("Name (kana)"),
    "card_game_id": _lazy("Card Game ID"),
    "contact": _lazy("Contact"),
    "checked_in_at": _lazy("Checked in at"),
    "dropped_after_round": _lazy("Dropped"),
    "disqualified": _lazy("Disqualified"),
    "late_entry_round": _lazy("Late entry"),
    "result": _lazy("Result"),
    "status": _lazy("Status"),
    "basis": _lazy("How it ended"),
    "duels": _lazy("Duels"),
    "reason": _lazy("Reason"),
    "table": _lazy("Table"),
    "seconds": _lazy("Seconds"),
    "extension_seconds": _lazy("Time extension (seconds)"),
    "count": _lazy("Count"),
    "side": _lazy("Reported by"),
}
PRIVATE = {"contact"}  # contact details are the organizer's (exports with contact details are theirs only)
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


def redact(value: Any, show_private: bool) -> Any:
    """A stored value with the private fields hidden at any depth (a removed registration keeps its contact)."""
    if show_private:
        return value
    if isinstance(value, dict):
        return {k: HIDDEN_VALUE if k in PRIVATE else redact(v, False) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, False) for v in value]
    return value


def lines(entries: list[AuditEntry], *, show_private: bool) -> list[LogLine]:
    """The entries of one page in words; the tables and players they name are read in a few queries."""
    subjects = Subjects.of(entries)
    return [_line(e, subjects, show_private) for e in entries]


def _line(entry: AuditEntry, subjects: Subjects, show_private: bool) -> LogLine:
    match = subjects.match(entry)
    say = _MatchWords(match) if match is not None else None
    before, after = redact(entry.before, show_private), redact(entry.after, show_private)
    changes = _changes(before, after, say, show_private)
    data = {k: v for k, v in redact(entry.data or {}, show_private).items() if k != "reason"}
    changes += [Change(k, _label(k), None, _value(k, v, show_private, say)) for k, v in data.items()]
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


def _changes(before: Any, after: Any, say: _MatchWords | None, show_private: bool) -> list[Change]:
    if say is not None and (_is_match_state(before) or _is_match_state(after)):
        return say.changes(before, after)
    if isinstance(before, dict) or isinstance(after, dict):
        old, new = before if isinstance(before, dict) else {}, after if isinstance(after, dict) else {}
        out = []
        for key in [*new, *(k for k in old if k not in new)]:
            was = _value(key, old[key], show_private, say) if key in old else None
            now = _value(key, new[key], show_private, say) if key in new else NOTHING
            if was != now:
                out.append(Change(key, _label(key), was, now))
        return out
    if before is None and after is None:
        return []
    was = None if before is None else _value("value", before, show_private, say)
    return [Change("value", _("Value"), was, _value("value", after, show_private, say))]


def _label(key: str) -> str:
    known = LABELS.get(key)
    return str(known) if known is not None else key.replace("_", " ").capitalize()


def _value(key: str, value: Any, show_private: bool, say: _MatchWords | None = None) -> str:
    """Any stored value as text a person reads."""
    if (key in PRIVATE and not show_private) or value == HIDDEN_VALUE:
        return str(HIDDEN)
    if key == "dropped_after_round" and isinstance(value, int):
        return _("After round %(n)s") % {"n": value}
    if key == "side" and say is not None and value in ("a", "b"):
        return say.name(value)
    return _text(value)


def _text(value: Any) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return NOTHING
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    if value == HIDDEN_VALUE:
        return str(HIDDEN)
    if isinstance(value, str):
        return _when(value) or value
    if isinstance(value, list | tuple):
        return "、".join(_text(v) for v in value)
    if isinstance(value, dict):
        return " / ".join(f"{_label(str(k))}: {_text(v)}" for k, v in value.items())
    return str(value)


def _when(value: str) -> str:
    """A stored time (ISO 8601) as the venue's clock shows it; "" for any other text."""
    if len(value) < 19 or value[10:11] != "T":
        return ""
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return ""
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return moment.strftime("%m/%d %H:%M")


def _is_match_state(value: Any) -> bool:
    return isinstance(value, dict) and bool(MATCH_KEYS & set(value))


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
        if isinstance(rows, list) and not all(isinstance(row, dict) for row in rows):
            rows = None  # results' (a, b, draws) count, not the duels
        if not isinstance(rows, list) or not rows:
            return NOTHING
        return "、".join(self._duel(row) for row in rows)

    def _duel(self, row: Any) -> str:
        winner = row.get("winner") if isinstance(row, dict) else None
        return self.name(winner) if winner in ("A", "B") else _("Draw")

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
                out.append(Change(key, _label(key), was, now))
        if any(c.field == "result" for c in out):  # the result says it; the duels only when the outcome stayed
            out = [c for c in out if c.field != "duels"]
        extra = {k: v for k, v in (new or {}).items() if k not in MATCH_KEYS}
        return out + [Change(k, _label(k), None, _text(v)) for k, v in extra.items()]
