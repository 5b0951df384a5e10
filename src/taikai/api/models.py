"""API tokens (per user, scoped to an event and a role, or site-wide) and per-event webhooks."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from taikai.events.models import Event, StaffRole


class ApiToken(models.Model):
    """A bearer token for scripts and bots. Only a hash is stored; the token is shown once.

    With an event, it acts in that event only, capped at ``role``. Without one (a site token), it creates
    events and acts in each event with its user's own role there, capped at ``role``.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="api_tokens")
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="api_tokens")
    role = models.CharField(_("role"), max_length=20, choices=StaffRole.Role.choices)
    label = models.CharField(_("label"), max_length=100, blank=True)
    prefix = models.CharField(max_length=12)  # shown in lists so people can tell tokens apart
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user}, {self.role})"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class Webhook(models.Model):
    """The event stream's messages POSTed to ``url``, signed with HMAC-SHA256 of the body under ``secret``.

    Delivered in order by ``taikai.api.webhooks`` (a worker beside the web processes, never inside a
    request): ``last_entry_id`` is the last audit entry handled; a failed delivery is retried with back-off
    (``failures``, ``next_attempt_at``) and skipped after the last attempt (``last_error`` keeps why, in
    words that name no port or connection detail).
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    active = models.BooleanField(default=True)
    last_entry_id = models.BigIntegerField(default=0)
    failures = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    # Messages given up in a row: at TAIKAI_WEBHOOK_DISABLE_AFTER the webhook is stopped (``active`` False,
    # ``disabled_at`` set) and the organizer told on the dashboard and in the log (issue 25).
    gave_up_in_row = models.PositiveIntegerField(default=0)
    disabled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
