"""Signing in on a full disk: the last-login stamp is bookkeeping, so a refused write skips it, nothing more."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import update_last_login
from django.db import DatabaseError, transaction

from taikai.security import diskfull


def update_last_login_unless_full(sender: Any, user: Any, **kwargs: Any) -> None:
    try:
        with transaction.atomic():
            update_last_login(sender, user, **kwargs)
    except DatabaseError as exc:
        if not diskfull.is_disk_full(exc):
            raise
        diskfull.report(exc, "signing in (last_login not stamped)")
