"""Telling players, in words, what a decision changed at their table (issue 22: whoever it affects sees it).

A notice is written in the transaction of the change it tells of (so a rolled-back change tells nothing),
shown on the player's own page until they close it, and never marked read by opening a page (reads never
write): closing is the player's own POST. Texts: ``taikai.events.notice_texts``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from taikai.audit.services import record
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Match, Notice, Player
from taikai.events.permissions import require_player_or_staff


def _where(match: Match | None) -> dict[str, Any]:
    if match is None:
        return {}
    return {"round": match.round.number, "table": match.table}


def tell(player: Player, match: Match | None, kind: str, **params: Any) -> Notice:
    """One notice to one player (inside the caller's transaction)."""
    return Notice.objects.create(
        event_id=player.event_id, player=player, match=match, kind=kind, params={**_where(match), **params}
    )


def tell_both(match: Match, kind: str, **params: Any) -> list[Notice]:
    """The same notice to both players of a table; ``loser`` ("a"/"b") becomes the player's name."""
    if "loser" in params:
        loser = match.player_a if params["loser"] == "a" else match.player_b
        params = {**params, "name": loser.name if loser else ""}
    players = [p for p in (match.player_a, match.player_b) if p is not None]
    return [tell(p, match, kind, **params) for p in players]


def close_superseded(match: Match, *, penalty: str) -> int:
    """An overturned penalty's own notices at this table close, so the page shows the overturn's words, not
    the penalty's as if it still stood (inside the caller's transaction)."""
    stale = Notice.objects.filter(match=match, closed_at__isnull=True, params__penalty=str(penalty))
    return stale.update(closed_at=timezone.now())


def open_notices(player: Player) -> list[Notice]:
    return list(Notice.objects.filter(player=player, closed_at__isnull=True).select_related("match__round")[:10])


def close_notice(notice_id: int, *, player: Player, by: Actor) -> Notice:
    """The player closes a notice they have read (their own only)."""
    require_player_or_staff(by, player)
    with transaction.atomic():
        notice = Notice.objects.select_for_update().filter(pk=notice_id, player=player).first()
        if notice is None:
            raise ServiceError("no-such-notice")
        if notice.closed_at is None:
            notice.closed_at = timezone.now()
            notice.save(update_fields=["closed_at"])
            record(actions.NOTICE_CLOSED, actor=by, obj=notice, before={"closed": False},
                   after={"closed": True}, kind=notice.kind)  # fmt: skip
    return notice
