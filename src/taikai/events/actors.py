"""Who acts: a small value every service receives (STYLE 14), checked in one place (``permissions``).

The edges build it once: a web view ``Staff(request.user)``, the API ``Staff(user, token.event_id, token.role)``
for an event's bearer token, ``Staff(user, cap=token.role, site_token=True)`` for a site token and
``PlayerSelf(player)`` for an ``X-Player-Token``, the player's own pages
``PlayerSelf(player)`` from the personal link, the self-registration page ``Visitor()``, and taikai's own
work (the deck deadline, command-line imports) ``System("...")``.

Each actor answers ``audit_user()`` and ``audit_label()``, the two things ``taikai.audit.services.record``
asks of it (audit is a lower layer and does not import this module).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from taikai.events.errors import PermissionDenied

if TYPE_CHECKING:
    from taikai.events.models import Player


@dataclass(frozen=True)
class Staff:
    """A signed-in account; with an API token, ``token_event_id`` and ``cap`` are the token's event and role.

    Its role in an event comes from ``StaffRole`` (``permissions.role_of``), never from the value itself.
    ``site_token``: an API token for no one event (``taikai token create USER`` without ``--event``): it
    creates events when its user is a site organizer and acts in each event with the user's own role there,
    capped at ``cap``; unlike a web session it never carries a site administrator's powers.
    """

    user: Any  # the AUTH_USER_MODEL instance (an AnonymousUser is refused by every check)
    token_event_id: int | None = None
    cap: str | None = None
    site_token: bool = False

    @property
    def by_token(self) -> bool:
        """Acting through an API token (of an event or of the site), not signed in on the web."""
        return self.site_token or self.token_event_id is not None

    def audit_user(self) -> Any:
        return self.user if getattr(self.user, "is_authenticated", False) else None

    def audit_label(self) -> str:
        user = self.audit_user()
        return str(user.get_username()) if user is not None else ""


@dataclass(frozen=True)
class PlayerSelf:
    """The player acting on their own things, through their personal link or ``X-Player-Token``."""

    player: Player

    def audit_user(self) -> None:
        return None

    def audit_label(self) -> str:
        return f"player:{self.player.pk}"


@dataclass(frozen=True)
class Visitor:
    """Someone on a public page, neither signed in nor holding a personal link: a player registering
    themself while the event allows it (they have no player yet)."""

    label: str = "self-service"

    def audit_user(self) -> None:
        return None

    def audit_label(self) -> str:
        return self.label


@dataclass(frozen=True)
class System:
    """taikai itself: the deck deadline passing, a command-line import. Built only by code, never from a
    request; permitted what its caller does (the caller is the trusted edge)."""

    label: str

    def audit_user(self) -> None:
        return None

    def audit_label(self) -> str:
        return self.label


Actor = Staff | PlayerSelf | Visitor | System


def actor_label(actor: Actor) -> str:
    """How the audit log names the actor."""
    return actor.audit_label()


def audit_user(actor: Actor) -> Any:
    """The account behind the actor (for ``created_by``-style columns and the audit entry), or None."""
    return actor.audit_user()


def user_of(actor: Actor) -> Any:
    """The signed-in account of a staff actor; for columns that must name a person (``issued_by``)."""
    user = actor.audit_user()
    if user is None:
        raise PermissionDenied("not-staff")
    return user
