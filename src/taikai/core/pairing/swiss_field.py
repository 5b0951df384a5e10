"""The active players of one Swiss pairing request, as indices (スイスドロー): sorted by points, with who met
whom, the forbidden pairs, the byes so far and the point groups. The engine (``swiss``) and its certificate
(``swiss_bound``) both read it.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import chain, groupby
from operator import attrgetter

from taikai.core.pairing.types import PairingError, PairingInput, PlayerId, PlayerState
from taikai.core.problems import Problem


@dataclass
class Field:
    """The active players of one request, sorted by points, as indices."""

    ids: list[PlayerId]
    points: list[int]
    met: list[tuple[PlayerId, ...]]  # each player's opponents so far, as ids (``has_met``)
    barred: list[AbstractSet[int]]  # forbidden pairs: never paired
    byes: list[int]
    groups: list[list[int]]  # point groups, highest first
    group_of: list[int]

    @property
    def n(self) -> int:
        return len(self.ids)


def build_field(inp: PairingInput) -> Field:
    """The request's active players; a duplicate or unknown player is refused (``PairingError``)."""
    players = inp.players
    known: set[PlayerId] = {p.id for p in players}
    if len(known) != len(players):
        _refuse_duplicate(players)
    if not known.issuperset(chain.from_iterable([p.opponents for p in players])):
        o, p = next((o, p) for p in players for o in p.opponents if o not in known)
        raise PairingError(Problem("unknown-opponent", player=p.id, opponent=o))
    for a, b in inp.forbidden:
        for x in (a, b):
            if x not in known:
                raise PairingError(Problem("unknown-player", player=x))
    # highest points first; the sort is stable, so equal points keep the request's order
    active = sorted([p for p in players if not p.dropped], key=_POINTS, reverse=True)
    index = {p.id: i for i, p in enumerate(active)} if inp.forbidden else {}
    barred: list[AbstractSet[int]] = [_NOBODY] * len(active)
    for a, b in inp.forbidden:
        if a in index and b in index:
            for x, y in ((a, b), (b, a)):
                barred[index[x]] = {*barred[index[x]], index[y]}
    points = [p.points for p in active]
    groups: list[list[int]] = []
    group_of: list[int] = []
    for g, (_, run) in enumerate(groupby(points)):
        first = len(group_of)
        group_of += [g] * len(list(run))
        groups.append(list(range(first, len(group_of))))
    return Field(
        ids=[p.id for p in active],
        points=points,
        met=[p.opponents for p in active],
        barred=barred,
        byes=[p.byes for p in active],
        groups=groups,
        group_of=group_of,
    )


_POINTS = attrgetter("points")
_NOBODY: AbstractSet[int] = frozenset()


def _refuse_duplicate(players: tuple[PlayerState, ...]) -> None:
    seen: set[PlayerId] = set()
    for p in players:
        if p.id in seen:
            raise PairingError(Problem("duplicate-player", player=p.id))
        seen.add(p.id)


def bye_level(field: Field) -> tuple[int, int]:
    """The best bye possible: (fewest byes so far, lowest point group among those players)."""
    fewest = min(field.byes)
    last = field.n - 1 - field.byes[::-1].index(fewest)  # groups run down the field: the last such player's
    return fewest, field.group_of[last]


def has_met(field: Field, i: int, j: int) -> bool:
    """Whether i and j met before. Looked up by id in i's few opponents: a set of indices made for every player
    cost more, at 4,096 players, than all the look-ups of a pairing (a dropped opponent has no index)."""
    return field.ids[j] in field.met[i]


def allowed(field: Field, i: int, j: int) -> bool:
    """No rematch and no forbidden pair (criteria 1 and 2 at their strictest)."""
    return field.ids[j] not in field.met[i] and j not in field.barred[i]
