"""Site-wide roles (not tied to one event): who may create events.

An organizer account belongs to the ``organizers`` group (the first account, created on first start, is also a
site admin). Event roles (organizer, head judge, judge of one event) live in ``StaffRole``.
"""

from __future__ import annotations

ORGANIZERS = "organizers"


def is_organizer(user: object) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(getattr(user, "is_superuser", False)) or user.groups.filter(name=ORGANIZERS).exists()  # type: ignore[attr-defined]
