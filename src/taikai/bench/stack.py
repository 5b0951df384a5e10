"""Result reports against their own server's ceiling (issue 27), one server per database, in one run.

``python -m taikai.bench stack [--players 300] [--repeats 3] [--db sqlite,postgresql] [--profile]`` seeds an
event with round 1 started and starts ``taikai serve --workers 2`` with the bench's measuring sticks
(``TAIKAI_BENCH_ENDPOINTS=1``). Over the same 50 keep-alive connections it sends, as fast as they are answered
(each connection sends its next request when its last is answered):

- ``bare``: POST ``/bench/bare`` with a report's bytes, answered by the outermost ASGI callable (uvicorn and
  taikai's connection guard only);
- ``no-op``: the same report to ``.../noop`` (taikai.api.bench_ops: every layer a report passes and its auth,
  no database write);
- ``reports``: real result reports, each player's once (a first report or its confirmation), every one that
  was answered 200 checked in the database afterwards.

The three run ``--repeats`` times, interleaved, and each figure is the median of its runs. The ratios:
reports/s ÷ no-op/s (target ≥ 0.75, none lost) and no-op/s ÷ bare/s (what the stack costs; printed).
With ``--profile`` a last pass of no-op requests runs with a sampling profiler in each worker
(taikai.bench._sampler) and the functions most often on the stack are printed: where the stack's time goes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taikai.bench._openloop import Step, offer

CLIENTS = 50
TARGET = 0.75
BURST = 100_000.0  # offered per second: far above what any server answers, so 50 are always in flight
KINDS = ("bare", "no-op", "reports")
WARM = 200  # reports sent before the first measured run, not counted


@dataclass
class Figures:
    vendor: str
    runs: dict[str, list[Step]] = field(default_factory=lambda: {k: [] for k in KINDS})
    lost: int = 0
    profile: Any = None  # taikai.bench._sampler.Profile

    def rate(self, kind: str) -> float:
        return statistics.median(step.achieved for step in self.runs[kind])

    def ok(self, kind: str) -> tuple[int, int]:
        steps = self.runs[kind]
        return sum(s.statuses()[200] for s in steps), sum(len(s.samples) for s in steps)


def _requests(host: str, event_id: int, jobs: list[Any], kind: str) -> list[bytes]:
    from taikai.bench.attack import report_request

    raws = [report_request(host, event_id, job) for job in jobs]
    if kind == "reports":
        return raws
    path = b"/bench/bare" if kind == "bare" else None
    out = []
    for raw in raws:
        line, rest = raw.split(b"\r\n", 1)
        method, target, version = line.split(b" ")
        target = path or target.replace(b"/result", b"/noop")
        out.append(b" ".join((method, target, version)) + b"\r\n" + rest)
    return out


def _bench(vendor: str, args: argparse.Namespace) -> Figures:
    from taikai.bench._live import Server, database, seed
    from taikai.bench._reports import report_jobs
    from taikai.bench.attack import _lost
    from taikai.bench.event import PG_URL

    figures = Figures(vendor)
    with (
        tempfile.TemporaryDirectory(prefix="taikai-bench-") as tmp,
        database(Path(tmp), PG_URL if vendor == "postgresql" else "") as db,
    ):
        seeded = seed(db, args.players * args.repeats + WARM, timeout=900)
        jobs = report_jobs(seeded)
        warm, jobs = jobs[:WARM], jobs[WARM:]
        per_run = len(jobs) // args.repeats
        with Server(db, workers=2) as server:
            host, url = f"127.0.0.1:{server.port}", server.url
            offer(url, [(BURST, _requests(host, seeded["event_id"], warm, "reports"))], limit=CLIENTS, warm=CLIENTS)
            sent = []
            for n in range(args.repeats):
                chunk = jobs[n * per_run : (n + 1) * per_run]
                for kind in KINDS:
                    raws = _requests(host, seeded["event_id"], chunk, kind)
                    (step,) = offer(url, [(BURST, raws)], limit=CLIENTS, warm=CLIENTS, timeout=30)
                    figures.runs[kind].append(step)
                    if kind == "reports":
                        sent.append((chunk, step))
        figures.lost = sum(_lost(db, chunk, step) for chunk, step in sent)
        if args.profile:
            figures.profile = _profile(db, seeded, jobs[:per_run])
    return figures


def _profile(db: Any, seeded: dict[str, Any], jobs: list[Any]) -> Any:
    """A pass of no-op requests with the sampler on in each worker: the functions most often on a busy stack."""
    from taikai.bench._live import Server
    from taikai.bench._sampler import read_profiles

    out = Path(db.var_dir) / "profile"
    out.mkdir(exist_ok=True)
    os.environ["TAIKAI_BENCH_PROFILE"] = str(out)
    try:
        with Server(db, workers=2) as server:
            raws = _requests(f"127.0.0.1:{server.port}", seeded["event_id"], jobs * 3, "no-op")
            offer(server.url, [(BURST, raws)], limit=CLIENTS, warm=CLIENTS, timeout=30)
    finally:
        del os.environ["TAIKAI_BENCH_PROFILE"]
    return read_profiles(out)


def _print(results: list[Figures], args: argparse.Namespace) -> None:
    print(
        f"### Result reports against the same server's no-op and bare ASGI ({CLIENTS} connections, each sending "
        f"when answered; median of {args.repeats} interleaved runs; `taikai serve --workers 2`; "
        f"load average {os.getloadavg()[0]:.1f})\n"
    )
    print(
        "| database | bare ASGI/s | no-op authenticated POST/s | result reports/s | reports ÷ no-op | target "
        "| no-op ÷ bare | reports answered 200 | lost | measuring sticks answered 200 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for f in results:
        bare, noop, reports = (f.rate(k) for k in KINDS)
        ok, sent = f.ok("reports")
        ratio = reports / noop if noop else float("nan")
        sticks = all(
            f.ok(kind)[0] == f.ok(kind)[1] for kind in KINDS[:2]
        )  # a stick that did not answer 200 is no stick
        met = ratio >= TARGET and f.lost == 0 and ok == sent and sticks
        print(
            f"| {f.vendor} | {bare:.0f} | {noop:.0f} | {reports:.0f} | {ratio:.2f} | ≥ {TARGET:g}, none lost "
            f"{'✅' if met else '❌'} | {noop / bare if bare else float('nan'):.2f} | {ok}/{sent} "
            f"| {f.lost} | {' · '.join(f'{k}: {f.ok(k)[0]}/{f.ok(k)[1]}' for k in KINDS[:2])} |"
        )
    for f in results:
        if f.profile is None or not f.profile.on_stack:
            continue
        print(
            f"\nWhere a no-op POST's time goes on {f.vendor} (a sampling profiler in both workers; shares of their "
            "busy wall-clock samples, waits and uvloop's own C left out): on the stack, and innermost (the function "
            "itself)\n"
        )
        print("| on the stack | share | innermost | share |\n|---|---|---|---|")
        for (outer, a), (inner, b) in zip(f.profile.on_stack, f.profile.innermost, strict=False):
            print(f"| `{outer}` | {a:.0%} | `{inner}` | {b:.0%} |")


def run(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m taikai.bench stack")
    parser.add_argument("--players", type=int, default=300, help="reports per run (each player reports once)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--db", default="sqlite,postgresql")
    parser.add_argument("--profile", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args(argv)
    from taikai.bench._databases import per_database

    os.environ["TAIKAI_BENCH_ENDPOINTS"] = "1"  # the servers started below mount the no-op and bare endpoints
    _print(per_database(args.db, lambda vendor: _bench(vendor, args)), args)


if __name__ == "__main__":
    run(sys.argv[1:])
