"""``{% load deck_words %}`` ``{{ registration.languages|language_names }}``: card languages by name, not code."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils import translation

from taikai.decks.forms import LANGUAGE_CHOICES

register = template.Library()
_NAMES = dict(LANGUAGE_CHOICES)


@register.filter(name="language_names")
def language_names(codes: Iterable[str]) -> str:
    separator = "、" if (translation.get_language() or "ja").startswith("ja") else ", "
    return separator.join(str(_NAMES.get(code, code)) for code in codes or ())
