"""``{% load judging_words %}``: penalty rungs and infractions in words (``{{ p.rung|rung_words }}``)."""

from __future__ import annotations

from django import template

from taikai.judging.labels import infraction_words as words_of
from taikai.judging.labels import rung_label

register = template.Library()


@register.filter(name="rung_words")
def rung_words(rung: str) -> str:
    return rung_label(rung)


@register.filter(name="infraction_words")
def infraction_words(infraction: str) -> str:
    return words_of(infraction)
