"""Site accounts: the first organizer, created on first start."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from taikai.audit import actions
from taikai.audit.services import record
from taikai.events.site_roles import ORGANIZERS


def ensure_first_organizer(username: str = "organizer") -> tuple[str, str] | None:
    """Create the site's first organizer (a site admin) if no account exists yet.

    Returns (user name, password) when an account was created, so the caller prints it once;
    the password is stored only as an Argon2 hash.
    """
    User = get_user_model()
    with transaction.atomic():
        if User.objects.exists():
            return None
        password = secrets.token_urlsafe(12)
        user = User.objects.create_superuser(username=username, password=password, email="")
        group, _ = Group.objects.get_or_create(name=ORGANIZERS)
        user.groups.add(group)
        record(actions.ORGANIZER_CREATED, actor_label="taikai serve", obj=user, after={"username": username})
    return username, password
