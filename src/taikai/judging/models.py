"""Judging: judge calls, the time procedure at a table, penalties, appeals, the violator database, prizes
and table tools. State changes only through taikai.judging.services (one transaction, one audit entry)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from taikai.events.models import Event, Match, Player


class JudgeCall(models.Model):
    """One entry of the judges' queue (JUDGE-1, JUDGE-2, END-2)."""

    class Source(models.TextChoices):
        PLAYER = "player", _("Player")
        STAFF = "staff", _("Staff")
        SPECTATOR = "spectator", _("Spectator report")
        TEAMMATE = "teammate", _("Teammate report")
        INTEGRITY = "integrity", _("Integrity check")

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting")
        TAKEN = "taken", _("Judge at the table")
        CLOSED = "closed", _("Closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="judge_calls")
    table = models.PositiveIntegerField(null=True, blank=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    source = models.CharField(max_length=20, choices=Source.choices)
    raised_by_player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    raised_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reporter = models.CharField(max_length=100, blank=True)  # a spectator's or teammate's name, optional
    topic = models.CharField(max_length=40, blank=True)  # integrity checks: disputed, changed-after-confirm, ...
    description = models.TextField(blank=True)
    dedupe_key = models.CharField(max_length=80, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ruling = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    taken_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # TIME-4: how long the ruling took (measured from taking the call, or as the judge stated it), and the time
    # added to the table for it so far (a judge adds at most the ruling's length, over every extension)
    ruling_seconds = models.PositiveIntegerField(null=True, blank=True)
    extended_seconds = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "dedupe_key"], condition=~models.Q(dedupe_key=""), name="judge_call_once"
            )
        ]


class CallCaller(models.Model):
    """A player who called a judge to their table (JUDGE-1): one card per table, with every player who called
    on it. ``withdrawn_at``: the player took their call back before a judge took it (kept, not deleted)."""

    call = models.ForeignKey(JudgeCall, on_delete=models.CASCADE, related_name="callers")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    question = models.TextField(blank=True)
    called_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["called_at", "id"]
        constraints = [models.UniqueConstraint(fields=["call", "player"], name="call_caller_once")]


class TimeProcedureRun(models.Model):
    """The inputs a judge gave the time procedure at one table, replayed through core on every load."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="+")
    start = models.JSONField()  # {"kind": "during", "turn_player": "A", "duels": [...]} or {"kind": "between", ...}
    inputs = models.JSONField(default=list)  # [["turn_end"], ["life_points", 800, 800], ["win", "B"], ...]
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    result_entered = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)


class Penalty(models.Model):
    """One penalty on the ladder (PEN-1) with its automatic effects and how to undo them."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    card_game_id = models.CharField(max_length=10, db_index=True)  # PEN-5: the violator database key
    player_name = models.CharField(max_length=100)
    infraction = models.CharField(max_length=10)
    rung = models.CharField(max_length=30)
    default_rung = models.CharField(max_length=30, blank=True)
    rung_reason = models.TextField(blank=True)  # PEN-7: why the judge changed the default
    description = models.TextField(blank=True)
    downgrade_steps = models.PositiveSmallIntegerField(default=0)  # PEN-2
    prize_loss = models.BooleanField(default=False)
    intentional = models.BooleanField(default=False)  # the judge found intent (故意に: INF-5's default needs it)
    # CS 1.2 A: the final place the entrant (player, or team in team events) held when disqualified; a DQ's
    # downgrade starts from the prize of this place (その時点で決まっていた受賞資格).
    decided_place = models.PositiveIntegerField(null=True, blank=True)
    in_database = models.BooleanField(default=False)  # PEN-5: kept across events
    # PEN-1: the match a duel or match loss changed (while it waits: the match it must not land on)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # PEN-1: where the judge had a duel or match loss land (core.penalties.Landing): "current" or "next"
    lands_on = models.CharField(max_length=10, blank=True)
    call = models.ForeignKey(JudgeCall, null=True, blank=True, on_delete=models.SET_NULL, related_name="penalties")
    team_source = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="team_copies"
    )  # PEN-4: the member's penalty this one was propagated from
    effects = models.JSONField(default=list)  # what was applied, with before-snapshots to undo it
    waiting_for_next_match = models.BooleanField(default=False)  # a duel or match loss landing on the next match
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    issued_at = models.DateTimeField(auto_now_add=True)
    overturned = models.BooleanField(default=False)
    overturned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-issued_at", "-id"]


# What the log keeps of a penalty (its issue, its effects landing, its withdrawal): ``audit.services.fields_of``.
PENALTY_FIELDS: list[str | tuple[str, str]] = [
    ("player", "player_id"),
    "card_game_id",
    "infraction",
    "rung",
    "default_rung",
    "downgrade_steps",
    "prize_loss",
    "effects",
    "overturned",
    "lands_on",  # PEN-1: the judge's choice, or the rule's default
    ("match", "match_id"),
    "waiting_for_next_match",
]


class DatabaseRecord(models.Model):
    """A violator-database entry imported from another server of the same series (PEN-5)."""

    card_game_id = models.CharField(max_length=10, db_index=True)
    player_name = models.CharField(max_length=100, blank=True)
    infraction = models.CharField(max_length=10)
    rung = models.CharField(max_length=30)
    event_name = models.CharField(max_length=200)
    event_date = models.DateField(null=True, blank=True)
    source = models.CharField(max_length=200)
    source_key = models.CharField(max_length=200, unique=True)  # re-importing the same file adds nothing
    # PEN-4: a teammate's DQ shared by this player; recorded, but not this player's violation (CS 1.3).
    team_consequence = models.BooleanField(default=False)
    imported_at = models.DateTimeField(auto_now_add=True)


class Appeal(models.Model):
    """An appeal to the head judge against a ruling or a penalty (PEN-6)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for the head judge")
        UPHELD = "upheld", _("Upheld")
        OVERTURNED = "overturned", _("Overturned")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="appeals")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    penalty = models.ForeignKey(Penalty, null=True, blank=True, on_delete=models.PROTECT, related_name="appeals")
    call = models.ForeignKey(JudgeCall, null=True, blank=True, on_delete=models.SET_NULL, related_name="appeals")
    filed_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )  # a judge filing on the player's behalf
    reason = models.TextField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decision_note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]


class PrizeRank(models.Model):
    """An organizer-defined prize over final places, e.g. 3rd-4th (PEN-2, PEN-3)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="prize_ranks")
    label = models.CharField(_("prize"), max_length=100)
    first = models.PositiveSmallIntegerField(_("from place"))
    last = models.PositiveSmallIntegerField(_("to place"))
    shared = models.BooleanField(_("places are equal"), default=True)  # e.g. semifinal losers share 3rd-4th

    class Meta:
        ordering = ["first"]


class Playoff(models.Model):
    """A playoff round called for by promotion (PEN-3), with its simple pairing."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="playoffs")
    prize_label = models.CharField(max_length=100)
    slots = models.PositiveSmallIntegerField()
    candidates = models.JSONField()  # entrant ids (players, or teams in team events)
    pairs = models.JSONField()  # [[a, b|null], ...]
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)


class TableToolLog(models.Model):
    """Coin flips, die rolls (DEV-1) and loop repetitions (LOOP-2) at a table."""

    class Kind(models.TextChoices):
        COIN = "coin", _("Coin")
        DIE = "die", _("Die")
        LOOP = "loop", _("Loop repetition")
        LOOP_RESET = "loop-reset", _("Loop counter reset")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    table = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    value = models.CharField(max_length=20, blank=True)
    by_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    by_player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class PrizePublication(models.Model):
    """The organizer published the event's prize list: from then on anyone may read it.

    Written by ``taikai.judging.services.prizes.publish_prizes``; the table keeps the name it had under the API
    app."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="prize_publication")
    published_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    published_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "taikai_api_prizepublication"
