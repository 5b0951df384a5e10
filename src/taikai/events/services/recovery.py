"""A player's PIN, chosen on their own page, and the personal link recovered with it and their Card Game ID."""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction

from taikai.audit.services import record, save_and_log
from taikai.db.heavy import require_outside_write
from taikai.events import actions
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.services.links import LINK_FIELDS, new_token
from taikai.events.services.registration import normalize_card_game_id

PIN_HASHER = "taikai_pin_argon2"  # taikai.security.hashers.PinHasher: why PINs are hashed cheaper than passwords


def set_pin(player: Player, *, pin: str) -> None:
    """The player chooses a PIN on their own page, to recover the link with their Card Game ID.

    A new PIN has at least ``TAIKAI_PIN_DIGITS`` digits (6 by default; 4-digit PINs fell to guessing). A PIN
    chosen earlier under the 4-digit rule keeps working: the player cannot be asked to change it mid-event,
    and the per-ID throttle across all addresses makes guessing it take days, longer than an event.
    The hash is computed before the transaction, which only stores it: it is slow on purpose and must not
    hold the writer lock (issue 16, M1).
    """
    pin = unicodedata.normalize("NFKC", pin or "").strip()
    if not pin.isascii() or not pin.isdigit() or not settings.LIMITS.pin_digits <= len(pin) <= 12:
        raise ServiceError("bad-pin", digits=settings.LIMITS.pin_digits)
    require_outside_write("hashing a PIN")
    pin_hash = make_password(pin, hasher=PIN_HASHER)
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(pin_hash=pin_hash)
        record(actions.PLAYER_PIN_SET, actor_label=f"player:{player.pk}", obj=player)


def recover_access(event: Event, *, card_game_id: str, pin: str) -> tuple[Player, str]:
    try:
        cgid = normalize_card_game_id(card_game_id)
    except ServiceError as exc:
        raise ServiceError("recovery-failed") from exc
    player = Player.objects.filter(event=event, card_game_id=cgid).first()
    require_outside_write("checking a PIN")
    # Check a hash even when no player matches, so timing does not reveal registered IDs.
    ok = check_password(
        unicodedata.normalize("NFKC", pin or ""),
        player.pin_hash if player and player.pin_hash else make_password(None, hasher=PIN_HASHER),
    )
    if player is None or not player.pin_hash or not ok:
        raise ServiceError("recovery-failed")
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        token = new_token(player)
        save_and_log(
            player,
            actions.PLAYER_ACCESS_RECOVERED,
            actor_label=f"player:{player.pk}",
            fields=LINK_FIELDS,
        )
    return player, token
