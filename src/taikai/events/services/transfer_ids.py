"""The file's ids -> the new rows' ids, handed to each part of an event file's import (transfer.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model


@dataclass
class Ids:
    """``more`` holds the maps the apps' sections add for the parts after them (``"penalties"``,
    ``"judge_calls"``), in the order the sections were registered."""

    players: dict[int, int]
    matches: dict[int, int]
    rounds: dict[int, int]
    teams: dict[int, int]
    owner: Any  # the importing organizer: the stand-in for an account this server does not have
    more: dict[str, dict[int, int]] = field(default_factory=dict)

    def user(self, username: Any) -> Any:
        """The account of that user name on this server, or None."""
        if not username:
            return None
        return get_user_model().objects.filter(username=str(username)).first()

    def optional(self, kind: str, old: Any) -> int | None:
        """The new id of a reference that may be empty (``kind``: players, matches, or a name in ``more``)."""
        if old is None:
            return None
        table = getattr(self, kind) if kind in ("players", "matches", "rounds", "teams") else self.more[kind]
        return table[int(old)]
