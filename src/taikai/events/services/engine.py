"""The bridge between stored event state and the pure pairing engines in taikai.core.pairing."""

from __future__ import annotations

from typing import Any

from taikai.core.pairing import elimination
from taikai.core.pairing.types import PairingError, PairingInput, PlayerState
from taikai.core.sheet import Sheet, pairing_input
from taikai.events.errors import ServiceError


def swiss_request(sheet: Sheet, number: int, seed: int) -> dict[str, Any]:
    """The stored pairing input (the `taikai pair` request shape), so any round can be reproduced.

    Points, opponents and byes are the sheet's: the same numbers the standings show."""
    inp = pairing_input(sheet, number, seed)
    players = [
        {
            "id": p.id,
            "points": p.points,
            "opponents": list(p.opponents),
            "byes": p.byes,
            "had_bye": p.had_bye,
            "dropped": p.dropped,
        }
        for p in inp.players
    ]
    return {"round": inp.round, "seed": inp.seed, "players": players, "forbidden": []}


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
        forbidden=tuple((a, b) for a, b in request.get("forbidden", ())),
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
        "explanations": [dict(vars(e)) for e in result.explanations],  # plain fields: asdict without its copying
    }


def first_bracket_round(seeds: list[int], seed: int, randomly: bool) -> elimination.BracketRound:
    """A top cut's first round from its seeds (best first), or a pure elimination event's, drawn from ``seed``."""
    try:
        bracket = elimination.random_bracket(seeds, seed) if randomly else elimination.seeded_bracket(seeds)
        return elimination.first_round(bracket)
    except PairingError as exc:
        raise ServiceError("pairing-failed", detail=exc.problem.code) from exc


def next_bracket_round(advancing: list[int]) -> elimination.BracketRound:
    """The bracket's next round: the previous round's winners, in its table order, pair up."""
    try:
        return elimination.next_round(advancing)
    except PairingError as exc:
        raise ServiceError("pairing-failed", detail=exc.problem.code) from exc
