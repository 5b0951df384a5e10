"""Taking part: a player drops or is taken back, or loses the right to take part (REG-2). A disqualification
(PEN-1) is a judge's decision: ``rulings.disqualify_player``.

A player who leaves while their table is being played concedes it (``core.open_match``, through ``rulings``).
"""

from __future__ import annotations

from django.db import transaction

from taikai.audit.services import fields_of, save_and_log
from taikai.core.open_match import Ruling
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.permissions import require_organizer, require_player_or_organizer
from taikai.events.services import notices, rulings
from taikai.events.services.registration import PLAYER_FIELDS


def drop_player(player: Player, *, by: Actor) -> Player:
    """A dropped player is never paired again; their results stay in the standings. The player drops
    themself, or the organizer drops them. A drop while their table is being played concedes that match
    (``core.open_match``): the opponent wins and the round does not wait for it."""
    require_player_or_organizer(by, player)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.dropped:
            raise ServiceError("already-dropped")
        before = fields_of(player, PLAYER_FIELDS)
        player.dropped_after_round = player.event.rounds.count()
        save_and_log(
            player,
            actions.PLAYER_DROPPED,
            actor=by,
            before=before,
            shown=PLAYER_FIELDS,
        )
        _end_open_match(player, by, Ruling.DROP_CONCESSION)
    return player


def _end_open_match(player: Player, by: Actor, ruling: Ruling) -> None:
    rulings.end_open_match(player, by=by, ruling=ruling)


def undrop_player(player: Player, *, by: Actor) -> Player:
    """Take back a drop made by mistake, while no round has been paired since: the player is paired in the
    next round as before. A disqualification (PEN-1) is lifted only by overturning its penalty."""
    require_organizer(by, player.event)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if not player.dropped:
            raise ServiceError("not-dropped")
        event = player.event
        if event.status == Event.Status.FINISHED or event.rounds.count() != player.dropped_after_round:
            raise ServiceError("undrop-too-late")
        if player.disqualified:
            raise ServiceError("undrop-disqualified")
        before = fields_of(player, PLAYER_FIELDS)
        player.dropped_after_round = None
        save_and_log(player, actions.PLAYER_UNDROPPED, actor=by, before=before, shown=PLAYER_FIELDS)
    return player


def mark_ineligible(player: Player, *, by: Actor, reason: str) -> Player:
    """REG-2: the organizer marks a player without the right to take part (参加資格: e.g. a Card Game ID with
    wrong data), with a reason. From then on the player is not paired; an empty reason restores it. Marked
    while their table is being played, they cannot play it on: the opponent wins it (``core.open_match``);
    a restored right does not undo that decided result (a correction does). The player is told, with the reason."""
    require_organizer(by, player.event)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        before = fields_of(player, PLAYER_FIELDS)
        player.ineligible_reason = reason.strip()[:300]
        # the player's version goes up as with every other change to them: a desk decision on the row as it was
        # (a link re-issued from a page opened before) is refused, not applied over it
        save_and_log(player, actions.PLAYER_UPDATED, actor=by, before=before, shown=PLAYER_FIELDS)
        if player.ineligible_reason and not before["ineligible_reason"]:
            notices.tell(player, None, "ineligible", reason=player.ineligible_reason)
            _end_open_match(player, by, Ruling.INELIGIBLE_FORFEIT)
    return player
