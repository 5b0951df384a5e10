"""What other apps add to the player's page: the events app knows no other app, so an app that has something to
show there (taikai.judging: the judge call at the player's table) registers a panel when it starts
(AppConfig.ready). A panel is a read: it draws its part of the page from the state it owns."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.utils.safestring import SafeString

from taikai.events.models import Match, Player

# (request, player, their current match, the link's token) -> the panel's HTML ("" when it has nothing to say)
PlayerPanel = Callable[[HttpRequest, Player, Match | None, str], SafeString]
_PANELS: list[PlayerPanel] = []


def register_player_panel(panel: PlayerPanel) -> None:
    if panel not in _PANELS:
        _PANELS.append(panel)


def player_panels(request: HttpRequest, player: Player, match: Match | None, token: str) -> list[SafeString]:
    return [html for panel in _PANELS if (html := panel(request, player, match, token))]
