"""Swiss pairing (スイスドロー), provably optimal and fast for thousands of players.

A pairing is judged lexicographically:

1. nobody paired twice, dropped players never paired, forbidden pairs never paired;
2. fewest rematches (none whenever a rematch-free pairing exists);
3. with an odd count, one bye: to the player with the fewest byes so far, from the lowest point
   group possible;
4. smallest sum of squared point differences over all tables;
5. ties broken at random from the seed (so round 1 is a seeded random pairing).

Every criterion is an integer term of one edge weight, each term scaled above the largest total
the terms below it can reach, so a maximum-weight perfect matching is exactly the optimum.

Speed comes from structure. Inside a point group every pairing costs the same, so large groups are
paired at random among themselves (avoiding rematches) and only a small reserve of each group
enters the matching together with the small groups. The answer is then *certified*: it has no
rematch, the best possible bye, and a sum of squared differences equal to a lower bound valid for
every pairing of the complete graph (see ``_lower_bound``). Only when the certificate fails does
the engine grow the graph, and in the end match on the complete graph.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

import rustworkx as rx

from taikai.core.pairing.types import (
    PairExplanation,
    PairingError,
    PairingInput,
    PairingResult,
    PlayerId,
)
from taikai.core.problems import Problem
from taikai.core.rng import SeededRandom

RAND = 1 << 24  # per-edge random tie-break range (criterion 5)
ZONE_GROUP = 8  # a point group this large absorbs the floats of the small groups around it
# (reserve kept per large group, how many groups apart core players may meet)
STAGES = ((8, 2), (32, 4))


@dataclass
class _Event:
    """The active players of one request, sorted by points, as indices."""

    ids: list[PlayerId]
    points: list[int]
    met: list[set[int]]
    barred: list[set[int]]  # forbidden pairs: never paired
    byes: list[int]
    groups: list[list[int]]  # point groups, highest first
    group_of: list[int]

    @property
    def n(self) -> int:
        return len(self.ids)


@dataclass
class _Weights:
    s: int
    b2: int
    b1: int
    r: int
    top: int


@dataclass
class _Solution:
    pairs: list[tuple[int, int]]
    bye: int | None
    proof: str


def pair(inp: PairingInput, *, dense_below: int = 40) -> PairingResult:
    """Pair one Swiss round. Events under ``dense_below`` active players match on the complete graph."""
    ev = _event(inp)
    rng = SeededRandom(_mix(inp.seed, inp.round))
    if ev.n == 0:
        return PairingResult(pairings=(), byes=(), proof="complete-graph")
    weights = _weights(ev)
    sol = None
    if ev.n >= dense_below and any(len(g) >= ZONE_GROUP for g in ev.groups):
        bound = _lower_bound(ev)
        for reserve, reach in STAGES:
            sol = _solve_sparse(ev, rng, weights, reserve, reach)
            if sol is not None and _squares(ev, sol.pairs) == bound:
                break
            sol = None
    if sol is None:
        sol = _solve_complete(ev, rng, weights)
    return _result(ev, sol, rng)


# --- input -------------------------------------------------------------------------------------


def _mix(seed: int | str, round_no: int) -> int:
    digest = hashlib.sha256(f"{type(seed).__name__}:{seed}:{round_no}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _event(inp: PairingInput) -> _Event:
    known: set[PlayerId] = set()
    for p in inp.players:
        if p.id in known:
            raise PairingError(Problem("duplicate-player", player=p.id))
        known.add(p.id)
    for p in inp.players:
        if not known.issuperset(p.opponents):
            o = next(o for o in p.opponents if o not in known)
            raise PairingError(Problem("unknown-opponent", player=p.id, opponent=o))
    for a, b in inp.forbidden:
        for x in (a, b):
            if x not in known:
                raise PairingError(Problem("unknown-player", player=x))
    active = sorted((p for p in inp.players if not p.dropped), key=lambda p: -p.points)
    index = {p.id: i for i, p in enumerate(active)}
    met = [_met(index, p.opponents) for p in active]
    barred: list[set[int]] = [set() for _ in active]
    for a, b in inp.forbidden:
        if a in index and b in index:
            barred[index[a]].add(index[b])
            barred[index[b]].add(index[a])
    groups: list[list[int]] = []
    group_of = []
    for i, p in enumerate(active):
        if not groups or active[groups[-1][0]].points != p.points:
            groups.append([])
        groups[-1].append(i)
        group_of.append(len(groups) - 1)
    return _Event(
        ids=[p.id for p in active],
        points=[p.points for p in active],
        met=met,
        barred=barred,
        byes=[p.byes for p in active],
        groups=groups,
        group_of=group_of,
    )


def _met(index: dict[PlayerId, int], opponents: tuple[PlayerId, ...]) -> set[int]:
    """The indices of the active opponents met (a dropped one has none)."""
    met: set[int | None] = set(map(index.get, opponents))
    met.discard(None)
    return met  # type: ignore[return-value]


def _weights(ev: _Event) -> _Weights:
    """Scale each criterion above the largest total every criterion after it can reach."""
    tables = ev.n // 2 + 1
    spread = (ev.points[0] - ev.points[-1]) if ev.n else 0
    s = tables * RAND
    b2 = (tables * spread * spread + 1) * s
    b1 = (len(ev.groups) + 1) * b2
    r = (max(ev.byes, default=0) + 1) * b1 + b1
    return _Weights(s=s, b2=b2, b1=b1, r=r, top=(tables + 1) * r)


def _bye_level(ev: _Event) -> tuple[int, int]:
    """The best bye possible: (fewest byes so far, lowest point group among those players)."""
    fewest = min(ev.byes)
    group = max(ev.group_of[i] for i in range(ev.n) if ev.byes[i] == fewest)
    return fewest, group


def _bye_cost(ev: _Event, w: _Weights, i: int) -> int:
    from_bottom = len(ev.groups) - 1 - ev.group_of[i]
    return ev.byes[i] * w.b1 + from_bottom * w.b2


# --- solving -----------------------------------------------------------------------------------


def _match(nodes: int, edges: list[tuple[int, int, int]]) -> list[tuple[int, int]] | None:
    graph = rx.PyGraph()
    graph.add_nodes_from(range(nodes))
    graph.add_edges_from(edges)
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda x: x)
    if 2 * len(mate) != nodes:
        return None
    return sorted((a, b) if a < b else (b, a) for a, b in mate)


def _pair_weight(ev: _Event, w: _Weights, rng: SeededRandom, i: int, j: int) -> int:
    d = ev.points[i] - ev.points[j]
    rematch = w.r if j in ev.met[i] else 0
    return w.top - rematch - d * d * w.s - rng.below(RAND)


def _split(sol: list[tuple[int, int]], bye_node: int) -> tuple[list[tuple[int, int]], int | None]:
    pairs, bye = [], None
    for a, b in sol:
        if b == bye_node:
            bye = a
        else:
            pairs.append((a, b))
    return pairs, bye


def _solve_complete(ev: _Event, rng: SeededRandom, w: _Weights) -> _Solution:
    """Every allowed pair is an edge (rematches at their cost): exact by construction."""
    n = ev.n
    edges = [(i, j, _pair_weight(ev, w, rng, i, j)) for i in range(n) for j in range(i + 1, n) if j not in ev.barred[i]]
    if n % 2:
        edges += [(i, n, w.top - _bye_cost(ev, w, i) - rng.below(RAND)) for i in range(n)]
    mate = _match(n + n % 2, edges)
    if mate is None:
        raise PairingError(Problem("unpairable", players=n))
    pairs, bye = _split(mate, n)
    return _Solution(pairs, bye, "complete-graph")


def _allowed(ev: _Event, i: int, j: int) -> bool:
    return j not in ev.met[i] and j not in ev.barred[i]


def _prepair(ev: _Event, members: list[int], reserve: int) -> tuple[list[int], list[tuple[int, int]]]:
    """Pair most of a large group among itself at random; return (reserve, pairs)."""
    keep = members[: reserve + (len(members) - reserve) % 2]
    rest = members[len(keep) :]
    done = [False] * len(rest)
    pairs = []
    for a in range(len(rest)):
        if done[a]:
            continue
        for b in range(a + 1, min(len(rest), a + 32)):
            if not done[b] and _allowed(ev, rest[a], rest[b]):
                done[a] = done[b] = True
                pairs.append((rest[a], rest[b]))
                break
        else:
            keep.append(rest[a])
    return keep, pairs


def _solve_sparse(ev: _Event, rng: SeededRandom, w: _Weights, reserve: int, reach: int) -> _Solution | None:
    """Large groups pre-paired, the rest matched without rematches; the bye only where it is best."""
    odd = ev.n % 2 == 1
    fewest, bye_group = _bye_level(ev) if odd else (0, -1)
    fixed: list[tuple[int, int]] = []
    core: list[list[int]] = []
    for g, members in enumerate(ev.groups):
        members = list(members)
        rng.shuffle(members)
        if g == bye_group:  # keep bye candidates in the reserve
            members.sort(key=lambda i: ev.byes[i] != fewest)
        if len(members) > reserve + 4:
            keep, pairs = _prepair(ev, members, reserve)
            fixed += pairs
            core.append(keep)
        else:
            core.append(members)
    nodes = [i for group in core for i in group]
    local = {i: k for k, i in enumerate(nodes)}
    edges = []
    for g, group in enumerate(core):
        near = [j for h in range(g, min(len(core), g + reach + 1)) for j in core[h]]
        for i in group:
            for j in near:
                if local[j] > local[i] and _allowed(ev, i, j):
                    edges.append((local[i], local[j], _pair_weight(ev, w, rng, i, j)))
    bye_node = len(nodes)
    if odd:
        for i in core[bye_group]:
            if ev.byes[i] == fewest:
                edges.append((local[i], bye_node, w.top - rng.below(RAND)))
    mate = _match(len(nodes) + odd, edges)
    if mate is None:
        return None
    pairs, bye = _split(mate, bye_node)
    return _Solution(
        fixed + [(nodes[a], nodes[b]) for a, b in pairs], None if bye is None else nodes[bye], "lower-bound"
    )


def _squares(ev: _Event, pairs: Iterable[tuple[int, int]]) -> int:
    return sum((ev.points[a] - ev.points[b]) ** 2 for a, b in pairs)


# --- the certificate -----------------------------------------------------------------------------


def _lower_bound(ev: _Event) -> int:
    """A lower bound on the squared-difference sum of every rematch-free pairing with the best bye.

    An edge between points p > q costs (p - q)^2, at least the sum of the squared gaps between the
    point groups it spans, so the cost splits into disjoint segments. Groups of ``ZONE_GROUP`` or
    more players are "large"; the runs of small groups between them are zones. A cut between two
    adjacent large groups is crossed by at least (players above it) mod 2 edges. A zone is solved
    exactly (rematches and forbidden pairs excluded) for the segments inside its two neighbouring
    large groups: its players pair inside it, or leave it up or down at the cost of reaching the
    neighbouring large group, and the players around it jump over it as parity requires.
    """
    odd = ev.n % 2 == 1
    bye_group = _bye_level(ev)[1] if odd else -1
    fewest = min(ev.byes)
    sizes = [len(g) for g in ev.groups]
    value = [ev.points[g[0]] for g in ev.groups]
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
        players = [i for g in range(u + 1, d) for i in ev.groups[g]]
        eligible = [i for i in players if ev.group_of[i] == bye_group and ev.byes[i] == fewest]
        up = None if u < 0 else (value[u], above[u + 1] % 2)
        down = None if d >= len(sizes) else (value[d], (total - above[d]) % 2)
        bound += _zone_bound(ev, players, up, down, eligible)
    return bound


def _zone_bound(
    ev: _Event, players: list[int], up: tuple[int, int] | None, down: tuple[int, int] | None, eligible: list[int]
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
            if y > x and _allowed(ev, i, j):
                costs.append((x, y, (ev.points[i] - ev.points[j]) ** 2))
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
        costs += [(local[i], start + s, (ev.points[i] - edge_points) ** 2) for i in players for s in range(size)]
        costs += [(start + s, start + s + 1, 0) for s in range(size - 1)]
        pools.append(start)
        nodes += size
    if len(pools) == 2 and up is not None and down is not None:
        costs.append((pools[0] + 0, nodes - 1, (up[0] - down[0]) ** 2))
    if eligible:
        costs += [(local[i], nodes, 0) for i in eligible]
        nodes += 1
    top = (nodes + 2) * (max(c for _, _, c in costs) + 1)
    mate = _match(nodes, [(a, b, top - c) for a, b, c in costs])
    assert mate is not None
    cost = {(a, b): c for a, b, c in costs}
    return sum(cost[m] for m in mate)


# --- output ------------------------------------------------------------------------------------


def _result(ev: _Event, sol: _Solution, rng: SeededRandom) -> PairingResult:
    order = list(range(len(sol.pairs)))
    rng.shuffle(order)
    tiebreak = {p: k for k, p in zip(order, sol.pairs, strict=True)}
    pairs = [(a, b) if ev.points[a] >= ev.points[b] else (b, a) for a, b in sol.pairs]
    pairs.sort(key=lambda ab: (-ev.points[ab[0]], -ev.points[ab[1]], tiebreak.get(ab, tiebreak.get(ab[::-1], 0))))
    rematches = sum(1 for a, b in pairs if b in ev.met[a])
    explanations = tuple(_explain(ev, t + 1, a, b, rematches == 0) for t, (a, b) in enumerate(pairs))
    return PairingResult(
        pairings=tuple((ev.ids[a], ev.ids[b]) for a, b in pairs),
        byes=() if sol.bye is None else (ev.ids[sol.bye],),
        explanations=explanations,
        rematches=rematches,
        pair_downs=sum(1 for a, b in pairs if ev.points[a] != ev.points[b]),
        squared_point_difference=_squares(ev, pairs),
        proof=sol.proof,
    )


def _explain(ev: _Event, table: int, a: int, b: int, rematch_free: bool) -> PairExplanation:
    diff = ev.points[a] - ev.points[b]
    if diff == 0:
        reason = "same-points"
    elif any(j != a and _allowed(ev, a, j) for j in ev.groups[ev.group_of[a]]):
        reason = "paired-down-count"
    else:
        reason = "paired-down-rematch"
    return PairExplanation(
        table=table,
        a=ev.ids[a],
        b=ev.ids[b],
        point_difference=diff,
        rematch=b in ev.met[a],
        rematch_free_alternative=rematch_free,
        reason=reason,
    )
