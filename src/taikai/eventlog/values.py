"""One stored field in words: its label and its value, from what the log knows of the row it was written for.

The model of the entry's row gives the label (a field's verbose name) and a choice's text (a status, a format);
a few keys carry rules words of their own (a penalty's rung and infraction, an integrity topic); anything else
reads as its key in words and its value as text (yes/no, a time, a list, ``key: value`` pairs).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Field, Model
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import get_language_info
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from taikai.judging.words import infraction_label, rung_label

NOTHING = "—"
HIDDEN = _lazy("(hidden)")
HIDDEN_VALUE = "***"  # what a private value reads as in the raw before/after of a reader not allowed it
PRIVATE = {"contact"}  # contact details are the organizer's (exports with contact details are theirs only)
# Row ids the entry's subject already names, and bookkeeping no person reads.
UNSHOWN = {
    "player",
    "match",
    "taken_by",
    "copy",
    "team",
    "penalty",
    "call",
    "effects",
    "ruleset_fingerprint",
    "opening",
}

LABELS = {
    "name": _lazy("Name"),
    "name_kana": _lazy("Name (kana)"),
    "text": _lazy("Announcement"),
    "card_game_id": _lazy("Card Game ID"),
    "contact": _lazy("Contact"),
    "checked_in_at": _lazy("Checked in at"),
    "dropped_after_round": _lazy("Dropped"),
    "disqualified": _lazy("Disqualified"),
    "late_entry_round": _lazy("Joins from round"),
    "late_entry": _lazy("Late entry"),
    "result": _lazy("Result"),
    "status": _lazy("Status"),
    "basis": _lazy("How it ended"),
    "duels": _lazy("Duels"),
    "reason": _lazy("Reason"),
    "table": _lazy("Table"),
    "seconds": _lazy("Seconds"),
    "extension_seconds": _lazy("Time extension (seconds)"),
    "ruling_seconds": _lazy("Ruling took (seconds)"),
    "count": _lazy("Count"),
    "side": _lazy("Reported by"),
    "infraction": _lazy("Infraction"),
    "rung": _lazy("Penalty"),
    "default_rung": _lazy("The rule's penalty"),
    "downgrade_steps": _lazy("Prize downgrade (steps)"),
    "prize_loss": _lazy("Prize eligibility lost"),
    "overturned": _lazy("Overturned"),
    "lands_on": _lazy("Applies to"),
    "waiting_for_next_match": _lazy("Waiting for the next match"),
    "ruling": _lazy("Ruling"),
    "topic": _lazy("What was found"),
    "description": _lazy("Description"),
    "pairings": _lazy("Tables"),
    "byes": _lazy("Byes"),
    "seed": _lazy("Pairing seed"),
    "started_at": _lazy("Started at"),
    "id_card_shown": _lazy("ID card shown"),
    "ineligible_reason": _lazy("Not eligible because"),
    "what": _lazy("What changed"),
    "step": _lazy("Input"),
    "kind": _lazy("Kind"),
    "turn_player": _lazy("Turn player"),
    "username": _lazy("User name"),
    "role": _lazy("Role"),
    "decision": _lazy("Decision"),
    "note": _lazy("Note"),
    "user": _lazy("Account"),
    "prefix": _lazy("Token prefix"),
    "site": _lazy("Site token"),
    "expires_at": _lazy("Expires"),
    "version": _lazy("Version"),
    "legal": _lazy("Legal"),
    "languages": _lazy("Card languages"),
    "mixed_languages": _lazy("Mixed card languages"),
    "problems": _lazy("Problems found"),
    "manual": _lazy("By hand"),
    "format": _lazy("Format"),
}
# The same key in another row means something else: a deck list's sides are its three decks.
TYPE_LABELS = {
    ("decks.deckregistration", "main"): _lazy("Main deck"),
    ("decks.deckregistration", "extra"): _lazy("Extra deck"),
    ("decks.deckregistration", "side"): _lazy("Side deck"),
}
TOPICS = {
    "disputed": _lazy("Results disagree"),
    "changed-after-confirmation": _lazy("A confirmed result was changed"),
    "id-in-elimination": _lazy("Intentional draw reported in single elimination"),
    "possible-misreport": _lazy(
        "Intentional draw reported with won duels: possibly a result different from the game (INF-22)"
    ),
}
LANDINGS = {"current": _lazy("This match"), "next": _lazy("The next match")}


KINDS_OF_CALL = {"during": _lazy("During a duel"), "between": _lazy("Between duels")}


def _count(words: Promise) -> Callable[[Any], str | None]:
    return lambda v: str(words) % {"n": len(v)} if isinstance(v, list) else None


def _languages(stored: Any) -> str | None:
    if not isinstance(stored, list) or not all(isinstance(code, str) for code in stored):
        return None
    names = []
    for code in stored:
        try:
            names.append(str(get_language_info(code)["name_translated"]))
        except KeyError:
            names.append(code)
    return "、".join(names) or NOTHING


def _after_round(value: Any) -> str | None:
    return _("After round %(n)s") % {"n": value} if isinstance(value, int) else None


# Keys whose values have words of their own; None: fall back to the plain text.
SAYINGS: dict[str, Callable[[Any], str | None]] = {
    "rung": lambda v: rung_label(v) if isinstance(v, str) and v else None,
    "default_rung": lambda v: rung_label(v) if isinstance(v, str) and v else None,
    "infraction": lambda v: infraction_label(v) if isinstance(v, str) and v else None,
    "topic": lambda v: str(TOPICS[v]) if v in TOPICS else None,
    "lands_on": lambda v: str(LANDINGS[v]) if v in LANDINGS else None,
    "dropped_after_round": _after_round,
    "pairings": _count(_lazy("%(n)s tables")),
    "byes": _count(_lazy("%(n)s players")),
    "problems": lambda v: str(len(v)) if isinstance(v, list) else None,
    "languages": _languages,
    "kind": lambda v: str(KINDS_OF_CALL[v]) if v in KINDS_OF_CALL else None,
}
TYPE_SAYINGS: dict[tuple[str, str], Callable[[Any], str | None]] = {
    ("decks.deckregistration", key): _count(_lazy("%(n)s cards")) for key in ("main", "extra", "side")
}


def model_of(object_type: str) -> type[Model] | None:
    try:
        return apps.get_model(object_type) if "." in object_type else None
    except LookupError:
        return None


def _field(model: type[Model] | None, key: str) -> Field[Any, Any] | None:
    if model is None:
        return None
    try:
        found = model._meta.get_field(key)
    except FieldDoesNotExist:
        return None
    return found if isinstance(found, Field) else None


def label(key: str, model: type[Model] | None = None) -> str:
    known = TYPE_LABELS.get((model._meta.label_lower, key)) if model is not None else None
    known = known if known is not None else LABELS.get(key)
    if known is not None:
        return str(known)
    field = _field(model, key)
    if field is not None and str(field.verbose_name) != key.replace("_", " "):
        return str(field.verbose_name).capitalize()
    return key.replace("_", " ").capitalize()


def value(key: str, stored: Any, *, model: type[Model] | None = None, show_private: bool = False) -> str:
    """A stored value as text a person reads."""
    if (key in PRIVATE and not show_private) or stored == HIDDEN_VALUE:
        return str(HIDDEN)
    saying = TYPE_SAYINGS.get((model._meta.label_lower, key)) if model is not None else None
    saying = saying if saying is not None else SAYINGS.get(key)
    said = saying(stored) if saying is not None else None
    if said is not None:
        return said
    field = _field(model, key)
    if field is not None and field.choices and isinstance(stored, str | int):
        choice = dict(field.flatchoices).get(stored)
        if choice is not None:
            return str(choice)
    return text(stored)


def text(stored: Any) -> str:
    if stored is None or stored == "" or stored == [] or stored == {}:
        return NOTHING
    if stored == HIDDEN_VALUE:
        return str(HIDDEN)
    if isinstance(stored, bool):
        return _("Yes") if stored else _("No")
    if isinstance(stored, str):
        return _when(stored) or stored
    if isinstance(stored, list | tuple):
        return "、".join(text(v) for v in stored)
    if isinstance(stored, dict):
        # Nested values were redacted with the whole entry (``redact``): what is left is the reader's to see.
        shown = [(str(k), v) for k, v in stored.items() if k not in UNSHOWN]
        return " / ".join(f"{label(k)}: {value(k, v, show_private=True)}" for k, v in shown)
    return str(stored)


def _when(stored: str) -> str:
    """A stored time (ISO 8601) as the venue's clock shows it; "" for any other text."""
    if len(stored) < 19 or stored[10:11] != "T":
        return ""
    try:
        moment = dt.datetime.fromisoformat(stored)
    except ValueError:
        return ""
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return moment.strftime("%m/%d %H:%M")


def redact(stored: Any, show_private: bool) -> Any:
    """A stored value with the private fields hidden at any depth (a removed registration keeps its contact)."""
    if show_private:
        return stored
    if isinstance(stored, dict):
        return {k: HIDDEN_VALUE if k in PRIVATE else redact(v, False) for k, v in stored.items()}
    if isinstance(stored, list):
        return [redact(v, False) for v in stored]
    return stored
