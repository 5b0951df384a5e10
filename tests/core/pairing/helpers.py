"""Brute force and quality measures for proving the Swiss engine optimal on small events."""

from __future__ import annotations

from collections.abc import Iterator

from taikai.core.pairing import PairingInput, PairingResult, PlayerId


def quality(inp: PairingInput, pairings: list[tuple[PlayerId, PlayerId]], bye: PlayerId | None) -> tuple[int, ...]:
    """(rematches, bye's earlier byes, bye's point group from the bottom, sum of squared gaps)."""
    by_id = {p.id: p for p in inp.players}
    active_points = sorted({p.points for p in inp.players if not p.dropped})
    rematches = sum(1 for a, b in pairings if b in by_id[a].opponents)
    squares = sum((by_id[a].points - by_id[b].points) ** 2 for a, b in pairings)
    if bye is None:
        return (rematches, 0, 0, squares)
    return (rematches, by_id[bye].byes, active_points.index(by_id[bye].points), squares)


def result_quality(inp: PairingInput, result: PairingResult) -> tuple[int, ...]:
    return quality(inp, list(result.pairings), result.byes[0] if result.byes else None)


def matchings(ids: list[PlayerId], barred: set[frozenset[PlayerId]]) -> Iterator[list[tuple[PlayerId, PlayerId]]]:
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for k, other in enumerate(rest):
        if frozenset((first, other)) in barred:
            continue
        for tail in matchings(rest[:k] + rest[k + 1 :], barred):
            yield [(first, other), *tail]


def brute_force(inp: PairingInput) -> tuple[int, ...] | None:
    """The best quality over every possible pairing (None: nothing is possible)."""
    ids = [p.id for p in inp.players if not p.dropped]
    barred = {frozenset(f) for f in inp.forbidden}
    best: tuple[int, ...] | None = None
    byes: list[PlayerId | None] = list(ids) if len(ids) % 2 else [None]
    for bye in byes:
        rest = [i for i in ids if i != bye]
        for m in matchings(rest, barred):
            q = quality(inp, m, bye)
            if best is None or q < best:
                best = q
    return best
