"""The certificate of a Swiss pairing: a lower bound on the squared point differences of every pairing.

The engine (``swiss``) pairs large point groups at random among themselves and matches only a reserve; its
answer is optimal when its squared-difference sum equals this bound, which holds for every rematch-free pairing
of the complete graph with the best bye.
"""

from __future__ import annotations

from taikai.core.pairing.matching import perfect_matching
from taikai.core.pairing.swiss_field import Field, allowed, bye_level

ZONE_GROUP = 8  # a point group this large absorbs the floats of the small groups around it


def lower_bound(field: Field) -> int:
    """A lower bound on the squared-difference sum of every rematch-free pairing with the best bye.

    An edge between points p > q costs (p - q)^2, at least the sum of the squared gaps between the
    point groups it spans, so the cost splits into disjoint segments. Groups of ``ZONE_GROUP`` or
    more players are "large"; the runs of small groups between them are zones. A cut between two
    adjacent large groups is crossed by at least (players above it) mod 2 edges. A zone is solved
    exactly (rematches and forbidden pairs excluded) for the segments inside its two neighbouring
    large groups: its players pair inside it, or leave it up or down at the cost of reaching the
    neighbouring large group, and the players around it jump over it as parity requires.
    """
    odd = field.n % 2 == 1
    bye_group = bye_level(field)[1] if odd else -1
    fewest = min(field.byes)
    sizes = [len(g) for g in field.groups]
    value = [field.points[g[0]] for g in field.groups]
    big = [g for g, s in enumerate(sizes) if s >= ZONE_GROUP]
    above = [0]  # above[g]: paired players in groups before g
    for g, s in enumerate(sizes):
        above.append(above[-1] + s - (g == bye_group))
    total = above[-1]
    bound = 0
    for u, d in zip([-1, *big], [*big, len(sizes)], strict=True):
        if d == u + 1:
            if u >= 0 and d < len(sizes):
                bound += (above[d] % 2) * (value[u] - value[d]) ** 2
            continue
        players = [i for g in range(u + 1, d) for i in field.groups[g]]
        eligible = [i for i in players if field.group_of[i] == bye_group and field.byes[i] == fewest]
        up = None if u < 0 else (value[u], above[u + 1] % 2)
        down = None if d >= len(sizes) else (value[d], (total - above[d]) % 2)
        bound += _zone_bound(field, players, up, down, eligible)
    return bound


def _zone_bound(
    field: Field, players: list[int], up: tuple[int, int] | None, down: tuple[int, int] | None, eligible: list[int]
) -> int:
    """Exact least cost of a zone's segments; ``up``/``down`` = (points, parity) of the sides.

    Each side is a pool of identical slots (players outside the zone): a zone player paired into a
    slot leaves the zone; unused slots pair along a path (identical slots make a path enough), and
    a single slot-to-slot edge across the zone stands for the one jump parity may force.
    """
    k = len(players)
    local = {i: x for x, i in enumerate(players)}
    costs: list[tuple[int, int, int]] = []
    for i, x in local.items():
        for j, y in local.items():
            if y > x and allowed(field, i, j):
                costs.append((x, y, (field.points[i] - field.points[j]) ** 2))
    nodes = k
    pools: list[int] = []
    for side in (up, down):
        if side is None:
            continue
        edge_points, parity = side
        size = k + (k + parity) % 2
        if up is None or down is None:  # one side: its parity follows from the total
            size = k + len(eligible[:1])
        start = nodes
        costs += [(local[i], start + s, (field.points[i] - edge_points) ** 2) for i in players for s in range(size)]
        costs += [(start + s, start + s + 1, 0) for s in range(size - 1)]
        pools.append(start)
        nodes += size
    if len(pools) == 2 and up is not None and down is not None:
        costs.append((pools[0] + 0, nodes - 1, (up[0] - down[0]) ** 2))
    if eligible:
        costs += [(local[i], nodes, 0) for i in eligible]
        nodes += 1
    top = (nodes + 2) * (max(c for _, _, c in costs) + 1)
    mate = perfect_matching(nodes, [(a, b, top - c) for a, b, c in costs])
    assert mate is not None
    cost = {(a, b): c for a, b, c in costs}
    return sum(cost[m] for m in mate)
