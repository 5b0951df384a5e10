"""Where every player of a round sits, as the live stream's pairing message carries it (``taikai.api.stream``).

A player's page that finds its player in the message shows the new table at once (``seat.js``) and fetches the
rest of itself (the opponent, the clock, the report form) a little later, at a moment of its own within
``spread`` seconds. Without that, a round published at a 2,000-player event is 2,000 page renders asked for in
the same second, and the last phone shows its table only when the laptop has rendered every other page first.

What the message says is what the public pairings page already shows (tables and who sits at them, by the
players' keys); it is sent only for the event's latest round, so a round taken back names no tables.
"""

from __future__ import annotations

from typing import Any

from taikai.core.ids import parse_id
from taikai.events.models import Match, Round

# Player pages a 2-core laptop renders a second while it still takes results and the desk's work (one page
# costs about 8.5 ms of one core; `python -m taikai.bench publish` measures the spread this gives).
REFRESHES_PER_SECOND = 150
ROUND = Round._meta.label_lower


def seats(event_id: int, object_ref: str | None) -> dict[str, Any] | None:
    """``{"round": n, "spread": s, "tables": [[table, player, opponent], ...]}`` for the round a pairing
    message names (``events.round:<pk>``), or None: another object, a round that is gone or is not the event's
    latest, a team round (its tables have seats A–C; those pages refresh as before). Byes are not listed: the
    bye's page refreshes at once, as every page did before."""
    kind, _, raw = (object_ref or "").partition(":")
    round_id = parse_id(raw, digits=18) if kind == ROUND else None
    if round_id is None:
        return None
    latest = Round.objects.filter(event_id=event_id).order_by("-number").values_list("pk", "number").first()
    if latest is None or latest[0] != round_id:
        return None
    rows = Match.objects.filter(round_id=round_id, is_bye=False).order_by("table", "seat")
    tables = list(rows.values_list("table", "player_a_id", "player_b_id", "team_match_id"))
    if not tables or any(team is not None for *_, team in tables):
        return None
    players = 2 * len(tables)
    return {
        "round": latest[1],
        "spread": round(players / REFRESHES_PER_SECOND, 1),
        "tables": [[table, a, b] for table, a, b, _ in tables],
    }
