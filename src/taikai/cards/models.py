"""Cards, Forbidden/Limited lists and the record of every import."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from taikai.cards.names import name_key
from taikai.core import deck as core


class Card(models.Model):
    """One passcode (パスワード). Alternate artworks are cards of their own with ``alias`` set."""

    passcode = models.BigIntegerField(primary_key=True)
    alias = models.BigIntegerField(default=0)
    type = models.BigIntegerField(default=0)
    ot = models.IntegerField(default=0)
    level = models.BigIntegerField(default=0)
    atk = models.IntegerField(default=0)
    defense = models.IntegerField(default=0)
    race = models.BigIntegerField(default=0)
    attribute = models.IntegerField(default=0)
    ocg_date = models.DateField(null=True, blank=True)
    name_en = models.CharField(max_length=200, blank=True)
    name_ja = models.CharField(max_length=200, blank=True)
    # NFKC, case-folded, spaces removed: what look-ups compare (names.name_key).
    key_en = models.CharField(max_length=200, blank=True, db_index=True)
    key_ja = models.CharField(max_length=200, blank=True, db_index=True)

    class Meta:
        ordering = ["passcode"]

    def __str__(self) -> str:
        return f"{self.passcode} {self.name_ja or self.name_en}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.key_en, self.key_ja = name_key(self.name_en), name_key(self.name_ja)
        super().save(*args, **kwargs)  # the name table cached by taikai.cards.index is dropped (cards/apps.py)

    def facts(self) -> core.CardFacts:
        return core.CardFacts.of(self)


class Banlist(models.Model):
    """A Forbidden/Limited list (禁止・制限リスト).

    Imported lists form the library (``frozen=False``, one per name; a re-import replaces entries).
    An event keeps its own frozen copy (``services.copy_banlist``), so later imports never change a
    running event.
    """

    name = models.CharField(max_length=100)
    whitelist = models.BooleanField(default=False)
    frozen = models.BooleanField(default=False)
    source = models.CharField(max_length=500, blank=True)
    imported_at = models.DateTimeField(auto_now=True)
    # The date the list is as of (from its name, or the YGOPRODeck document's newest card): an import dated
    # earlier leaves the list alone unless the organizer asks (issue 22).
    edition = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["name"], condition=Q(frozen=False), name="cards_banlist_library_name"),
        ]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def as_core(self) -> core.Banlist:
        entries = dict(self.entries.values_list("passcode", "limit"))
        return core.Banlist(self.name, entries, self.whitelist)


class BanlistEntry(models.Model):
    banlist = models.ForeignKey(Banlist, on_delete=models.CASCADE, related_name="entries")
    passcode = models.BigIntegerField()
    limit = models.PositiveSmallIntegerField()
    comment = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["banlist", "passcode"], name="cards_banlist_entry_once"),
        ]


class ImportRecord(models.Model):
    """What was imported, from where, when, by whom, and what it changed."""

    class Kind(models.TextChoices):
        CARDS = "cards", _("Cards")
        BANLIST = "banlist", _("Forbidden/Limited list")

    kind = models.CharField(max_length=20, choices=Kind.choices)
    source = models.CharField(max_length=1000)
    sha256 = models.CharField(max_length=64, blank=True)
    imported_at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.IntegerField(default=0)
    updated = models.IntegerField(default=0)
    unchanged = models.IntegerField(default=0)
    skipped = models.IntegerField(default=0)  # cards or lists left alone: the file is older than what is stored
    # What the file is as of (None: the file carries no date); an import compares it with earlier imports'.
    edition = models.DateField(null=True, blank=True)
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-imported_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.source} {self.imported_at:%Y-%m-%d %H:%M}"
