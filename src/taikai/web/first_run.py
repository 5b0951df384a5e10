"""The dashboard's first-run checklist: what a new site needs before its first event, each step ticked from
what the database holds and linking to the page where it is done."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from taikai.cards.models import Banlist, Card
from taikai.events.models import Event, StaffRole

JUDGING = (StaffRole.Role.HEAD_JUDGE, StaffRole.Role.ORGANIZER_HEAD_JUDGE, StaffRole.Role.JUDGE)


@dataclass(frozen=True)
class Step:
    key: str
    label: str
    done: bool
    detail: str
    url: str  # "" when this account cannot do it (the card data page is a site admin's)


def checklist(user: Any, events: list[Event]) -> list[Step]:
    """The four steps for this user's site: card data, an F/L list, an event with its ruleset, its staff."""
    staff_user = bool(getattr(user, "is_staff", False))
    cards = Card.objects.count()
    banlist = Banlist.objects.filter(frozen=False).order_by("-edition", "-imported_at").first()
    latest = events[0] if events else None
    judges = StaffRole.objects.filter(event__in=events, role__in=JUDGING).count() if events else 0
    cards_url = reverse("cards_import") if staff_user else ""
    return [
        Step(
            "cards",
            _("Import the card data (cards.cdb)"),
            cards > 0,
            _("%(n)s cards") % {"n": cards} if cards else _("Deck lists cannot be checked without it."),
            cards_url,
        ),
        Step(
            "banlist",
            _("Import the F/L list (lflist.conf)"),
            banlist is not None,
            banlist.name if banlist else _("Each event chooses one of the imported lists."),
            cards_url,
        ),
        Step(
            "ruleset",
            _("Create an event and choose its ruleset"),
            latest is not None,
            f"{latest.name} · {latest.ruleset_name}" if latest else _("The form says what each ruleset forbids."),
            reverse("event_create"),
        ),
        Step(
            "staff",
            _("Name the head judge and the judges"),
            judges > 0,
            _("%(n)s judges") % {"n": judges} if judges else _("Under CS rules only the head judge disqualifies."),
            reverse("staff_manage", args=[latest.pk]) if latest else "",
        ),
    ]
