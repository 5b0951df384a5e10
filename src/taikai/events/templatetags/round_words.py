from __future__ import annotations

from django import template

from taikai.events.models import Round
from taikai.events.round_words import round_name as _round_name

register = template.Library()


@register.filter(name="round_name")
def round_name(rnd: Round) -> str:
    """第3ラウンド, 準決勝, ...: the one name of a round (``events.round_words``)."""
    return _round_name(rnd)
