"""The judging app's part of the player's page (taikai.events.views.panels): the judge call at their table,
「ジャッジを呼びました」 with the way to take it back, or that the opponent called."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from taikai.events.models import Match, Player
from taikai.events.views.panels import register_player_panel
from taikai.judging.services.player_calls import table_call


def judge_call_panel(request: HttpRequest, player: Player, match: Match | None, token: str) -> SafeString:
    state = table_call(player, match)
    if state is None:
        return mark_safe("")
    return render_to_string("judging/_player_call_state.html", {"state": state, "token": token}, request=request)


register_player_panel(judge_call_panel)
