"""API tokens: per user, scoped to an event and a role, or site-wide."""

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
        db_table = "taikai_api_apitoken"  # made by the API app, which owned the model until issue 28
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user}, {self.role})"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
