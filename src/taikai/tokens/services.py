"""API tokens: each change validated, saved and audited in one transaction."""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from taikai.audit.actions import register as register_action
from taikai.audit.services import record
from taikai.events.actors import Actor, Staff, System, audit_user
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, StaffRole
from taikai.events.permissions import RANK, require_organizer, role_of
from taikai.tokens.models import ApiToken

TOKEN_CREATED = register_action("taikai.api.token_created", _("API token created"))
TOKEN_REVOKED = register_action("taikai.api.token_revoked", _("API token revoked"))

TOKEN_PREFIX = "tk_"
MAX_EXPIRY_DAYS = 3650


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _user(username: str) -> Any:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ServiceError("unknown-user", username=username)
    return user


def _expiry(expires_days: int | None) -> dt.datetime | None:
    if expires_days is None:
        return None
    if not 1 <= expires_days <= MAX_EXPIRY_DAYS:
        raise ServiceError("bad-choice", field="expires", value=expires_days)
    return timezone.now() + dt.timedelta(days=expires_days)


def _issue(
    *, by: Actor, user: Any, event: Event | None, role: str, label: str, expires_days: int | None
) -> tuple[ApiToken, str]:
    expires_at = _expiry(expires_days)
    token = TOKEN_PREFIX + secrets.token_urlsafe(24)
    with transaction.atomic():
        row = ApiToken.objects.create(
            user=user,
            event=event,
            role=role,
            label=label.strip()[:100],
            prefix=token[:10],
            token_hash=hash_token(token),
            created_by=audit_user(by) or user,
            expires_at=expires_at,
        )
        record(
            TOKEN_CREATED,
            actor=by,
            event_id=event.pk if event is not None else None,
            obj=row,
            after={
                "user": user.get_username(),
                "role": role,
                "label": row.label,
                "prefix": row.prefix,
                "site": event is None,
                "expires_at": expires_at.isoformat() if expires_at else None,
            },
        )
    return row, token


def create_token(
    event: Event, *, by: Actor, username: str, role: str, label: str = "", expires_days: int | None = None
) -> tuple[ApiToken, str]:
    """An organizer (or ``taikai token create --event``) gives a staff member a token for this event.

    The token acts with the lower of ``role`` and the user's own role in the event; that lower role is stored,
    so the tokens page and ``taikai token list`` show what the token can really do.
    """
    require_organizer(by, event)
    if role not in StaffRole.Role.values:
        raise ServiceError("bad-choice", field="role", value=role)
    user = _user(username)
    own = role_of(Staff(user), event)
    if own is None:
        raise ServiceError("not-staff")
    capped = role if RANK[role] <= RANK[own] else own
    return _issue(by=by, user=user, event=event, role=capped, label=label, expires_days=expires_days)


def create_site_token(
    *,
    by: Actor,
    username: str,
    role: str = str(StaffRole.Role.ORGANIZER),
    label: str = "",
    expires_days: int | None = None,
) -> tuple[ApiToken, str]:
    """A token for no one event (``taikai token create USER`` without ``--event``): it creates events when its
    user is a site organizer and acts in each event with the user's own role there, never above ``role``.

    Only taikai's own command line (``System``) or the user themself, signed in on the web, makes one.
    """
    if role not in StaffRole.Role.values:
        raise ServiceError("bad-choice", field="role", value=role)
    user = _user(username)
    if not (isinstance(by, System) or (isinstance(by, Staff) and not by.by_token and by.user.pk == user.pk)):
        raise PermissionDenied("not-organizer")
    return _issue(by=by, user=user, event=None, role=role, label=label, expires_days=expires_days)


def revoke_token(token: ApiToken, *, by: Actor) -> ApiToken:
    """An event's organizer revokes its tokens; a site token is revoked by ``System`` or its own user."""
    if token.event is not None:
        require_organizer(by, token.event)
    elif not (isinstance(by, System) or (isinstance(by, Staff) and by.user.pk == token.user_id)):
        raise PermissionDenied("not-organizer")
    with transaction.atomic():
        row = ApiToken.objects.select_for_update().get(pk=token.pk)
        if row.revoked_at is None:
            row.revoked_at = timezone.now()
            row.save(update_fields=["revoked_at"])
            record(TOKEN_REVOKED, actor=by, obj=row, after={"prefix": row.prefix})
    return row


def token_by_prefix(raw: str) -> ApiToken:
    """The token named by its prefix (as ``taikai token list`` shows it) or by the whole token."""
    raw = raw.strip()
    if len(raw) > 10:
        rows = list(ApiToken.objects.filter(token_hash=hash_token(raw)))
    else:
        rows = list(ApiToken.objects.filter(prefix=raw)) if len(raw) == 10 else []
    if len(rows) != 1:
        raise ServiceError("unknown-token", prefix=raw[:10])
    return rows[0]


def token_user(raw: str, *, touch: bool = True) -> tuple[Any, ApiToken] | None:
    """The user behind a bearer token, or None for an unknown, revoked or expired one. ``touch`` stamps
    ``last_used_at`` (at most once a minute); reads pass False, since reads never write (STYLE 13)."""
    if not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
        return None
    row = ApiToken.objects.select_related("user", "event").filter(token_hash=hash_token(raw)).first()
    if row is None or row.revoked_at is not None or not row.user.is_active:
        return None
    if row.expires_at is not None and row.expires_at <= timezone.now():
        return None
    if touch and (row.last_used_at is None or (timezone.now() - row.last_used_at).total_seconds() > 60):
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
    return row.user, row


def token_actor(user: Any, token: ApiToken) -> Staff:
    """The token's user as the services see them, capped at the token's role
    (``taikai.events.permissions.role_of`` applies it): an event's token acts in its event only; a site
    token acts in every event where its user holds a role."""
    if token.event_id is None:
        return Staff(user, cap=token.role, site_token=True)
    return Staff(user, token_event_id=token.event_id, cap=token.role)
