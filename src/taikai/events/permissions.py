"""Who may do what in an event: the one place that checks an actor (``taikai.events.actors``).

Every service calls one ``require_*`` at its top. A staff member's role comes from ``StaffRole`` (a site
administrator counts as organizer); an API token caps it at the token's role and is worth nothing in
another event. The player acts on their own things only; ``System`` is taikai's own work, built by code.
"""

from __future__ import annotations

from taikai.events.actors import Actor, PlayerSelf, Staff, System, Visitor
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Player, StaffRole
from taikai.events.site_roles import is_organizer as in_organizers

ORGANIZER, HEAD_JUDGE, JUDGE = StaffRole.Role.ORGANIZER, StaffRole.Role.HEAD_JUDGE, StaffRole.Role.JUDGE
RANK = {str(JUDGE): 1, str(HEAD_JUDGE): 2, str(ORGANIZER): 3}


def _signed_in(actor: Actor) -> bool:
    return isinstance(actor, Staff) and bool(getattr(actor.user, "is_authenticated", False))


def _site_admin(actor: Actor) -> bool:
    """A superuser signed in on the web (a token never carries more than its role)."""
    return _signed_in(actor) and isinstance(actor, Staff) and actor.token_event_id is None and actor.user.is_superuser


def role_of(actor: Actor, event: Event) -> str | None:
    """The staff role of ``actor`` in ``event``, capped at a token's role; None for anyone else."""
    if not isinstance(actor, Staff) or not _signed_in(actor):
        return None
    if actor.token_event_id is not None and actor.token_event_id != event.pk:
        return None
    if actor.user.is_superuser:
        role: str | None = str(ORGANIZER)
    else:
        role = StaffRole.objects.filter(event=event, user=actor.user).values_list("role", flat=True).first()
    if role is not None and actor.cap is not None and RANK[actor.cap] < RANK[role]:
        role = actor.cap
    return role


def is_staff(actor: Actor, event: Event) -> bool:
    return isinstance(actor, System) or role_of(actor, event) is not None


def is_judge(actor: Actor, event: Event) -> bool:
    return isinstance(actor, System) or role_of(actor, event) in (JUDGE, HEAD_JUDGE, ORGANIZER)


def is_head_judge(actor: Actor, event: Event) -> bool:
    """PEN-6: the one head judge of the event (or a site administrator, signed in on the web)."""
    return isinstance(actor, System) or role_of(actor, event) == HEAD_JUDGE or _site_admin(actor)


def require_organizer(actor: Actor, event: Event) -> None:
    if not (isinstance(actor, System) or role_of(actor, event) == ORGANIZER):
        raise PermissionDenied("not-organizer")


def require_staff(actor: Actor, event: Event) -> None:
    if not is_staff(actor, event):
        raise PermissionDenied("not-staff")


def require_judge(actor: Actor, event: Event) -> None:
    if not is_judge(actor, event):
        raise PermissionDenied("not-judge")


def require_head_judge(actor: Actor, event: Event) -> None:
    if not is_head_judge(actor, event):
        raise PermissionDenied("not-head-judge")


def require_player_or_staff(actor: Actor, player: Player) -> None:
    """What a player may do on their own behalf (drop, archetype, deck, a judge call): the player
    themself, or staff of the event for them. Another player is refused."""
    if isinstance(actor, PlayerSelf):
        if actor.player.pk != player.pk:
            raise PermissionDenied("not-staff")
        return
    require_staff(actor, player.event)


def require_player_or_judge(actor: Actor, player: Player) -> None:
    """An appeal: the player themself, or a judge filing it for them."""
    if isinstance(actor, PlayerSelf):
        require_player_or_staff(actor, player)
        return
    require_judge(actor, player.event)


def require_registration(actor: Actor, event: Event) -> None:
    """Staff register anyone at any time; a visitor registers themself while registration is open."""
    if isinstance(actor, Visitor):
        if not event.registration_open:
            raise ServiceError("registration-closed")
        return
    require_staff(actor, event)


def require_site_organizer(actor: Actor) -> None:
    """Creating events and staff accounts: an account in the site's organizers, signed in on the web
    (a token belongs to one event; ``System`` creates no events, which always have a person behind them)."""
    if not isinstance(actor, Staff) or actor.token_event_id is not None or not in_organizers(actor.user):
        raise ServiceError("not-organizer")
