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
every pairing of the complete graph (see ``swiss_bound.lower_bound``). Only when the certificate fails does
the engine grow the graph, and in the end match on the complete graph.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate
from operator import sub

from taikai.core.pairing import swiss_bound
from taikai.core.pairing.matching import perfect_matching
from taikai.core.pairing.swiss_field import Field, allowed, build_field, bye_level, has_met
from taikai.core.pairing.types import PairExplanation, PairingError, PairingInput, PairingResult
from taikai.core.problems import Problem
from taikai.core.rng import SeededRandom

RAND = 1 << 24  # per-edge random tie-break range (criterion 5)
# (reserve kept per large group, how many groups apart core players may meet)
STAGES = ((8, 2), (32, 4))


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


def pair(inp: PairingInput, *, dense_below: int = 40, explain: bool = True) -> PairingResult:
    """Pair one Swiss round. Events under ``dense_below`` active players match on the complete graph.

    ``explain=False`` leaves out the per-table explanations (the same pairings, a caller that shows none)."""
    field = build_field(inp)
    rng = SeededRandom(_mix(inp.seed, inp.round))
    if field.n == 0:
        return PairingResult(pairings=(), byes=(), proof="complete-graph")
    weights = _weights(field)
    sol = None
    if field.n >= dense_below and any(len(g) >= swiss_bound.ZONE_GROUP for g in field.groups):
        bound = swiss_bound.lower_bound(field)
        for reserve, reach in STAGES:
            sol = _solve_sparse(field, rng, weights, reserve, reach)
            if sol is not None and _squares(field, sol.pairs) == bound:
                break
            sol = None
    if sol is None:
        sol = _solve_complete(field, rng, weights)
    return _result(field, sol, rng, explain)


# --- input -------------------------------------------------------------------------------------


def _mix(seed: int | str, round_no: int) -> int:
    digest = hashlib.sha256(f"{type(seed).__name__}:{seed}:{round_no}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _weights(field: Field) -> _Weights:
    """Scale each criterion above the largest total every criterion after it can reach."""
    tables = field.n // 2 + 1
    spread = (field.points[0] - field.points[-1]) if field.n else 0
    s = tables * RAND
    b2 = (tables * spread * spread + 1) * s
    b1 = (len(field.groups) + 1) * b2
    r = (max(field.byes, default=0) + 1) * b1 + b1
    return _Weights(s=s, b2=b2, b1=b1, r=r, top=(tables + 1) * r)


def _bye_cost(field: Field, w: _Weights, i: int) -> int:
    from_bottom = len(field.groups) - 1 - field.group_of[i]
    return field.byes[i] * w.b1 + from_bottom * w.b2


# --- solving -----------------------------------------------------------------------------------


def _split(sol: list[tuple[int, int]], bye_node: int) -> tuple[list[tuple[int, int]], int | None]:
    pairs, bye = [], None
    for a, b in sol:
        if b == bye_node:
            bye = a
        else:
            pairs.append((a, b))
    return pairs, bye


def _solve_complete(field: Field, rng: SeededRandom, w: _Weights) -> _Solution:
    """Every allowed pair is an edge (rematches at their cost): exact by construction."""
    n = field.n
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if j not in field.barred[i]]
    edges = [
        (i, j, w.top - (w.r if has_met(field, i, j) else 0) - (field.points[i] - field.points[j]) ** 2 * w.s - r)
        for (i, j), r in zip(pairs, rng.belows(RAND, len(pairs)), strict=True)
    ]
    if n % 2:
        edges += [
            (i, n, w.top - _bye_cost(field, w, i) - r) for i, r in zip(range(n), rng.belows(RAND, n), strict=True)
        ]
    mate = perfect_matching(n + n % 2, edges)
    if mate is None:
        raise PairingError(Problem("unpairable", players=n))
    pairs, bye = _split(mate, n)
    return _Solution(pairs, bye, "complete-graph")


def _prepair(field: Field, members: list[int], reserve: int) -> tuple[list[int], list[tuple[int, int]]]:
    """Pair most of a large group among itself at random; return (reserve, pairs).

    Each player, in the shuffled order, takes the first free player of the next 31 it may meet. Where every
    neighbouring two (1st and 2nd, 3rd and 4th, ...) may meet, that is just those twos, found for a whole stretch
    at once (``_neighbours``); the first two who may not send that stretch's end through the player-by-player
    walk (``_walk``), which hands back the place from which nobody ahead is taken, where the twos start again."""
    keep = members[: reserve + (len(members) - reserve) % 2]
    rest = members[len(keep) :]
    pairs: list[tuple[int, int]] = []
    start = 0
    while start < len(rest):
        start += _neighbours(field, rest, start, pairs)
        if start < len(rest):
            start = _walk(field, rest, start, pairs, keep)
    return keep, pairs


def _neighbours(field: Field, rest: list[int], start: int, pairs: list[tuple[int, int]]) -> int:
    """Pair rest[start], rest[start + 1], ... two by two while each two may meet; how many players were paired."""
    ids, met, barred = field.ids, field.met, field.barred
    firsts, seconds = rest[start::2], rest[start + 1 :: 2]
    # allowed(field, i, j), written out, for every two; in an odd stretch the last player waits for the walk
    fits = [ids[j] not in met[i] and j not in barred[i] for i, j in zip(firsts, seconds, strict=False)]
    stop = fits.index(False) if False in fits else len(seconds)
    pairs += zip(firsts[:stop], seconds[:stop], strict=True)
    return 2 * stop


def _walk(field: Field, rest: list[int], start: int, pairs: list[tuple[int, int]], keep: list[int]) -> int:
    """The player-by-player walk from ``start`` (nobody at or after it taken yet), until a place from which nobody
    ahead is taken: that place (the end of ``rest`` at the latest). A player with no partner stays in ``keep``."""
    ids, met, barred = field.ids, field.met, field.barred
    size = len(rest)
    taken: set[int] = set()  # places after the walker already paired
    a = start
    while a < size:
        if a in taken:
            taken.discard(a)
        else:
            i = rest[a]
            seen, bar = met[i], barred[i]
            for b in range(a + 1, min(size, a + 32)):
                j = rest[b]
                if b not in taken and ids[j] not in seen and j not in bar:
                    taken.add(b)
                    pairs.append((i, j))
                    break
            else:
                keep.append(i)
        a += 1
        if not taken:
            return a
    return a


def _solve_sparse(field: Field, rng: SeededRandom, w: _Weights, reserve: int, reach: int) -> _Solution | None:
    """Large groups pre-paired, the rest matched without rematches; the bye only where it is best."""
    odd = field.n % 2 == 1
    fewest, bye_group = bye_level(field) if odd else (0, -1)
    fixed: list[tuple[int, int]] = []
    core: list[list[int]] = []
    for g, members in enumerate(field.groups):
        members = list(members)
        rng.shuffle(members)
        if g == bye_group:  # keep bye candidates in the reserve
            members.sort(key=lambda i: field.byes[i] != fewest)
        if len(members) > reserve + 4:
            keep, pairs = _prepair(field, members, reserve)
            fixed += pairs
            core.append(keep)
        else:
            core.append(members)
    nodes = [i for group in core for i in group]
    edges = _core_edges(field, w, rng, core, nodes, reach)
    bye_node = len(nodes)
    if odd:
        start = sum(len(group) for group in core[:bye_group])
        eligible = [start + k for k, i in enumerate(core[bye_group]) if field.byes[i] == fewest]
        draws = rng.belows(RAND, len(eligible))
        edges += [(x, bye_node, w.top - r) for x, r in zip(eligible, draws, strict=True)]
    mate = perfect_matching(len(nodes) + odd, edges)
    if mate is None:
        return None
    pairs, bye = _split(mate, bye_node)
    return _Solution(
        fixed + [(nodes[a], nodes[b]) for a, b in pairs], None if bye is None else nodes[bye], "lower-bound"
    )


def _core_edges(
    field: Field, w: _Weights, rng: SeededRandom, core: list[list[int]], nodes: list[int], reach: int
) -> list[tuple[int, int, int]]:
    """Every rematch-free, unbarred pair of core nodes at most ``reach`` groups apart, weighted; node x is
    ``nodes[x]``, the core groups one after another. Each edge draws its tie-break in this order, all at once.

    A pair's weight less its draw depends only on the two groups, so it is worked out once per pair of groups,
    and each node's opponents and barred players are looked up among the core nodes once per node."""
    local = {i: x for x, i in enumerate(nodes)}
    by_id = {field.ids[i]: x for x, i in enumerate(nodes)}
    starts = [0, *accumulate(len(group) for group in core)]
    # a group pre-paired whole (no reserve, an even count) keeps no node: its value is never used
    values = [field.points[group[0]] if group else 0 for group in core]
    top, s, met, barred = w.top, w.s, field.met, field.barred
    xs: list[int] = []
    ys: list[int] = []
    bases: list[int] = []
    for g in range(len(core)):
        far = min(len(core), g + reach + 1)
        first, end = starts[g], starts[far]
        row: list[int] = []  # the weight less its draw of a pair with each node first..end-1
        for h in range(g, far):
            row += [top - (values[g] - values[h]) ** 2 * s] * (starts[h + 1] - starts[h])
        for x in range(first, starts[g + 1]):
            i = nodes[x]
            skip = {by_id[o] for o in met[i] if o in by_id}
            skip.update(local[j] for j in barred[i] if j in local)
            ok: range | list[int]
            if skip:
                ok = [y for y in range(x + 1, end) if y not in skip]
                bases += [row[y - first] for y in ok]
            else:  # most nodes met nobody in the core: every later node up to ``end``, their weights a slice
                ok = range(x + 1, end)
                bases += row[x + 1 - first :]
            xs += [x] * len(ok)
            ys += ok
    return list(zip(xs, ys, map(sub, bases, rng.belows(RAND, len(xs))), strict=True))


def _squares(field: Field, pairs: Iterable[tuple[int, int]]) -> int:
    points = field.points
    return sum([(points[a] - points[b]) ** 2 for a, b in pairs])


# --- output ------------------------------------------------------------------------------------


def _result(field: Field, sol: _Solution, rng: SeededRandom, explain: bool) -> PairingResult:
    order = list(range(len(sol.pairs)))
    rng.shuffle(order)
    points, ids, met = field.points, field.ids, field.met
    # Tables by points, then the drawn order (each pair's own draw, so no two keys tie), the higher player first:
    # one integer a table, ordered as (-higher points, -lower points, draw) would be.
    top, span, tables = (points[0], points[0] - points[-1] + 1, len(order)) if points else (0, 1, 0)
    oriented = [(a, b) if points[a] >= points[b] else (b, a) for a, b in sol.pairs]
    keys = [
        ((top - points[a]) * span + top - points[b]) * tables + k for (a, b), k in zip(oriented, order, strict=True)
    ]
    pairs = [oriented[t] for t in sorted(range(tables), key=keys.__getitem__)]
    # the counts are sums over the tables, the same in any order: taken before the sort's order
    rematches = sum([ids[b] in met[a] for a, b in oriented])  # has_met, written out
    gaps = [points[a] - points[b] for a, b in oriented]
    explanations = (
        tuple(_explain(field, t, a, b, rematches == 0) for t, (a, b) in enumerate(pairs, start=1)) if explain else ()
    )
    return PairingResult(
        pairings=tuple([(ids[a], ids[b]) for a, b in pairs]),
        byes=() if sol.bye is None else (ids[sol.bye],),
        explanations=explanations,
        rematches=rematches,
        pair_downs=tables - gaps.count(0),
        squared_point_difference=sum([gap * gap for gap in gaps]),
        proof=sol.proof,
    )


def _explain(field: Field, table: int, a: int, b: int, rematch_free: bool) -> PairExplanation:
    diff = field.points[a] - field.points[b]
    if diff == 0:
        reason = "same-points"
    elif any(j != a and allowed(field, a, j) for j in field.groups[field.group_of[a]]):
        reason = "paired-down-count"
    else:
        reason = "paired-down-rematch"
    return PairExplanation(
        table=table,
        a=field.ids[a],
        b=field.ids[b],
        point_difference=diff,
        rematch=has_met(field, a, b),
        rematch_free_alternative=rematch_free,
        reason=reason,
    )
