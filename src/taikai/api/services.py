"""API tokens and deck archetypes: each change validated, saved and audited in one transaction."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from taikai.api.models import ApiToken, DeckArchetype
from taikai.audit.actions import register as register_action
from taikai.audit.services import record
from taikai.events.actors import Actor, Staff, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, StaffRole
from taikai.events.permissions import is_staff, require_organizer, require_player_or_staff

TOKEN_CREATED = register_action("taikai.api.token_created", _("API token created"))
TOKEN_REVOKED = register_action("taikai.api.token_revoked", _("API token revoked"))
ARCHETYPE_SET = register_action("taikai.player.archetype_set", _("Deck archetype set"))

TOKEN_PREFIX = "tk_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(event: Event, *, by: Actor, username: str, role: str, label: str = "") -> tuple[ApiToken, str]:
    """An organizer gives a staff member (or themself) a token for this event, capped at ``role``."""
    from django.contrib.auth import get_user_model

    require_organizer(by, event)
    if role not in StaffRole.Role.values:
        raise ServiceError("bad-choice", field="role", value=role)
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        raise ServiceError("unknown-user", username=username)
    if not is_staff(Staff(user), event):
        raise ServiceError("not-staff")
    token = TOKEN_PREFIX + secrets.token_urlsafe(24)
    with transaction.atomic():
        row = ApiToken.objects.create(
            user=user,
            event=event,
            role=role,
            label=label.strip()[:100],
            prefix=token[:10],
            token_hash=hash_token(token),
            created_by=user_of(by),
        )
        record(
            TOKEN_CREATED,
            actor=by,
            event_id=event.pk,
            obj=row,
            after={"user": username, "role": role, "label": row.label, "prefix": row.prefix},
        )
    return row, token


def revoke_token(token: ApiToken, *, by: Actor) -> ApiToken:
    require_organizer(by, token.event)
    with transaction.atomic():
        row = ApiToken.objects.select_for_update().get(pk=token.pk)
        if row.revoked_at is None:
            row.revoked_at = timezone.now()
            row.save(update_fields=["revoked_at"])
            record(TOKEN_REVOKED, actor=by, event_id=row.event_id, obj=row, after={"prefix": row.prefix})
    return row


def token_user(raw: str) -> tuple[Any, ApiToken] | None:
    """The user behind a bearer token, or None for an unknown or revoked one."""
    if not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
        return None
    row = ApiToken.objects.select_related("user", "event").filter(token_hash=hash_token(raw)).first()
    if row is None or row.revoked_at is not None or not row.user.is_active:
        return None
    if row.last_used_at is None or (timezone.now() - row.last_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
    return row.user, row


def token_actor(user: Any, token: ApiToken) -> Staff:
    """The token's user as the services see them: in the token's event only, capped at its role
    (``taikai.events.permissions.role_of`` applies both)."""
    return Staff(user, token_event_id=token.event_id, cap=token.role)


def _clean_archetype(name: str) -> str:
    value = unicodedata.normalize("NFKC", name or "").strip()
    if not value or len(value) > 60:
        raise ServiceError("archetype-name")
    return value


def set_archetype(player: Player, *, name: str, by: Actor) -> DeckArchetype:
    """Staff set any player's archetype; a player sets their own (through their personal link)."""
    require_player_or_staff(by, player)
    value = _clean_archetype(name)
    with transaction.atomic():
        existing = DeckArchetype.objects.select_for_update().filter(player=player).first()
        before = {"name": existing.name} if existing else None
        row, _created = DeckArchetype.objects.update_or_create(player=player, defaults={"name": value})
        record(
            ARCHETYPE_SET,
            actor=by,
            event_id=player.event_id,
            obj=player,
            before=before,
            after={"name": value},
        )
    return row
