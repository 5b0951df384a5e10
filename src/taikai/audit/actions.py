"""The registry of audit actions: a stable dotted name -> human text in Japanese and English.

Each app registers its actions at import time in the module whose services write them (``events/actions.py``,
``judging/actions.py``, ``decks/lock.py`` ...); ``record()`` refuses a name that was never registered, so an action
without human text cannot reach the log.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

ACTIONS: dict[str, Promise] = {}


class UnregisteredAction(LookupError):
    """A service tried to write an audit entry under a name no actions module registered."""

    def __init__(self, action: str) -> None:
        super().__init__(f"audit action {action!r} is not registered; register it in the app's actions module")
        self.action = action


def register(action: str, text: Promise) -> str:
    ACTIONS[action] = text
    return action


def require_registered(action: str) -> None:
    if action not in ACTIONS:
        raise UnregisteredAction(action)


def describe(action: str) -> str:
    return str(ACTIONS.get(action, action))


ORGANIZER_CREATED = register("taikai.account.organizer_created", _("Organizer account created"))
LANGUAGE_CHANGED = register("taikai.account.language_changed", _("Language changed"))
