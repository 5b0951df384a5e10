"""Who may do what in an event: one place for the role matrix, checked by every service."""

from __future__ import annotations

from typing import Any

from taikai.events.errors import PermissionDenied
from taikai.events.models import Event, StaffRole

ORGANIZER, HEAD_JUDGE, JUDGE = StaffRole.Role.ORGANIZER, StaffRole.Role.HEAD_JUDGE, StaffRole.Role.JUDGE


def role_of(user: Any, event: Event) -> str | None:
    if not getattr(user, "is_authenticated", False):
        return None
    if user.is_superuser:
        return str(ORGANIZER)
    cache: dict[int, str | None] = getattr(user, "_taikai_roles", None) or {}
    if event.pk not in cache:
        row = StaffRole.objects.filter(event=event, user=user).values_list("role", flat=True).first()
        cache[event.pk] = row
        user._taikai_roles = cache
    return cache[event.pk]


def is_staff(user: Any, event: Event) -> bool:
    return role_of(user, event) is not None


def is_judge(user: Any, event: Event) -> bool:
    return role_of(user, event) in (JUDGE, HEAD_JUDGE, ORGANIZER)


def is_head_judge(user: Any, event: Event) -> bool:
    return role_of(user, event) == HEAD_JUDGE or bool(getattr(user, "is_superuser", False))


def require_organizer(user: Any, event: Event) -> None:
    if role_of(user, event) != ORGANIZER:
        raise PermissionDenied("not-organizer")


def require_staff(user: Any, event: Event) -> None:
    if not is_staff(user, event):
        raise PermissionDenied("not-staff")


def require_judge(user: Any, event: Event) -> None:
    if not is_judge(user, event):
        raise PermissionDenied("not-judge")
