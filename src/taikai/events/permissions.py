"""Who may do what in an event: the one place that checks an actor (``taikai.events.actors``).

Every service calls one ``require_*`` at its top. A staff member's role comes from ``StaffRole`` (a site
administrator counts as organizer); an API token caps it at the token's role and is worth nothing in
another event. The player acts on their own things only; ``System`` is taikai's own work, built by code.

Who does what (PRODUCT.md, CS 3):

- the organizer (``require_organizer``): registration, check-in, players' links, drops, result entry and
  correction (a judge corrects a result they entered themself: ``may_correct_result``), the round clock,
  exports with contact details, prize ranks, publishing the declared deck archetypes before the event ends;
- any judge (``require_judge``): judge calls, penalties up to the head judge's rungs, time extensions for a
  ruling (TIME-4: at most the ruling's length), the time procedure, deck checks, table tools, playoff pairings;
- the event's one head judge (``require_head_judge``): disqualification and heavier, appeals, removing a
  prize, importing the violator database, more time than a ruling took (``extend_time``). A site
  administrator is *not* the head judge (CS 3: 唯一のジャッジ);
  an organizer who judges names themself head judge (``organizer_head_judge``) and stays organizer;
- the organizer and the head judge (``require_log_reader``): the event's whole log; a player, through their own
  link, the entries about their own tables; a floor judge is not shown it.
"""

from __future__ import annotations

from taikai.events.actors import Actor, PlayerSelf, Staff, System, Visitor
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Player, StaffRole
from taikai.events.site_roles import is_organizer as in_organizers

ORGANIZER, HEAD_JUDGE, JUDGE = StaffRole.Role.ORGANIZER, StaffRole.Role.HEAD_JUDGE, StaffRole.Role.JUDGE
ORGANIZER_HEAD_JUDGE = StaffRole.Role.ORGANIZER_HEAD_JUDGE
HEAD_JUDGE_ROLES = (str(HEAD_JUDGE), str(ORGANIZER_HEAD_JUDGE))
RANK = {str(JUDGE): 1, str(HEAD_JUDGE): 2, str(ORGANIZER): 3}


def _signed_in(actor: Actor) -> bool:
    return isinstance(actor, Staff) and bool(getattr(actor.user, "is_authenticated", False))


def _stored_role(actor: Staff, event: Event) -> str | None:
    role: str | None = StaffRole.objects.filter(event=event, user=actor.user).values_list("role", flat=True).first()
    return role


def role_of(actor: Actor, event: Event) -> str | None:
    """The staff role of ``actor`` in ``event`` (organizer, head judge or judge), capped at a token's role;
    None for anyone else. An organizer who is also the head judge answers organizer here."""
    if not isinstance(actor, Staff) or not _signed_in(actor):
        return None
    if actor.token_event_id is not None and actor.token_event_id != event.pk:
        return None
    if actor.user.is_superuser and not actor.site_token:
        # A site administrator organizes every event, whatever role is stored (nothing to read); a site token
        # acts only where its user holds a role (a superuser's token is no master key).
        role: str | None = str(ORGANIZER)
    else:
        role = _stored_role(actor, event)
        role = str(ORGANIZER) if role == ORGANIZER_HEAD_JUDGE else role
    if role is not None and actor.cap is not None and RANK[actor.cap] < RANK[role]:
        role = actor.cap
    return role


def is_staff(actor: Actor, event: Event) -> bool:
    return isinstance(actor, System) or role_of(actor, event) is not None


def is_judge(actor: Actor, event: Event) -> bool:
    return isinstance(actor, System) or role_of(actor, event) in (JUDGE, HEAD_JUDGE, ORGANIZER)


def is_head_judge(actor: Actor, event: Event) -> bool:
    """PEN-6, CS 3: the event's one head judge, named on the staff page. A site administrator is not the head
    judge for being one; a token is the head judge's only when its role reaches head judge."""
    if isinstance(actor, System):
        return True
    if not isinstance(actor, Staff) or not _signed_in(actor):
        return False
    if actor.token_event_id is not None and actor.token_event_id != event.pk:
        return False
    if actor.cap is not None and RANK[actor.cap] < RANK[str(HEAD_JUDGE)]:
        return False
    return _stored_role(actor, event) in HEAD_JUDGE_ROLES


def is_organizer(actor: Actor, event: Event) -> bool:
    return isinstance(actor, System) or role_of(actor, event) == ORGANIZER


def require_organizer(actor: Actor, event: Event) -> None:
    if not is_organizer(actor, event):
        raise PermissionDenied("not-organizer")


def require_staff(actor: Actor, event: Event) -> None:
    if not is_staff(actor, event):
        raise PermissionDenied("not-staff")


def require_judge(actor: Actor, event: Event) -> None:
    if not is_judge(actor, event):
        raise PermissionDenied("not-judge")


def may_correct_result(actor: Actor, event: Event, entered_by_id: int | None) -> bool:
    """END-3: the organizer corrects any decided result; a judge corrects the result they entered themself (the
    time procedure's end, a disputed table they settled: a mis-tap at the table is theirs to put right) as long
    as nobody entered another after it. ``entered_by_id``: the account behind the table's latest report."""
    if is_organizer(actor, event):
        return True
    return isinstance(actor, Staff) and is_judge(actor, event) and entered_by_id == actor.user.pk


def require_result_corrector(actor: Actor, event: Event, entered_by_id: int | None) -> None:
    if not may_correct_result(actor, event, entered_by_id):
        raise PermissionDenied("not-organizer")


def require_head_judge(actor: Actor, event: Event) -> None:
    if not is_head_judge(actor, event):
        raise PermissionDenied("not-head-judge")


def reads_whole_log(actor: Actor, event: Event) -> bool:
    """The event's audit log, every entry (issue 22): the organizer and the head judge. A floor judge is not
    shown it: the log carries every player's contact details and every ruling, beyond a floor judge's tables."""
    return is_organizer(actor, event) or is_head_judge(actor, event)


def require_log_reader(actor: Actor, event: Event) -> None:
    """Who may open the event's log at all: the organizer and the head judge (all of it), and a player of the
    event through their own link (the read narrows to the entries about their own matches)."""
    if isinstance(actor, PlayerSelf):
        if actor.player.event_id != event.pk:
            raise PermissionDenied("not-your-match")
        return
    if not reads_whole_log(actor, event):
        raise PermissionDenied("not-log-reader")


def require_player_or_staff(actor: Actor, player: Player) -> None:
    """What a player may do on their own behalf (drop, archetype, deck, a judge call): the player
    themself, or staff of the event for them. Another player is refused."""
    if isinstance(actor, PlayerSelf):
        if actor.player.pk != player.pk:
            raise PermissionDenied("not-staff")
        return
    require_staff(actor, player.event)


def require_player_or_organizer(actor: Actor, player: Player) -> None:
    """A drop: the player themself, or the organizer for them (a floor judge does not drop players)."""
    if isinstance(actor, PlayerSelf):
        require_player_or_staff(actor, player)
        return
    require_organizer(actor, player.event)


def require_player_or_judge(actor: Actor, player: Player) -> None:
    """An appeal: the player themself, or a judge filing it for them."""
    if isinstance(actor, PlayerSelf):
        require_player_or_staff(actor, player)
        return
    require_judge(actor, player.event)


def require_registration(actor: Actor, event: Event) -> None:
    """The organizer registers anyone at any time; a visitor registers themself while registration is open."""
    if isinstance(actor, Visitor):
        if not event.registration_open:
            raise ServiceError("registration-closed")
        return
    require_organizer(actor, event)


def require_site_organizer(actor: Actor) -> None:
    """Creating events and staff accounts: an account in the site's organizers, signed in on the web or
    through a site token of organizer rank (an event's token belongs to that event; ``System`` creates no
    events, which always have a person behind them)."""
    if not isinstance(actor, Staff) or actor.token_event_id is not None or not in_organizers(actor.user):
        raise ServiceError("not-organizer")
    if actor.site_token and actor.cap is not None and actor.cap != ORGANIZER:
        raise ServiceError("not-organizer")
