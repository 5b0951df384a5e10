"""The bridge between stored event state and the pure pairing engines in taikai.core.pairing."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from taikai.core.pairing.types import PairingError, PairingInput, PlayerState
from taikai.core.standings import missed_rounds_points
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.services.history import EventHistory


def swiss_request(event: Event, history: EventHistory, number: int, seed: int) -> dict[str, Any]:
    """The stored pairing input (the `taikai pair` request shape), so any round can be reproduced."""
    players = []
    for pid in history.player_ids:
        late = history.late_entry.get(pid)
        points = history.points[pid] + (missed_rounds_points(late - 1, event.ruleset) if late else 0)
        players.append(
            {
                "id": pid,
                "points": points,
                "opponents": history.opponent_list[pid],
                "byes": history.byes[pid],
                "had_bye": history.byes[pid] > 0,
                "dropped": history.dropped_after[pid] is not None,
            }
        )
    return {"round": number, "seed": seed, "players": players, "forbidden": []}


def _input(request: dict[str, Any]) -> PairingInput:
    return PairingInput(
        players=tuple(
            PlayerState(
                id=p["id"], points=p["points"], opponents=tuple(p["opponents"]), byes=p["byes"], dropped=p["dropped"]
            )
            for p in request["players"]
        ),
        round=request["round"],
        seed=request["seed"],
        forbidden=tuple(tuple(f) for f in request.get("forbidden", ())),  # type: ignore[misc]
    )


def pair_swiss(request: dict[str, Any]) -> dict[str, Any]:
    from taikai.core.pairing import swiss

    try:
        result = swiss.pair(_input(request))
    except PairingError as exc:
        raise ServiceError("pairing-failed", detail=exc.problem.code) from exc
    return {
        "pairings": [list(p) for p in result.pairings],
        "byes": list(result.byes),
        "explanations": [asdict(e) for e in result.explanations],
    }


def elimination_tables(seeds: list[int], *, random_seed: int | None = None) -> list[tuple[int, int | None]]:
    """Round 1 of a bracket as tables in bracket order (a bye is (player, None)); the bracket's
    winners, taken in table order, pair up for the next round (1 and 2 meet only in the final)."""
    from taikai.core.pairing import elimination

    bracket = (
        elimination.random_bracket(seeds, random_seed) if random_seed is not None else elimination.seeded_bracket(seeds)
    )
    tables: list[tuple[int, int | None]] = []
    slots = bracket.slots
    for k in range(0, len(slots) - 1, 2):
        a, b = slots[k], slots[k + 1]
        if a is None and b is None:
            continue
        if a is None:
            a, b = b, None
        tables.append((int(a), int(b) if b is not None else None))  # type: ignore[arg-type]
    return tables
