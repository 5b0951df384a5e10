"""``{% load result_words %}`` ``{{ match|result_words }}``: a match's result in words (「山田 太郎 の勝ち 2–1」)."""

from __future__ import annotations

from django import template

from taikai.events import result_words as words
from taikai.events.models import Match

register = template.Library()


@register.filter(name="result_words")
def result_words(match: Match) -> str:
    return words.result_text(match)


@register.filter(name="ruling_words")
def ruling_words(match: Match) -> str:
    """``{{ match|ruling_words }}``: what ended the match instead of the duels (a DQ, a drop, REG-2), or ""."""
    return words.ruling_text(match)


@register.filter(name="report_words")
def report_words(report: object, match: Match) -> str:
    """``{{ report|report_words:match }}``: what a player's (or staff's) report says, in words."""
    return words.report_text(match, getattr(report, "record", None))


@register.filter(name="basis_words")
def basis_words(basis: str) -> str:
    return words.basis_text(basis)


@register.filter(name="side_words")
def side_words(match: Match, side: str | None) -> str:
    """``{{ match|side_words:side }}``: the result from one player's side (「負け 0–2（投了）」, 「合意の引き分け」)."""
    return words.side_text(match, side)
