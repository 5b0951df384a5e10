"""taikai pair: JSON-lines Swiss pairing for other tools (one request per line, one answer per line).

Request: {"round": 3, "seed": 42, "players": [{"id": 1, "points": 6, "opponents": [4, 9],
"had_bye": false, "dropped": false}, ...], "forbidden": [[1, 2]]}; unknown keys are ignored and
{"type": "end"} (or end of input) stops. Answer: {"pairings": [[1, 7], ...], "byes": [12],
"elapsed_ms": 1.2}, or {"error": "..."} for a request that cannot be paired.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from itertools import chain, compress, repeat
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("pair", help="Swiss pairings as JSON lines on stdin/stdout / スイスドローの組み合わせ")
    p.set_defaults(func=cmd_pair)


def cmd_pair(args: argparse.Namespace) -> int:
    out = sys.stdout
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            _send(out, {"error": f"bad JSON: {exc}"})
            continue
        if isinstance(request, dict) and request.get("type") == "end":
            return 0
        # The loaded modules and the request live until the answer is sent: frozen, the cycle collector does not
        # scan their tens of thousands of objects again at each of a pairing's collections (a tenth of its time at
        # 4,096 players). What the pairing makes is collected as usual; after the answer, the request may go.
        gc.freeze()
        try:
            _send(out, _answer(request))
        finally:
            gc.unfreeze()


def _answer(request: Any) -> dict[str, Any]:
    """The answer to one request: its pairings and byes and the time taken, or the error."""
    from taikai.core.pairing import swiss  # imported here: other commands need not load rustworkx
    from taikai.core.pairing.types import PairingError

    start = time.perf_counter()
    try:
        result = swiss.pair(to_input(request), explain=False)  # the answer carries no explanations
    except (BadRequest, PairingError) as exc:
        return {"error": _message(exc)}
    elapsed = (time.perf_counter() - start) * 1000
    return {
        "pairings": [list(p) for p in result.pairings],
        "byes": list(result.byes),
        "elapsed_ms": round(elapsed, 3),
    }


class BadRequest(Exception):
    pass


def _message(exc: Exception) -> str:
    problem = getattr(exc, "problem", None)
    if problem is None:
        return str(exc)
    from taikai import messages

    return messages.text(problem, "en")


def _send(out: Any, obj: dict[str, Any]) -> None:
    out.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")
    out.flush()


def _player_id(value: Any, what: str) -> int | str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise BadRequest(f"{what}: id must be an integer or a string, not {value!r}")
    return value


_ID_TYPES = frozenset((int, str))
_INT, _LIST, _NONE = frozenset((int,)), frozenset((list,)), frozenset((type(None),))


def _opponent_ids(opponents: list[Any], k: int) -> tuple[int | str, ...]:
    return tuple(_player_id(o, f"players[{k}].opponents") for o in opponents)


def _players(rows: list[Any]) -> list[Any]:
    """The request's players as PlayerStates. JSON's fields are plain ints, strings and lists: each field is read
    for every player at once and its types tested at once, and the PlayerStates are made a field at a time
    (``columns.instances``: at 4,096 players, a third less than a dozen steps and a constructor call a player);
    a request that is not that plain goes one player at a time, which names the first bad field."""
    from taikai.core.columns import instances
    from taikai.core.pairing import PlayerState

    if not _DICT.issuperset(map(type, rows)):
        return _one_by_one(rows)
    get = dict.get
    ids, points = list(map(get, rows, repeat("id"))), list(map(get, rows, repeat("points"), repeat(0)))
    opponents: list[Any] = list(map(get, rows, repeat("opponents")))
    byes: list[Any] = list(map(get, rows, repeat("byes")))
    if None in opponents:  # no opponents yet
        opponents = [o or [] for o in opponents]
    plain = (
        _ID_TYPES.issuperset(map(type, ids))
        and _INT.issuperset(map(type, points))
        and _LIST.issuperset(map(type, opponents))
        and _ID_TYPES.issuperset(map(type, chain.from_iterable(opponents)))
    )
    bye_types = set(map(type, byes))
    if not plain or not (bye_types <= _INT or bye_types <= _NONE):
        return _one_by_one(rows)
    had = list(map(get, rows, repeat("had_bye")))
    if bye_types <= _NONE:  # no bye counts: one bye for each player that had one
        byes = [1 if h else 0 for h in had]
    else:
        for k in compress(range(len(rows)), had):  # "had_bye" with a count of 0 is one bye
            byes[k] = byes[k] or 1
    dropped = list(map(bool, map(get, rows, repeat("dropped"))))
    return instances(PlayerState, ids, points, list(map(tuple, opponents)), byes, dropped)


def _one_by_one(rows: list[Any]) -> list[Any]:
    from taikai.core.pairing import PlayerState

    players = []
    ids = _ID_TYPES
    for k, p in enumerate(rows):
        if not isinstance(p, dict):
            raise BadRequest(f"players[{k}] must be an object")
        pid: Any = p.get("id")
        points, opponents, byes = p.get("points", 0), p.get("opponents") or [], p.get("byes")
        if type(pid) not in ids:
            pid = _player_id(pid, f"players[{k}]")
        if isinstance(points, bool) or not isinstance(points, int) or not isinstance(opponents, list):
            raise BadRequest(f"players[{k}]: points must be an integer and opponents a list")
        if isinstance(byes, bool) or not isinstance(byes, int):
            byes = 1 if p.get("had_bye") else 0
        elif byes == 0 and p.get("had_bye"):
            byes = 1
        met = tuple(opponents) if ids.issuperset(map(type, opponents)) else _opponent_ids(opponents, k)
        players.append(PlayerState(pid, points, met, byes, bool(p.get("dropped"))))
    return players


_DICT = frozenset((dict,))


def to_input(request: Any) -> Any:
    """The request as a PairingInput; raises BadRequest naming the bad field."""
    from taikai.core.pairing import PairingInput

    if not isinstance(request, dict) or not isinstance(request.get("players"), list):
        raise BadRequest("request must be an object with a list of players")
    players = _players(request["players"])
    forbidden = []
    for pair in request.get("forbidden") or []:
        if not isinstance(pair, list) or len(pair) != 2:
            raise BadRequest("forbidden entries must be [id, id]")
        forbidden.append((_player_id(pair[0], "forbidden"), _player_id(pair[1], "forbidden")))
    round_no = request.get("round", 1)
    seed = request.get("seed")
    if seed is None:
        event = request.get("event")
        seed = event.get("seed", 0) if isinstance(event, dict) else 0
    if isinstance(round_no, bool) or not isinstance(round_no, int) or not isinstance(seed, int | str):
        raise BadRequest("round must be an integer and seed an integer or a string")
    return PairingInput(players=tuple(players), round=round_no, seed=seed, forbidden=tuple(forbidden))
