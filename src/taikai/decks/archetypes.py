"""A player's declared deck archetype (デッキタイプ), for the metagame: set by staff or by the player themself.

Who may see the archetypes (staff only until the organizer publishes them) is the event's
(``events.services.events.publish_archetypes``)."""

from __future__ import annotations

import unicodedata

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from taikai.audit.actions import register as register_action
from taikai.audit.services import record
from taikai.core.terminal import UNSAFE
from taikai.decks.models import DeckArchetype
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Player
from taikai.events.permissions import require_player_or_staff

# the name was registered by the API app, where archetypes began; entries already logged keep it
ARCHETYPE_SET = register_action("taikai.player.archetype_set", _("Deck archetype set"))


def _clean_archetype(name: str) -> str:
    value = unicodedata.normalize("NFKC", name or "").strip()
    if not value or len(value) > 60 or UNSAFE.search(value) or "\t" in value or "\n" in value:
        raise ServiceError("archetype-name")  # control characters too: the name is drawn in charts and pages
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
            obj=player,
            before=before,
            after={"name": value},
        )
    return row
