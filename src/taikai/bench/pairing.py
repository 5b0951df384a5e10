"""Pairing and standings benchmark: simulated events through ``taikai pair`` and pure core.

``python -m taikai.bench pairing [--sizes 256,1024,4096] [--seeds 1]`` prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

from taikai.core import standings
from taikai.core.pairing import PairingInput, PlayerState, swiss
from taikai.core.rng import SeededRandom
from taikai.core.ruleset import builtin

DRAW_RATE = 0.05
DROP_RATE = 0.02
TARGET_MS = {256: 20.0, 1024: 100.0, 4096: 500.0}
STANDINGS_TARGET_MS = 200.0
EVENT_TARGET_S = 15.0


@dataclass
class Sim:
    """A simulated event: hidden strengths, results drawn from the seed (5% draws, 2% drops)."""

    size: int
    seed: int
    points: list[int] = field(default_factory=list)
    opponents: list[list[int]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    dropped: list[bool] = field(default_factory=list)
    rounds: list[list[standings.MatchRecord]] = field(default_factory=list)

    def __post_init__(self) -> None:
        rng = SeededRandom(self.seed * 7919 + self.size)
        self.rng = rng
        self.strength = [_gauss(rng) for _ in range(self.size)]
        self.points = [0] * self.size
        self.opponents = [[] for _ in range(self.size)]
        self.byes = [0] * self.size
        self.dropped = [False] * self.size

    def drop_some(self) -> None:
        for i in range(self.size):
            if not self.dropped[i] and _uniform(self.rng) < DROP_RATE:
                self.dropped[i] = True

    def request(self, round_no: int) -> dict[str, object]:
        return {
            "type": "pair",
            "round": round_no,
            "seed": self.seed,
            "players": [
                {
                    "id": i,
                    "points": self.points[i],
                    "opponents": self.opponents[i],
                    "had_bye": self.byes[i] > 0,
                    "byes": self.byes[i],
                    "dropped": self.dropped[i],
                }
                for i in range(self.size)
            ],
        }

    def pairing_input(self, round_no: int) -> PairingInput:
        players = tuple(
            PlayerState(i, self.points[i], tuple(self.opponents[i]), self.byes[i], self.dropped[i])
            for i in range(self.size)
        )
        return PairingInput(players=players, round=round_no, seed=self.seed)

    def play(self, pairings: list[list[int]], byes: list[int]) -> None:
        results: list[standings.MatchRecord] = []
        for a, b in pairings:
            self.opponents[a].append(b)
            self.opponents[b].append(a)
            u = _uniform(self.rng)
            if u < DRAW_RATE:
                self.points[a] += 1
                self.points[b] += 1
                results.append(standings.MatchRecord(a, b, "draw"))
            else:
                p_a = 1 / (1 + math.exp(self.strength[b] - self.strength[a]))
                winner = a if _uniform(self.rng) < p_a else b
                self.points[winner] += 3
                results.append(standings.MatchRecord(a, b, "a" if winner == a else "b"))
        for p in byes:
            self.points[p] += 3
            self.byes[p] += 1
            results.append(standings.MatchRecord(p, None, "bye"))
        self.rounds.append(results)


def _uniform(rng: SeededRandom) -> float:
    return rng.next_u64() / 2**64


def _gauss(rng: SeededRandom) -> float:
    u1 = max(_uniform(rng), 1e-12)
    return math.sqrt(-2 * math.log(u1)) * math.cos(2 * math.pi * _uniform(rng))


def _rounds_for(size: int) -> int:
    return builtin("dkt-2011").suggested_swiss_rounds(size)


def _quality(sim: Sim, pairings: list[list[int]]) -> tuple[int, int, int]:
    rematches = sum(1 for a, b in pairings if b in sim.opponents[a])
    downs = sum(1 for a, b in pairings if sim.points[a] != sim.points[b])
    squares = sum((sim.points[a] - sim.points[b]) ** 2 for a, b in pairings)
    return rematches, downs, squares


def _cli_event(size: int, seed: int, command: list[str]) -> dict[str, float]:
    """One simulated event paired round by round through a persistent ``taikai pair`` process."""
    sim = Sim(size, seed)
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    times, quality = [], [0, 0, 0]
    try:
        for r in range(1, _rounds_for(size) + 1):
            if r > 1:
                sim.drop_some()
            line = json.dumps(sim.request(r)) + "\n"
            start = time.perf_counter()
            proc.stdin.write(line)
            proc.stdin.flush()
            answer = json.loads(proc.stdout.readline())
            times.append((time.perf_counter() - start) * 1000)
            if "error" in answer:
                raise RuntimeError(answer["error"])
            for k, v in enumerate(_quality(sim, answer["pairings"])):
                quality[k] += v
            sim.play(answer["pairings"], answer["byes"])
        proc.stdin.write(json.dumps({"type": "end"}) + "\n")
        proc.stdin.close()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    later = times[1:] or times  # round 1 overlaps the process start-up
    return {
        "median": statistics.median(later),
        "max": max(later),
        "rematches": quality[0],
        "downs": quality[1],
        "squares": quality[2],
    }


def _core_event(size: int, rounds: int, seed: int) -> tuple[float, float]:
    """The whole event in pure core: (seconds end to end, ms for the final standings)."""
    ruleset = builtin("dkt-2011")
    start = time.perf_counter()
    sim = Sim(size, seed)
    for r in range(1, rounds + 1):
        if r > 1:
            sim.drop_some()
        result = swiss.pair(sim.pairing_input(r))
        sim.play([[int(a), int(b)] for a, b in result.pairings], [int(p) for p in result.byes])
    t0 = time.perf_counter()
    standings.compute(list(range(size)), sim.rounds, ruleset, seed)
    standings_ms = (time.perf_counter() - t0) * 1000
    return time.perf_counter() - start, standings_ms


def _ok(value: float, target: float) -> str:
    return "ok" if value <= target else "**over**"


def run(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m taikai.bench pairing")
    parser.add_argument("--sizes", default="256,1024,4096")
    parser.add_argument("--seeds", type=int, default=2, help="simulated events per size")
    args = parser.parse_args(argv)
    taikai = os.path.join(os.path.dirname(sys.executable), "taikai")
    command = (
        [taikai, "pair"]
        if os.path.exists(taikai)
        else [sys.executable, "-c", "import sys; from taikai.cli import main; sys.exit(main())", "pair"]
    )
    print("Swiss pairing through `taikai pair` (request to answer, rounds >= 2; 5% draws, 2% drops a round)\n")
    print("| players | rounds | events | median ms | max ms | target ms | | rematches | pair-downs | ΣΔpts² |")
    print("|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    for size in [int(s) for s in args.sizes.split(",")]:
        runs = [_cli_event(size, seed, command) for seed in range(1, args.seeds + 1)]
        median = statistics.median(r["median"] for r in runs)
        worst = max(r["max"] for r in runs)
        target = TARGET_MS.get(size, float("nan"))
        q = [sum(r[k] for r in runs) / len(runs) for k in ("rematches", "downs", "squares")]
        print(
            f"| {size} | {_rounds_for(size)} | {len(runs)} | {median:.1f} | {worst:.1f} | {target:g} | "
            f"{_ok(median, target)} | {q[0]:.1f} | {q[1]:.1f} | {q[2]:.1f} |"
        )
    seconds, standings_ms = _core_event(4096, 12, 1)
    print("\n| pure core, 4096 players, 12 rounds | measured | target | |")
    print("|---|---:|---:|---|")
    print(
        f"| standings after 12 rounds | {standings_ms:.0f} ms | {STANDINGS_TARGET_MS:g} ms "
        f"| {_ok(standings_ms, STANDINGS_TARGET_MS)} |"
    )
    print(
        f"| whole event (pairing + results + standings) | {seconds:.1f} s | {EVENT_TARGET_S:g} s "
        f"| {_ok(seconds, EVENT_TARGET_S)} |"
    )
    print("\nQuality columns are per event (sum over its rounds), averaged over events.")
