"""Per-event webhooks: the event stream's messages POSTed to an organizer's address."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from taikai.events.models import Event


class Webhook(models.Model):
    """The event stream's messages POSTed to ``url``, signed with HMAC-SHA256 of the body under ``secret``.

    Delivered in order by ``taikai.webhooks.delivery`` (a worker beside the web processes, never inside a
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
        db_table = "taikai_api_webhook"  # made by the API app, which owned the model until issue 28
        ordering = ["id"]
