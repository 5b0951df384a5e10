"""Site accounts: the first organizer, created on first start (``taikai serve``), and accounts made from the
command line (``taikai user create``, ``user list``), each with a generated password shown once.

The web's staff form (``events.services.events.create_staff_user``) takes a password the organizer types;
the command line has nobody to type one, so taikai draws it (``secrets``) and stores only its hash. Below the
edges, so the command line, the demo and the web share them without importing each other.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction

from taikai.audit import actions as audit_actions
from taikai.audit.services import record
from taikai.events import actions as event_actions
from taikai.events.actors import System
from taikai.events.errors import ServiceError
from taikai.events.site_roles import ORGANIZERS, is_organizer

MAX_USERNAME = 150


@dataclass(frozen=True)
class AccountRow:
    username: str
    organizer: bool
    active: bool
    events: int  # events where the account holds a staff role


def create_account(username: str, *, by: System, organizer: bool = False) -> tuple[Any, str]:
    """A new account (in the site's organizers when ``organizer``) and its generated password."""
    User = get_user_model()
    name = username.strip()
    if not name:
        raise ServiceError("required", field="username")
    if len(name) > MAX_USERNAME or any(c.isspace() for c in name):
        raise ServiceError("bad-username", username=name[:40])
    if User.objects.filter(username=name).exists():
        raise ServiceError("username-taken", username=name)
    password = secrets.token_urlsafe(12)
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=name, password=password)
            if organizer:
                group, _created = Group.objects.get_or_create(name=ORGANIZERS)
                user.groups.add(group)
            action = audit_actions.ORGANIZER_CREATED if organizer else event_actions.STAFF_ACCOUNT_CREATED
            record(action, actor=by, obj=user, after={"username": name, "organizer": organizer})
    except IntegrityError as exc:  # the same name created at the same moment
        raise ServiceError("username-taken", username=name) from exc
    return user, password


def list_accounts() -> list[AccountRow]:
    User = get_user_model()
    rows = []
    for user in User.objects.order_by("username").prefetch_related("groups", "staff_roles"):
        rows.append(AccountRow(user.get_username(), is_organizer(user), user.is_active, len(user.staff_roles.all())))
    return rows


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
        record(audit_actions.ORGANIZER_CREATED, actor_label="taikai serve", obj=user, after={"username": username})
    return username, password
