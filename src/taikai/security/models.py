"""Failed sign-in attempts, kept in the database so every web process sees the same count."""

from __future__ import annotations

from django.db import models


class FailedAttempt(models.Model):
    """One failed attempt: a staff login (username + address) or a player-page recovery (ID + address).

    ``key`` is a SHA-256 of the scope's identifying parts, so user names and Card Game IDs are not kept here.
    """

    scope = models.CharField(max_length=20)  # "login" or "recover"
    key = models.CharField(max_length=64)
    address = models.CharField(max_length=64)
    name = models.CharField(max_length=64, default="")  # the name alone (hashed), counted across addresses
    at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["scope", "key", "at"]),
            models.Index(fields=["scope", "address", "at"]),
            models.Index(fields=["scope", "name", "at"]),
        ]


class RateHit(models.Model):
    """One counted action for a rate limit (a self-registration, a spectator report, a PIN change).

    ``key`` names what is limited (an address, an event, a player), hashed like FailedAttempt's.
    """

    scope = models.CharField(max_length=20)
    key = models.CharField(max_length=64)
    at = models.DateTimeField(db_index=True)
    event_id = models.BigIntegerField(null=True)  # the event an anonymous form belongs to: its console counts them

    class Meta:
        indexes = [models.Index(fields=["scope", "key", "at"]), models.Index(fields=["event_id", "scope", "at"])]


class EventLimits(models.Model):
    """An event's caps on anonymous self-registrations and spectator reports (issue 25), set by its organizer;
    an event without a row has the defaults (taikai.security.rates). A lockout the organizer lifted counts no
    hit from before ``lifted_at``."""

    event = models.OneToOneField("events.Event", on_delete=models.CASCADE, related_name="+")
    register_per_address = models.PositiveIntegerField()
    register_per_event = models.PositiveIntegerField()
    report_per_address = models.PositiveIntegerField()
    report_per_event = models.PositiveIntegerField()
    lifted_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)


class RevokedSession(models.Model):
    """A session held in a signed cookie (while the disk was full) that was signed out: refused until ``until``,
    when the cookie would have expired anyway (taikai.security.sessions)."""

    cookie_id = models.CharField(max_length=64, unique=True)
    until = models.DateTimeField(db_index=True)
