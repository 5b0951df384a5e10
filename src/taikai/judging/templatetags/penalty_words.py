"""Names, not codes, on the judges' and players' pages: ``{{ p.rung|rung_name }}``,
``{{ p.infraction|infraction_name }}``."""

from __future__ import annotations

from django import template

from taikai.judging.words import infraction_words as words_of
from taikai.judging.words import rung_label

register = template.Library()


@register.filter
def rung_name(rung: str) -> str:
    return rung_label(rung)


@register.filter
def infraction_name(infraction: str) -> str:
    return words_of(infraction)
