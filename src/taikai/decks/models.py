"""Deck registration (デッキ登録): one registered list per player per event (DECK-9).

State changes only through ``taikai.decks.services`` (each in one transaction with an audit entry).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from taikai.cards.models import Banlist
from taikai.core.deck import Deck
from taikai.events.models import Event, Player


class EventDecks(models.Model):
    """An event's deck-registration state: its frozen Forbidden/Limited list and an early lock.

    ``banlist`` is the event's own copy (``cards.services.copy_banlist``), made when decks are first
    checked or when staff choose the list, so later imports of the same list never change the event.
    """

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="deck_setup")
    banlist = models.ForeignKey(Banlist, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    banlist_name = models.CharField(max_length=100, blank=True)  # the library name the copy came from
    frozen_at = models.DateTimeField(null=True, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)  # staff locked the lists before the deadline
    version = models.PositiveIntegerField(default=0)


class _Sections:
    """What a kept list offers, registered or rejected: its three sections (passcodes) as one ``Deck``."""

    main: list[int]
    extra: list[int]
    side: list[int]

    @property
    def deck(self) -> Deck:
        return Deck(tuple(self.main), tuple(self.extra), tuple(self.side))

    @property
    def counts(self) -> dict[str, int]:
        return self.deck.counts()


class DeckRegistration(_Sections, models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deck_registrations")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="deck_registration")
    source_text = models.TextField()  # exactly what was pasted or uploaded
    source_name = models.CharField(max_length=200, blank=True)  # the uploaded file's name
    format = models.CharField(max_length=10)  # the name of a taikai.cards.deck_formats.FORMATS entry
    main = models.JSONField(default=list)  # passcodes, one per physical card
    extra = models.JSONField(default=list)
    side = models.JSONField(default=list)
    languages = models.JSONField(default=list)  # DECK-8: the languages of the physical cards
    mixed_languages = models.BooleanField(default=False)  # DECK-8: flagged for the check-in desk
    legal = models.BooleanField(default=False)
    problems = models.JSONField(default=list)  # [{"code": ..., params...}] as `taikai deck check --json`
    notes = models.JSONField(default=list)  # what reading changed (a .ydk's extra-deck monster moved), same shape
    banlist = models.ForeignKey(Banlist, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    submitted_at = models.DateTimeField()
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )  # None: the player on their own page
    locked_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["player_id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="deck_once_per_player_per_event"),  # DECK-9
        ]

    def __str__(self) -> str:
        return f"{self.player} v{self.version}"


class RejectedDeckList(_Sections, models.Model):
    """A list sent while a legal list was registered that did not pass the deck check (不受理).

    Kept with its problems so the player and the judges see what was sent and why it was not accepted;
    the registered list stays as it was (DECK-9). Written once, never changed.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rejected_deck_lists")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rejected_deck_lists")
    registration = models.ForeignKey(DeckRegistration, on_delete=models.CASCADE, related_name="rejected_lists")
    registration_version = models.PositiveIntegerField()  # the registered version that stayed
    source_text = models.TextField()
    source_name = models.CharField(max_length=200, blank=True)
    format = models.CharField(max_length=10)  # as DeckRegistration.format
    main = models.JSONField(default=list)
    extra = models.JSONField(default=list)
    side = models.JSONField(default=list)
    languages = models.JSONField(default=list)
    mixed_languages = models.BooleanField(default=False)
    problems = models.JSONField(default=list)  # why it was not accepted, as DeckRegistration.problems
    notes = models.JSONField(default=list)
    banlist = models.ForeignKey(Banlist, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    submitted_at = models.DateTimeField()
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )  # None: the player on their own page
    reason = models.CharField(max_length=500, blank=True)  # a judge's change that was not accepted

    legal = False  # what the service returns for a list sent, registered or not, reads the same way

    class Meta:
        ordering = ["submitted_at", "id"]
        indexes = [models.Index(fields=["event", "player"], name="rejected_deck_by_player")]

    def __str__(self) -> str:
        return f"{self.player} rejected over v{self.registration_version}"


class DeckArchetype(models.Model):
    """The archetype a player registered (デッキタイプ), a free name such as "Snake-Eye" or "ティアラメンツ".

    Written by ``taikai.decks.archetypes``; the table keeps the name it had under the API app."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="archetype")
    name = models.CharField(_("deck archetype"), max_length=60)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "taikai_api_deckarchetype"

    def __str__(self) -> str:
        return self.name
