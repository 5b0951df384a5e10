"""Who still lacks a legal list, and which lists sent were not accepted (reads only; services re-export them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from taikai.core.collation import name_order
from taikai.decks.models import DeckRegistration, RejectedDeckList
from taikai.events.models import Event, Player


def pending_rejection(registration: DeckRegistration | None) -> RejectedDeckList | None:
    """The last list sent that was not accepted, while the registered list is still the one it did not replace."""
    if registration is None:
        return None
    rejected = (
        RejectedDeckList.objects.filter(registration=registration, registration_version=registration.version)
        .order_by("-submitted_at", "-id")
        .first()
    )
    if rejected is not None:
        rejected.registration = registration
    return rejected


@dataclass(frozen=True)
class PlayerDeck:
    player: Player
    registration: DeckRegistration | None
    rejected: RejectedDeckList | None = None  # a list sent after it that was not accepted

    @property
    def status(self) -> str:
        """missing, illegal or legal."""
        if self.registration is None:
            return "missing"
        return "legal" if self.registration.legal else "illegal"


def deck_overview(event: Event) -> list[PlayerDeck]:
    """Every player still in the event (not dropped), with their registration if any."""
    regs = {r.player_id: r for r in DeckRegistration.objects.filter(event=event)}
    rejected: dict[int, RejectedDeckList] = {}
    for attempt in RejectedDeckList.objects.filter(event=event).defer("source_text").order_by("submitted_at", "id"):
        reg = regs.get(attempt.player_id)
        if reg is not None and attempt.registration_version == reg.version:
            attempt.registration = reg
            rejected[attempt.player_id] = attempt  # the last one wins
    staying = event.players.filter(dropped_after_round__isnull=True).order_by("id")
    players = sorted(staying, key=lambda p: name_order(p.name, p.name_kana))
    return [PlayerDeck(p, regs.get(p.pk), rejected.get(p.pk)) for p in players]


def missing_or_illegal(event: Event) -> list[PlayerDeck]:
    """The players the organizer must chase: no list yet, or a list with problems."""
    return [row for row in deck_overview(event) if row.status != "legal"]


def counts(rows: Iterable[PlayerDeck]) -> dict[str, int]:
    out = {"players": 0, "legal": 0, "illegal": 0, "missing": 0, "mixed_languages": 0}
    for row in rows:
        out["players"] += 1
        out[row.status] += 1
        if row.registration is not None and row.registration.mixed_languages:
            out["mixed_languages"] += 1
    return out
