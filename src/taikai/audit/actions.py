"""The registry of audit actions: a stable dotted name -> human text in Japanese and English."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ACTIONS: dict[str, Promise] = {}


def register(action: str, text: Promise) -> str:
    ACTIONS[action] = text
    return action


def describe(action: str) -> str:
    return str(ACTIONS.get(action, action))


ORGANIZER_CREATED = register("taikai.account.organizer_created", _("Organizer account created"))
LANGUAGE_CHANGED = register("taikai.account.language_changed", _("Language changed"))
