"""``{% load standing_words %}``: a standings table's tiebreaker columns, named as the ruleset orders them
(``{% for label in event.ruleset|tiebreaker_labels %}``) and each value's label (``{{ f.name|tiebreaker_label }}``)."""

from __future__ import annotations

from django import template

from taikai.core.ruleset import Ruleset
from taikai.core.tiebreakers import columns
from taikai.events.ruleset_words import tiebreaker_label as _label

register = template.Library()


@register.filter(name="tiebreaker_labels")
def tiebreaker_labels(ruleset: Ruleset) -> list[str]:
    return [_label(name) for name in columns(ruleset.standings.tiebreakers)]


@register.filter(name="tiebreaker_label")
def tiebreaker_label(name: str) -> str:
    return _label(name)
