"""The follower's copies and queued player actions, and the venue's record of the actions it applied.

Both sides run the same code: a follower (``TAIKAI_ROLE=follower``) writes ``FollowToken``, ``FollowedEvent``,
``CopiedDocument`` and ``QueuedAction``; a venue writes ``AppliedAction`` only. Each table is written by
``taikai.follow.follower`` or (at the venue) ``taikai.follow.applying`` alone (STYLE 16).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class FollowToken(models.Model):
    """The pairing of one venue with this follower, made here (``taikai token create --scope follow``).

    ``key`` is the SHA-256 of the token: both sides sign with it (HMAC-SHA256), so the token itself never
    travels; ``prefix`` names it in the venue's messages and in ``taikai token list``."""

    prefix = models.CharField(max_length=12, unique=True)
    key = models.CharField(max_length=64)
    label = models.CharField(_("label"), max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_contact_at = models.DateTimeField(null=True, blank=True)  # the venue's last signed message

    class Meta:
        ordering = ["id"]


class FollowedEvent(models.Model):
    """One venue event copied here, under the venue's own event id (so a player's link reads the same).

    ``version`` is the venue's change number this copy holds: the audit entry id the venue had reached when it
    built the change. A change applies only on the version before it (``base``)."""

    event_id = models.BigIntegerField(unique=True)
    token = models.ForeignKey(FollowToken, on_delete=models.PROTECT, related_name="events")
    name = models.CharField(max_length=200, blank=True)
    version = models.BigIntegerField(default=0)
    venue_time = models.DateTimeField(null=True, blank=True)  # the venue's clock when it built the change
    applied_at = models.DateTimeField(null=True, blank=True)  # this follower's clock when it applied it

    class Meta:
        ordering = ["event_id"]


class CopiedDocument(models.Model):
    """One piece of the venue's public state, as its API answered it (JSON), e.g. ``standings`` or
    ``matches/2``; names beginning with ``_`` are private to the follower (the players' link hashes)."""

    followed = models.ForeignKey(FollowedEvent, on_delete=models.CASCADE, related_name="documents")
    name = models.CharField(max_length=200)
    body = models.TextField()
    digest = models.CharField(max_length=64)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["followed", "name"], name="follow_document_once")]


class CopiedLink(models.Model):
    """A player's link on the follower: the hash the venue keeps (its ``_tokens`` document, indexed), so the
    same link opens the player's page on both sides."""

    followed = models.ForeignKey(FollowedEvent, on_delete=models.CASCADE, related_name="links")
    token_hash = models.CharField(max_length=64, unique=True)
    player_id = models.BigIntegerField()

    class Meta:
        ordering = ["id"]


class QueuedAction(models.Model):
    """What a player did on the follower, waiting for the venue: a result report or a confirmation, with the
    match version and the copy's version the player saw, a judge call, a drop, or a notice closed; and a key so
    the venue applies it once."""

    class Kind(models.TextChoices):
        REPORT = "report", _("result report")
        CONFIRM = "confirm", _("confirmation")
        JUDGE_CALL = "judge_call", _("judge call")
        DROP = "drop", _("drop")
        CLOSE_NOTICE = "close_notice", _("notice closed")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the venue")
        APPLIED = "applied", _("applied at the venue")
        REFUSED = "refused", _("refused at the venue")

    followed = models.ForeignKey(FollowedEvent, on_delete=models.CASCADE, related_name="actions")
    key = models.CharField(max_length=64, unique=True)
    player_id = models.BigIntegerField()
    token_hash = models.CharField(max_length=64)  # the link the player used: the venue refuses a revoked one
    kind = models.CharField(max_length=20, choices=Kind.choices)
    match_id = models.BigIntegerField()
    seen_version = models.IntegerField()  # the match's version on the player's page
    change_version = models.BigIntegerField()  # the copy's version the player saw
    payload = models.JSONField(default=dict)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    code = models.CharField(max_length=80, blank=True)
    message_ja = models.TextField(blank=True)
    message_en = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]


class AppliedAction(models.Model):
    """At the venue: a follower's action already handled, with its outcome, so a resent one (the answer was
    lost when the link dropped) is answered again and never applied twice."""

    key = models.CharField(max_length=64, unique=True)
    event_id = models.BigIntegerField()
    status = models.CharField(max_length=20)
    code = models.CharField(max_length=80, blank=True)
    message_ja = models.TextField(blank=True)
    message_en = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class PushLink(models.Model):
    """At the venue: the state of the connection to a follower, for the organizer's dashboard (the connection
    runs in ``taikai serve``'s own process; the web processes read it here). Written by ``taikai.follow.venue``."""

    url = models.CharField(max_length=500, unique=True)
    connected = models.BooleanField(default=False)
    since = models.DateTimeField(null=True, blank=True)  # when it last went up or down
    last_ok_at = models.DateTimeField(null=True, blank=True)  # the last turn that went through
    actions_applied = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["id"]
