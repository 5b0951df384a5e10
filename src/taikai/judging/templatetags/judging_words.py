"""``{% load judging_words %}``: penalty rungs and infractions in words (``{{ p.rung|rung_words }}``)."""

from __future__ import annotations

from django import template

from taikai.core.rungs import RUNGS
from taikai.judging.words import infraction_words as words_of
from taikai.judging.words import rung_label

register = template.Library()


@register.filter(name="rung_words")
def rung_words(rung: str) -> str:
    return rung_label(rung)


@register.filter(name="infraction_words")
def infraction_words(infraction: str) -> str:
    return words_of(infraction)


@register.filter(name="loses_a_duel")
def loses_a_duel(rung: str) -> bool:
    """A rung whose loss is a duel (waiting for the next match's first duel), not the match (PEN-1)."""
    return rung in RUNGS and RUNGS[rung].duel_loss
