"""The players' personal links and the slips they are printed on (案内票).

A link is ``/p/<token>/``. The token is never stored: the player's row keeps its SHA-256 (what a request is
looked up by) and the random seed it was derived from with the server's secret key (an HMAC), so the desk can
print the same link again. The database alone (a backup, an export) opens no player's page; with the secret key
too one could, but whoever holds both can sign in as staff anyway (sessions are signed with it). A link whose
seed is missing or was derived with another key (issued before slips could be reprinted, or an event moved from
another server) still opens the page but cannot be printed again: the desk re-issues it, deliberately.

Printing slips never replaces a link (issue 22, finding 8): a slip already handed out keeps working. Only
``issue_access``, the desk's explicit re-issue (a lost phone or slip), replaces one, on the version the desk saw.
"""

from __future__ import annotations

import base64
import hmac
import secrets
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.crypto import salted_hmac

from taikai.audit.models import AuditEntry
from taikai.audit.services import record, save_and_log
from taikai.core.collation import name_order
from taikai.events import actions, reads
from taikai.events.actors import Actor
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Player
from taikai.events.permissions import require_organizer, require_staff
from taikai.security.hashers import hash_token

LINK_FIELDS = ["access_token_hash", "access_token_seed"]  # what issuing a link writes, besides the version
_KEY_SALT = "taikai.events.player-link"


def _token_from(seed: str) -> str:
    mac = salted_hmac(_KEY_SALT, seed, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(mac[:18]).decode()  # 24 characters, 144 bits, as token_urlsafe(18)


def new_token(player: Player) -> str:
    """A new link for ``player``; the caller saves ``LINK_FIELDS`` with a new version (the old link dies then)."""
    seed = secrets.token_urlsafe(18)
    token = _token_from(seed)
    player.access_token_seed = seed
    player.access_token_hash = hash_token(token)
    return token


def slip_token(player: Player) -> str | None:
    """The token of the player's live link, to print again; None if they have none or it cannot be derived here."""
    if not player.access_token_seed or not player.access_token_hash:
        return None
    token = _token_from(player.access_token_seed)
    return token if hmac.compare_digest(hash_token(token), player.access_token_hash) else None


def player_for_token(token: str) -> Player | None:
    if not token or len(token) > 100:
        return None
    return reads.player_by_token_hash(hash_token(token))


def issue_access(player: Player, *, by: Actor, version: int | None = None) -> str:
    """Re-issue a lost link at the desk: the old link and its QR code stop working. ``version`` is the player's
    as the desk saw it: a re-issue by someone else since is not repeated over it (it would kill their slip)."""
    require_organizer(by, player.event)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if version is not None and player.version != version:
            raise Conflict("player-link-changed", name=player.name)
        token = new_token(player)
        save_and_log(player, actions.PLAYER_ACCESS_ISSUED, actor=by, fields=LINK_FIELDS)
    return token


def revoke_access(player: Player, *, by: Actor) -> None:
    require_organizer(by, player.event)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        player.access_token_hash = player.access_token_seed = ""
        save_and_log(player, actions.PLAYER_ACCESS_REVOKED, actor=by, fields=LINK_FIELDS)


def reprint_slip(player: Player, *, by: Actor) -> str:
    """The player's slip again, with the link they have (the slip handed out before keeps working)."""
    require_staff(by, player.event)
    with transaction.atomic():
        player = Player.objects.get(pk=player.pk)
        token = slip_token(player)
        if token is None:
            raise ServiceError("slip-not-reprintable" if player.access_token_hash else "slip-no-link", name=player.name)
        # A slip shows a credential: who printed whose is in the log, though nothing changed.
        record(actions.PLAYER_SLIP_PRINTED, actor=by, obj=player)
    return token


@dataclass(frozen=True)
class SlipRun:
    """What printing all slips did: the slips, in kana order, and who got a new link or was left out."""

    slips: list[tuple[Player, str]]
    issued: list[Player] = field(default_factory=list)  # had no link: a new one (nothing was revoked by it)
    revoked: list[Player] = field(default_factory=list)  # left out: the desk revoked their link
    unprintable: list[Player] = field(default_factory=list)  # left out: a live link that cannot be printed here

    @property
    def kept(self) -> int:
        return len(self.slips) - len(self.issued)


def print_all_slips(event: Event, *, by: Actor, registered: bool = False) -> SlipRun:
    """Every checked-in player's slip (``registered``: every registered player, checked in or not, for slips
    printed before the doors open). A live link is printed as it is; a player without one gets one, unless the
    desk revoked it (undoing a revocation is a decision: the re-issue)."""
    require_staff(by, event)
    slips: list[tuple[Player, str]] = []
    issued: list[Player] = []
    revoked: list[Player] = []
    unprintable: list[Player] = []
    with transaction.atomic():
        chosen = Player.objects.filter(event=event)
        if not registered:
            chosen = chosen.filter(checked_in_at__isnull=False)
        players = list(chosen.select_for_update())
        was_revoked = _revoked_ids(event, [p for p in players if not p.access_token_hash])
        for player in players:
            token = slip_token(player)
            if token is None and player.access_token_hash:
                unprintable.append(player)
                continue
            if token is None and player.pk in was_revoked:
                revoked.append(player)
                continue
            if token is None:
                token = new_token(player)
                save_and_log(
                    player,
                    actions.PLAYER_ACCESS_ISSUED,
                    actor=by,
                    fields=LINK_FIELDS,
                    bulk=True,
                )
                issued.append(player)
            slips.append((player, token))
        record(
            actions.SLIPS_PRINTED,
            actor=by,
            obj=event,
            issued=len(issued),
            kept=len(slips) - len(issued),
            left_out=[p.pk for p in revoked + unprintable],
            registered=registered,
        )
    slips.sort(key=lambda slip: _kana_key(slip[0]))
    issued.sort(key=_kana_key)
    return SlipRun(slips, issued, sorted(revoked, key=_kana_key), sorted(unprintable, key=_kana_key))


def _revoked_ids(event: Event, players: list[Player]) -> set[int]:
    """Those of ``players`` whose last link entry in the log is a revocation (the row only says "no link")."""
    if not players:
        return set()
    last: dict[str, str] = {}
    for object_id, action in AuditEntry.objects.filter(
        event_id=event.pk,
        object_type=Player._meta.label_lower,
        object_id__in=[str(p.pk) for p in players],
        action__in=[actions.PLAYER_ACCESS_ISSUED, actions.PLAYER_ACCESS_RECOVERED, actions.PLAYER_ACCESS_REVOKED],
    ).values_list("object_id", "action"):
        last[object_id] = action
    return {int(pk) for pk, action in last.items() if action == actions.PLAYER_ACCESS_REVOKED}


def _kana_key(player: Player) -> tuple[str, str, str]:
    return name_order(player.name, player.name_kana)
