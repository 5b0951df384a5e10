"""The public pairings page under an open-loop load (issue 16): p99 at fixed offered rates.

``python -m taikai.bench openloop [--players 2048] [--seconds 3] [--rates 100,200,300,500,700,1000]
[--db sqlite,postgresql]`` seeds an event (round 1 paired and started: the page every player opens when a
round begins), then offers GET /e/<id>/pairings/ at each rate for ``--seconds`` after a warm-up, from one
asyncio client (taikai.bench._openloop) in this process to a 2-worker `taikai serve` on 127.0.0.1.
Latency runs from each request's due time, so a server that falls behind is seen falling behind.
The page is cached per process, so the number of requests matters more than its size: 2,048 players
(1,024 tables) by default, half the seeding time of 4,096.

The target: p99 < 100 ms at 500 req/s offered; the table says where p99 crosses 100 ms. A first table runs
the same client against a sink (a process that answers at once with a body of the page's size) at the
highest rate and twice it, to show the client alone can offer them.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from taikai.bench._openloop import Step, crossing, get, offer
from taikai.bench._sink import sink

TARGET_RATE = 500.0
TARGET_P99_MS = 100.0
TARGET_RATIO = 0.9  # PostgreSQL's crossing over SQLite's (issue 27)
GIVE_UP_P99_MS = 10 * TARGET_P99_MS  # past this the server is saturated: higher rates only queue longer
CONNECTIONS = 256
WARM = 64  # connections opened before a run, so the first rate does not pay for opening them


def _rates(text: str) -> list[float]:
    return sorted(float(x) for x in text.split(",") if x.strip())


def _client_check(rates: list[float], size: int, seconds: float) -> list[tuple[Step, float]]:
    """This client against a sink that answers at once with a body of the page's size: what the client alone
    can offer, with the share of a core it used meanwhile."""
    rows = []
    with sink(size) as url:
        host = url.removeprefix("http://")
        for rate in rates:
            cpu, wall = time.process_time(), time.perf_counter()
            (step,) = offer(url, [(rate, [get("/", host)] * int(rate * seconds))], limit=CONNECTIONS, warm=WARM)
            rows.append((step, (time.process_time() - cpu) / (time.perf_counter() - wall)))
    return rows


def _pairings(url: str, host: str, path: str, args: argparse.Namespace) -> list[Step]:
    page = get(path, host)
    # A burst first, so every thread of both workers has its database connection and the page cached.
    offer(url, [(10_000.0, [page] * WARM), (50.0, [page] * int(50 * args.warmup))], limit=CONNECTIONS, warm=WARM)
    steps = [(rate, [page] * int(rate * args.seconds)) for rate in _rates(args.rates)]
    return offer(url, steps, limit=CONNECTIONS, warm=WARM, stop=lambda step: step.latency_ms(99) > GIVE_UP_P99_MS)


def _bench_database(vendor: str, args: argparse.Namespace) -> dict[str, Any]:
    import httpx

    from taikai.bench._live import Server, database, seed
    from taikai.bench.event import PG_URL

    with (
        tempfile.TemporaryDirectory(prefix="taikai-bench-") as tmp,
        database(Path(tmp), PG_URL if vendor == "postgresql" else "") as db,
    ):
        seeded = seed(db, args.players, timeout=900)
        with Server(db, workers=2) as server:
            host = f"127.0.0.1:{server.port}"
            path = f"/e/{seeded['event_id']}/pairings/"
            size = len(httpx.get(server.url + path, timeout=30).content)
            steps = _pairings(server.url, host, path, args)
    skipped = _rates(args.rates)[len(steps) :]
    return {"vendor": vendor, "tables": len(seeded["matches"]), "size": size, "steps": steps, "skipped": skipped}


def _print_check(check: list[tuple[Step, float]], size: int, args: argparse.Namespace) -> None:
    print(
        f"### The load generator alone: against a sink answering {size / 1024:.0f} KB at once "
        f"({args.seconds:g} s per rate, up to {CONNECTIONS} connections; load average {os.getloadavg()[0]:.1f})\n"
    )
    print("| offered req/s | achieved req/s | p50 | p99 | client lag p99 | errors | client CPU |")
    print("|---|---|---|---|---|---|---|")
    for step, cpu in check:
        print(
            f"| {step.offered:.0f} | {step.achieved:.0f} | {step.latency_ms(50):.1f} ms "
            f"| {step.latency_ms(99):.1f} ms | {step.lag_ms(99):.1f} ms | {step.errors} | {cpu:.0%} of a core |"
        )
    print(
        "\n(client lag: how late this client wrote a request after its due time, waiting for its own loop or a "
        "free connection; latency counts it.)\n"
    )


def _print(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    first = rows[0] if rows else {"tables": 0, "size": 0}
    print(
        f"### Pairings page, open loop ({args.players} players: {first['tables']} tables, "
        f"{first['size'] / 1024:.0f} KB; {args.seconds:g} s per rate after a {args.warmup:g} s warm-up; "
        f"load average {os.getloadavg()[0]:.1f})\n"
    )
    print("| database | offered req/s | achieved req/s | p50 | p99 | client lag p99 | errors | target |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        for step in r["steps"]:
            target = ""
            if step.offered == TARGET_RATE:
                met = step.latency_ms(99) < TARGET_P99_MS and step.errors == 0
                target = f"p99 < {TARGET_P99_MS:.0f} ms {'✅' if met else '❌'}"
            print(
                f"| {r['vendor']} | {step.offered:.0f} | {step.achieved:.0f} | {step.latency_ms(50):.0f} ms "
                f"| {step.latency_ms(99):.0f} ms | {step.lag_ms(99):.0f} ms | {step.errors} | {target} |"
            )
        for rate in r["skipped"]:
            target = f"p99 < {TARGET_P99_MS:.0f} ms ❌" if rate == TARGET_RATE else ""
            skipped = f"not run: p99 over {GIVE_UP_P99_MS:.0f} ms at a lower rate"
            print(f"| {r['vendor']} | {rate:.0f} | {skipped} | | | | | {target} |")
    print()
    crossed = {}
    for r in rows:
        points = [(s.offered, s.latency_ms(99)) for s in r["steps"]]
        crossed[r["vendor"]] = crossing(points, TARGET_P99_MS)
        print(f"- {r['vendor']}: where p99 passes {TARGET_P99_MS:.0f} ms: {crossed[r['vendor']].describe()}")
    _print_ratio(crossed)


def _print_ratio(crossed: dict[str, Any]) -> None:
    """Issue 27: PostgreSQL's crossing over SQLite's, in the same run (≥ 0.9: the database server costs little)."""
    pg, lite = crossed.get("postgresql"), crossed.get("sqlite")
    if pg is None or lite is None:
        return
    if pg.estimate is None or lite.estimate is None:
        print(f"- PostgreSQL ÷ SQLite: not computed (a crossing outside the rates run; target ≥ {TARGET_RATIO:g})")
        return
    ratio = pg.estimate / lite.estimate
    print(
        f"- PostgreSQL ÷ SQLite, where p99 passes {TARGET_P99_MS:.0f} ms: {pg.estimate:.0f} / {lite.estimate:.0f} "
        f"= {ratio:.2f} (target ≥ {TARGET_RATIO:g} {'✅' if ratio >= TARGET_RATIO else '❌'})"
    )


def run(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m taikai.bench openloop")
    parser.add_argument("--players", type=int, default=2048, help="checked in, all paired in round 1")
    parser.add_argument("--seconds", type=float, default=3.0, help="per offered rate")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--rates", default="100,200,300,500,700,1000")
    parser.add_argument("--db", default="sqlite,postgresql")
    args = parser.parse_args(argv)
    from taikai.bench._databases import per_database

    rows = per_database(args.db, lambda vendor: _bench_database(vendor, args))
    if rows:
        top = max(_rates(args.rates))
        _print_check(_client_check([top, 2 * top], rows[0]["size"], args.seconds), rows[0]["size"], args)
    _print(rows, args)


if __name__ == "__main__":
    import sys

    run(sys.argv[1:])
