"""Pairing and standings benchmark: simulated events through ``taikai pair`` and pure core.

``python -m taikai.bench pairing [--sizes 256,1024,4096] [--seeds 2] [--reference DIR]`` prints markdown tables.
Each request is also sent to the reference max-weight matching of the shared pairing bench (``DIR``, by default
``../shared/bench/pairing`` beside the repository, or ``TAIKAI_BENCH_PAIRING_REF``): ``taikai pair``'s time
÷ the reference's on the same request is the headline figure, measured in the same run (issue 27).
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
from pathlib import Path
from typing import Any

from taikai.bench._machine import load_line
from taikai.core import sheet, standings
from taikai.core.pairing import PairingInput, PlayerState, swiss
from taikai.core.rng import SeededRandom
from taikai.core.ruleset import builtin

DRAW_RATE = 0.05
DROP_RATE = 0.02
TARGET_MS = {256: 20.0, 1024: 100.0, 4096: 500.0}
STANDINGS_TARGET_MS = 200.0
EVENT_TARGET_S = 15.0
REFERENCE_RATIO = 0.02  # taikai pair ÷ the reference matching, at 4,096 players (issue 27)
STANDINGS_RATIO = 1.0  # core standings after 12 rounds ÷ one Swiss pairing, at 4,096 players


@dataclass
class Sim:
    """A simulated event: hidden strengths, results drawn from the seed (5% draws, 2% drops)."""

    size: int
    seed: int
    points: list[int] = field(default_factory=list)
    opponents: list[list[int]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    dropped: list[bool] = field(default_factory=list)
    rounds: list[list[dict[str, object]]] = field(default_factory=list)

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
        results: list[dict[str, object]] = []
        for a, b in pairings:
            self.opponents[a].append(b)
            self.opponents[b].append(a)
            u = _uniform(self.rng)
            if u < DRAW_RATE:
                self.points[a] += 1
                self.points[b] += 1
                results.append({"a": a, "b": b, "result": "draw"})
            else:
                p_a = 1 / (1 + math.exp(self.strength[b] - self.strength[a]))
                winner = a if _uniform(self.rng) < p_a else b
                self.points[winner] += 3
                results.append({"a": a, "b": b, "result": "a" if winner == a else "b"})
        for p in byes:
            self.points[p] += 3
            self.byes[p] += 1
            results.append({"a": p, "bye": True})
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


class _Engine:
    """A persistent JSON-lines pairing process: one request per line, one answer per line."""

    def __init__(self, command: list[str], cwd: str | None = None) -> None:
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, cwd=cwd
        )

    def ask(self, line: str) -> tuple[dict[str, Any], float]:
        """The answer and its time in ms (the engine's own ``elapsed_ms``, else the round trip)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        start = time.perf_counter()
        self.proc.stdin.write(line)
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        trip = (time.perf_counter() - start) * 1000
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer, float(answer.get("elapsed_ms", trip))

    def close(self) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps({"type": "end"}) + "\n")
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def _cli_event(size: int, seed: int, command: list[str], reference: Path | None = None) -> dict[str, Any]:
    """One simulated event paired round by round through a persistent ``taikai pair`` process; with the
    reference, each request is also paired by it, and the ratio of the two times is taken round by round."""
    sim = Sim(size, seed)
    ours = _Engine(command)
    ref = _Engine([sys.executable, "engines/py_worker.py", "ref-rustworkx"], str(reference)) if reference else None
    times, ratios, quality = [], [], [0, 0, 0]
    try:
        for r in range(1, _rounds_for(size) + 1):
            if r > 1:
                sim.drop_some()
            line = json.dumps({**sim.request(r), "total_rounds": _rounds_for(size)}) + "\n"
            answer, ms = ours.ask(line)
            times.append(ms)
            if ref is not None and r > 1:
                ratios.append(ms / ref.ask(line)[1])
            for k, v in enumerate(_quality(sim, answer["pairings"])):
                quality[k] += v
            sim.play(answer["pairings"], answer["byes"])
    finally:
        ours.close()
        if ref is not None:
            ref.close()
    later = times[1:] or times  # round 1 overlaps the process start-up
    return {
        "median": statistics.median(later),
        "max": max(later),
        "ratios": ratios,
        "rematches": quality[0],
        "downs": quality[1],
        "squares": quality[2],
    }


def core_event(size: int, rounds: int, seed: int) -> dict[str, float]:
    """The whole event in pure core: seconds end to end, the median Swiss pairing (ms), and the final
    standings (ms) from the facts, of which the sheet (the records every reader shares) and the ranking."""
    ruleset = builtin("dkt-2011")
    start = time.perf_counter()
    sim = Sim(size, seed)
    pairings = []
    for r in range(1, rounds + 1):
        if r > 1:
            sim.drop_some()
        t = time.perf_counter()
        result = swiss.pair(sim.pairing_input(r))
        pairings.append(time.perf_counter() - t)
        sim.play([[int(a), int(b)] for a, b in result.pairings], [int(p) for p in result.byes])
    t0 = time.perf_counter()
    table = sheet.sheet(standings.facts_of(list(range(size)), _records(sim)), ruleset)
    t1 = time.perf_counter()
    standings.rank(table, ruleset, seed)
    t2 = time.perf_counter()
    return {
        "event_s": t2 - start,
        "pair_ms": statistics.median(pairings) * 1000,
        "standings_ms": (t2 - t0) * 1000,
        "sheet_ms": (t1 - t0) * 1000,
        "rank_ms": (t2 - t1) * 1000,
    }


def _records(sim: Sim) -> list[list[standings.MatchRecord]]:
    return [
        [
            standings.MatchRecord(m["a"], None, "bye")  # type: ignore[arg-type]
            if m.get("bye")
            else standings.MatchRecord(m["a"], m["b"], m["result"])  # type: ignore[arg-type]
            for m in played
        ]
        for played in sim.rounds
    ]


def _ok(value: float, target: float) -> str:
    return "ok" if value <= target else "**over**"


def _reference(given: str) -> Path | None:
    """The shared pairing bench's folder, if it is there (its engines/py_worker.py runs the reference)."""
    default = Path(__file__).resolve().parents[3].parent / "shared" / "bench" / "pairing"
    folder = Path(given or os.environ.get("TAIKAI_BENCH_PAIRING_REF", "") or default)
    return folder if (folder / "engines" / "py_worker.py").exists() else None


def run(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m taikai.bench pairing")
    parser.add_argument("--sizes", default="256,1024,4096")
    parser.add_argument("--seeds", type=int, default=2, help="simulated events per size")
    parser.add_argument("--reference", default="", help="the shared pairing bench's folder (reference matching)")
    args = parser.parse_args(argv)
    taikai = os.path.join(os.path.dirname(sys.executable), "taikai")
    command = (
        [taikai, "pair"]
        if os.path.exists(taikai)
        else [sys.executable, "-c", "import sys; from taikai.cli import main; sys.exit(main())", "pair"]
    )
    reference = _reference(args.reference)
    print("Swiss pairing through `taikai pair` (request to answer, rounds >= 2; 5% draws, 2% drops a round)")
    print(
        "÷ reference: `taikai pair`'s time ÷ the reference max-weight matching's (`ref-rustworkx` of the shared"
        " pairing bench) on the same request, median over rounds >= 2 and events"
        + ("" if reference else " — not run: the shared pairing bench was not found (--reference)")
        + "\n"
    )
    print(
        "| players | rounds | events | median ms | max ms | target ms | | ÷ reference | target | "
        "| rematches | pair-downs | ΣΔpts² |"
    )
    print("|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|")
    for size in [int(s) for s in args.sizes.split(",")]:
        runs = [_cli_event(size, seed, command, reference) for seed in range(1, args.seeds + 1)]
        median = statistics.median(r["median"] for r in runs)
        worst = max(r["max"] for r in runs)
        target = TARGET_MS.get(size, float("nan"))
        q = [sum(r[k] for r in runs) / len(runs) for k in ("rematches", "downs", "squares")]
        ratios = [x for r in runs for x in r["ratios"]]
        ratio = f"{statistics.median(ratios):.3f}" if ratios else "—"
        ratio_target = f"≤ {REFERENCE_RATIO:g}" if size == 4096 else ""
        ratio_ok = _ok(statistics.median(ratios), REFERENCE_RATIO) if ratios and size == 4096 else ""
        print(
            f"| {size} | {_rounds_for(size)} | {len(runs)} | {median:.1f} | {worst:.1f} | {target:g} | "
            f"{_ok(median, target)} | {ratio} | {ratio_target} | {ratio_ok} | {q[0]:.1f} | {q[1]:.1f} | {q[2]:.1f} |"
        )
    core = core_event(4096, 12, 1)
    core_ratio = core["standings_ms"] / core["pair_ms"]
    print(f"\n{load_line()}\n")
    print("| pure core, 4096 players, 12 rounds | measured | ratio | target | |")
    print("|---|---:|---:|---:|---|")
    print(f"| one Swiss pairing (median of the 12 rounds) | {core['pair_ms']:.0f} ms | 1 | | |")
    print(
        f"| standings after 12 rounds ÷ one Swiss pairing | {core['standings_ms']:.0f} ms | {core_ratio:.2f} "
        f"| ≤ {STANDINGS_RATIO:g} | {_ok(core_ratio, STANDINGS_RATIO)} |"
    )
    print(f"| of it: the sheet (records, shared with pairing) | {core['sheet_ms']:.0f} ms "
          f"| {core['sheet_ms'] / core['pair_ms']:.2f} | | |")  # fmt: skip
    print(f"| of it: ranking the sheet (tiebreakers, order, codes) | {core['rank_ms']:.0f} ms "
          f"| {core['rank_ms'] / core['pair_ms']:.2f} | | |")  # fmt: skip
    print(
        f"| whole event (pairing + results + standings) | {core['event_s']:.1f} s | | {EVENT_TARGET_S:g} s "
        f"| {_ok(core['event_s'], EVENT_TARGET_S)} |"
    )
    print("\nQuality columns are per event (sum over its rounds), averaged over events.")
    print(f"\n{load_line()}")
