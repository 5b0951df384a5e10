"""The ruleset picker's words: what each built-in ruleset forbids and what it changes from the one it extends,
from ``core.ruleset_traits`` (the ruleset's data), so a ruleset is never described by hand per name.

Penalty names are the judging app's words: it registers them (``register_rung_words``); the events app does not
import judging."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from taikai.core import ruleset_traits
from taikai.core.problems import Problem

_RUNG_WORDS: list[Callable[[str], str]] = []


def register_rung_words(words: Callable[[str], str]) -> None:
    _RUNG_WORDS.append(words)


# A standings column's heading, by the tiebreaker's name (taikai.core.tiebreakers.TIEBREAKERS).
TIEBREAKER_LABELS = {"omw": _lazy("OMW%"), "oomw": _lazy("OOMW%")}


def tiebreaker_label(name: str) -> str:
    return str(TIEBREAKER_LABELS[name])


KINDS = {"fusion": _lazy("Fusion"), "synchro": _lazy("Synchro"), "xyz": _lazy("Xyz"), "link": _lazy("Link")}
REGIONS = {"ocg": "OCG", "tcg": "TCG", "korean": _lazy("Korean")}
SETTINGS = {
    "deck.main_min": _lazy("Main deck, fewest cards"),
    "deck.main_max": _lazy("Main deck, most cards"),
    "deck.extra_max": _lazy("Extra deck, most cards"),
    "deck.side_max": _lazy("Side deck, most cards"),
    "deck.copy_limit": _lazy("Copies of a card"),
    "deck.extra_deck_kinds": _lazy("Extra deck monsters"),
    "deck.legal_regions": _lazy("Card printings"),
    "match.duels_to_win": _lazy("Duel wins to win a match"),
    "match.max_duels": _lazy("Duels in a match, at most"),
    "match.loop_limit": _lazy("A loop ends at its repetition"),
    "time.match_minutes": _lazy("Match time (minutes)"),
    "time.extra_turns": _lazy("Extra turns after time"),
    "time.extension_threshold_minutes": _lazy("A ruling adds time from (minutes)"),
    "time.extension_max_minutes": _lazy("Time added to a table at once, at most (minutes)"),
    "time.round_change_max_minutes": _lazy("A round's clock moves at most (minutes)"),
    "scoring.win": _lazy("Points for a win"),
    "scoring.draw": _lazy("Points for a draw"),
    "scoring.bye": _lazy("Points for a bye"),
    "penalties.ladder": _lazy("Penalties"),
    "penalties.head_judge_only_from": _lazy("Only the head judge gives"),
    "penalties.database_from": _lazy("Recorded in the violator database from"),
    "penalties.downgrade_rungs": _lazy("Penalties that lower a prize"),
    "penalties.team_propagation_from": _lazy("Applies to the whole team from"),
    "penalties.infractions": _lazy("Infractions in the catalog"),
    "penalties.max_downgrade_steps": _lazy("Prize downgrade, most steps"),
}
_RUNG_KEYS = {
    "penalties.ladder",
    "penalties.head_judge_only_from",
    "penalties.database_from",
    "penalties.downgrade_rungs",
    "penalties.team_propagation_from",
}


def described(name: str) -> list[str]:
    """Sentences for a built-in ruleset: what it forbids, then each change from its parent."""
    forbids, parent, changes = ruleset_traits.described(name)
    lines = [_forbid_words(p) for p in forbids]
    if parent and changes:
        lines.append(_("Compared with %(parent)s:") % {"parent": parent})
        lines.extend(_change_words(p) for p in changes)
    return lines


def _forbid_words(problem: Problem) -> str:
    if problem.code == "extra-kind-forbidden":
        return _("No %(kind)s monsters") % {"kind": KINDS.get(problem.params["kind"], problem.params["kind"])}
    if problem.code == "regions-only":
        regions = "/".join(str(REGIONS.get(r, r)) for r in problem.params["regions"])
        return _("Only cards with a %(regions)s printing") % {"regions": regions}
    return _("No cards before their release date")


def _change_words(problem: Problem) -> str:
    key, before, after = problem.params["key"], problem.params["before"], problem.params["after"]
    label = SETTINGS.get(key, key)
    if isinstance(before, tuple) and isinstance(after, tuple) and before and after:
        return _list_change(key, label, before, after)
    return _("%(setting)s: %(before)s → %(after)s") % {
        "setting": label,
        "before": _value(key, problem.params["before"]),
        "after": _value(key, problem.params["after"]),
    }


def _list_change(key: str, label: Any, before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
    """A list that gained or lost entries, said as what was added and removed (a ladder with two more rungs)."""
    added, removed = tuple(v for v in after if v not in before), tuple(v for v in before if v not in after)
    parts = []
    if added:
        parts.append(_("adds %(values)s") % {"values": _value(key, added)})
    if removed:
        parts.append(_("removes %(values)s") % {"values": _value(key, removed)})
    if not parts:  # the same entries in another order
        return _("%(setting)s: %(before)s → %(after)s") % {
            "setting": label,
            "before": _value(key, before),
            "after": _value(key, after),
        }
    return f"{label}: " + _("; ").join(parts)


def _value(key: str, value: Any) -> str:
    if value is None or value == ():
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, tuple):
        return "・".join(_value(key, v) for v in value)
    if isinstance(value, Fraction):
        return f"{float(value) * 100:g}%"
    if key == "deck.extra_deck_kinds":
        return str(KINDS.get(value, value))
    if key == "deck.legal_regions":
        return str(REGIONS.get(value, value))
    if key in _RUNG_KEYS and isinstance(value, str):
        return _RUNG_WORDS[0](value) if _RUNG_WORDS else value
    return str(value)
