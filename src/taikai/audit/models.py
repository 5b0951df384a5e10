"""The append-only audit log (STYLE habit 2): who, when, which event, what, before and after."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class AppendOnlyError(Exception):
    """Audit entries are never changed or deleted; a correction is a new entry."""


class AuditQuerySet(models.QuerySet["AuditEntry"]):
    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("audit entries cannot be deleted")

    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("audit entries cannot be changed")


class AuditEntry(models.Model):
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    actor_label = models.CharField(max_length=200, blank=True)  # e.g. a player acting through their link
    event_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    action = models.CharField(max_length=100, db_index=True)  # dotted and stable: taikai.match.result_reported
    object_type = models.CharField(max_length=100, blank=True)
    object_id = models.CharField(max_length=100, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)

    objects = AuditQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["object_type", "object_id"]),
            # "What changed last in this event" (page caches, the live stream) is one index probe.
            models.Index(fields=["event_id", "id"], name="audit_event_latest"),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise AppendOnlyError("audit entries cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("audit entries cannot be deleted")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action} {self.object_type}:{self.object_id}"


def last_change(event_id: int) -> int:
    """The id of the event's latest audit entry: every change to an event writes one."""
    latest = AuditEntry.objects.filter(event_id=event_id).order_by("-id").values_list("id", flat=True).first()
    return latest or 0
