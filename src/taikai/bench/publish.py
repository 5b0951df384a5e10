"""A round published → every open player page shows its new table (issue 27): p99 ≤ 2 s, none missed.

``python -m taikai.bench publish [--pages 2048] [--runs 1] [--db sqlite,postgresql] [--deadline 30]
[--workers N]`` seeds an event with ``--pages`` checked-in players (round 1 paired), decides round 1 through the
services, and starts `taikai serve` with its usual workers (one per core, 2 to 4). Then, per run: every player's
own page (``/p/<token>/``) is loaded and follows the event stream as ``live.js`` does (taikai.bench._pages: one
asyncio process, one loopback address per phone); the organizer's "pair the next round" (the service the
console's button calls, ``pair_next_round``, in a process of its own with the database's settings) publishes
the next round; each page is timed from that call's return (the round committed) until its refreshed page
shows its table of the new round. A page that does not within ``--deadline`` seconds is missed. Between runs
the round's results are entered (pages closed meanwhile) and the next run publishes the round after.

The server's connection cap is set for the bench: ``TAIKAI_MAX_CONNECTIONS`` defaults to 1,000 open connections
per web process, and 2,048 pages hold 2,048 streams and, while they refresh, as many fetches; across 2 web
processes that is over the default (a page refused a stream or a fetch would be missed). The bench sets it to
twice the pages (the kernel does not share connections evenly between the processes), and says so under the table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taikai.bench._machine import load_line
from taikai.bench._pages import Page, Pages, address
from taikai.bench._publish_organizer import RESULTS_APART, Organizer
from taikai.bench._sampler import Profile, read_profiles

TARGET_P99 = 2.0  # seconds from the round's publication to its table on every open page
DEADLINE = 30.0  # seconds: a page that has not shown its new table by then is missed
SERVE_WORKERS = min(4, max(2, os.cpu_count() or 2))  # `taikai serve`'s own default (taikai.cli.serve)
RESULTS = 8  # results entered with the pages open, after the publication: each should refresh two pages only
OPEN_AT_ONCE = 64  # pages loaded, and streams opened, at the same time (phones arrive over minutes at a venue)


# --- one run -------------------------------------------------------------------------------------------------


@dataclass
class Run:
    round: int
    call: float  # seconds the pairing call took
    shown: list[float]  # per page that showed its new table (the stream's seats, or its refresh): seconds from
    # the call's return
    delays: list[float]  # per page whose refreshed page followed: seconds from the call's return
    seated: int  # pages that showed it from the stream's message (seat.js), before their refresh
    missed: int  # pages that never showed their new table
    unfollowed: int  # pages whose refresh never brought the new round
    wrong: int  # pages that showed a table the round does not have for them
    fetches: int
    clock_fetches: int  # clock.js's polls (after each refresh, on clock messages, once a minute)
    failed: int
    drops: int
    unopened: int  # streams not open when the round was published (refused, waiting to try again)
    refused: int  # first page loads refused (opened again a second later)
    client_cpu: float  # share of one core, this process, from the call to the last page (or the deadline)
    server_cpu: float  # the same for the server's processes
    extra: dict[str, float] = field(default_factory=dict)

    def quantile(self, q: float, followed: bool = False) -> float:
        """Over every page (the table shown, or with ``followed`` the page refreshed): a missed one counts as
        longer than any seen (infinite)."""
        seen, missed = (self.delays, self.unfollowed) if followed else (self.shown, self.missed)
        ordered = sorted(seen) + [float("inf")] * missed
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("inf")


async def _open(pages: Pages) -> None:
    gate = asyncio.Semaphore(OPEN_AT_ONCE)

    async def one(page: Page) -> None:
        async with gate:
            await pages.load(page)
            pages.follow(page)
            with contextlib.suppress(TimeoutError):  # counted: a stream not open when the round is published
                await asyncio.wait_for(page.connected.wait(), 15)

    await asyncio.gather(*(one(p) for p in pages.pages))


def _wrong(pages: Pages, tables: dict[str, int], seats: dict[str, int]) -> int:
    """Pages that showed a match not in the new round, or another table than the match's, or a match that more
    than its two players' pages showed; or whose stream message seated the player at another table."""
    shown: dict[str, int] = {}
    wrong = sum(p.seat is not None and seats.get(str(p.player)) != p.seat[1] for p in pages.pages)
    for page in pages.pages:
        if page.seen_at is None or page.shown is None:
            continue
        match, table = str(page.shown[1]), page.shown[2]
        wrong += tables.get(match) != table
        shown[match] = shown.get(match, 0) + 1
    return wrong + sum(max(0, n - 2) for n in shown.values())


async def one_run(pages: Pages, organizer: Organizer, server_pid: int, deadline: float) -> Run:
    from taikai.bench._breakdown import cpu_of_group

    await _open(pages)
    await asyncio.sleep(1.0)
    while pages.busy():  # quiet: what the streams said before the round is published is not its refresh
        await asyncio.sleep(0.5)
    await asyncio.sleep(1.0)
    pages.reset_counts()
    pages.want = pages.pages[0].shown[0] + 1 if pages.pages[0].shown else 1
    unopened = sum(not p.connected.is_set() for p in pages.pages)
    cpu0, server0, wall0 = time.process_time(), cpu_of_group(server_pid), time.monotonic()
    paired = await organizer.ask("pair")
    assert paired["round"] == pages.want, paired["round"]
    returned = paired["returned"]
    while time.monotonic() < returned + deadline and any(p.seen_at is None for p in pages.pages):
        await asyncio.sleep(0.05)
    wall = time.monotonic() - wall0
    client_cpu, server_cpu = (time.process_time() - cpu0) / wall, (cpu_of_group(server_pid) - server0) / wall
    fetches, failed = sum(p.fetches for p in pages.pages), sum(p.failed for p in pages.pages)
    clock_fetches = sum(p.clock_fetches for p in pages.pages)
    extra = await _results_at_tables(pages, organizer, server_pid)
    await pages.close()
    seen = [p.seen_at - returned for p in pages.pages if p.seen_at is not None]
    shown = [
        min(t for t in (p.seated_at, p.seen_at) if t is not None) - returned
        for p in pages.pages
        if p.seated_at or p.seen_at
    ]
    return Run(
        round=paired["round"],
        call=returned - paired["called"],
        shown=shown,
        delays=seen,
        seated=sum(p.seated_at is not None for p in pages.pages),
        missed=len(pages.pages) - len(shown),
        unfollowed=len(pages.pages) - len(seen),
        wrong=_wrong(pages, paired["tables"], paired["seats"]),
        fetches=fetches,
        clock_fetches=clock_fetches,
        failed=failed,
        drops=sum(p.drops for p in pages.pages),
        unopened=unopened,
        refused=sum(p.refused for p in pages.pages),
        client_cpu=client_cpu,
        server_cpu=server_cpu,
        extra=extra,
    )


async def _results_at_tables(pages: Pages, organizer: Organizer, server_pid: int) -> dict[str, float]:
    """``RESULTS`` tables' results entered one by one while every page is open: the page fetches they caused
    (each result's two players' pages, as live.js reads only its own tables' results) and the server's CPU."""
    from taikai.bench._breakdown import cpu_of_group

    await organizer.ask("start")  # a round's start refreshes every page: before the count begins
    await asyncio.sleep(1.0)
    await _quiet(pages)
    pages.reset_counts()
    server0, wall0 = cpu_of_group(server_pid), time.monotonic()
    await organizer.ask(f"report {RESULTS}")
    await asyncio.sleep(1.0)
    await _quiet(pages)
    wall = time.monotonic() - wall0
    fetches = sum(p.fetches for p in pages.pages)
    server_cpu = (cpu_of_group(server_pid) - server0) / wall
    return {"results": RESULTS, "result_fetches": fetches, "result_server_cpu": server_cpu}


async def _quiet(pages: Pages) -> None:
    while pages.busy():
        await asyncio.sleep(0.2)


async def _runs(db: Any, seeded: dict[str, Any], port: int, pid: int, args: argparse.Namespace) -> list[Run]:
    tokens = [t for m in seeded["matches"] for t in (m["a_token"], m["b_token"])]
    organizer = await Organizer.start(db.env(), seeded["event_id"])
    runs = []
    try:
        for _ in range(args.runs):
            await organizer.ask("decide")  # the round before is over: every result in
            phones = Pages("127.0.0.1", port, seeded["event_id"], [Page(t, address(i)) for i, t in enumerate(tokens)])
            runs.append(r := await one_run(phones, organizer, pid, args.deadline))
            print(f"  round {r.round}: p99 {r.quantile(0.99):.2f} s, missed {r.missed}", flush=True)
    finally:
        await organizer.stop()
    return runs


def _bench_database(vendor: str, args: argparse.Namespace) -> tuple[str, list[Run]]:
    from taikai.bench._live import Server, database, seed
    from taikai.bench.event import PG_URL
    from taikai.bench.follow import Side

    with (
        tempfile.TemporaryDirectory(prefix="taikai-bench-") as tmp,
        database(Path(tmp), PG_URL if vendor == "postgresql" else "") as plain,
    ):
        cap = args.max_connections if args.max_connections is not None else max_connections(args.pages)
        db = Side(plain.var_dir, plain.url, {"TAIKAI_MAX_CONNECTIONS": str(cap)} if cap else {})
        seeded = seed(db, args.pages, timeout=1800)
        print(f"{vendor}: {args.pages} players seeded", flush=True)
        out = db.var_dir / "profile"
        if args.profile:  # the sampler in each web process (taikai.bench._sampler), from its start to its stop
            out.mkdir()
            db.extra.update(TAIKAI_BENCH_ENDPOINTS="1", TAIKAI_BENCH_PROFILE=str(out))
        with Server(db, workers=args.workers) as server:
            runs = asyncio.run(_runs(db, seeded, server.port, server.pid, args))
        if args.profile:
            _print_profile(vendor, read_profiles(out, top=30))
        return vendor, runs


def max_connections(pages: int) -> int:
    """The bench server's TAIKAI_MAX_CONNECTIONS: each page's stream and its fetch, all on one process at worst."""
    return max(1000, 2 * pages + 64)


# --- the table -----------------------------------------------------------------------------------------------


def _secs(value: float, deadline: float) -> str:
    return f"{value:.2f} s" if value != float("inf") else f"> {deadline:.0f} s"


def _row(vendor: str, r: Run, deadline: float) -> str:
    met = r.quantile(0.99) <= TARGET_P99 and r.missed == 0 and r.unfollowed == 0 and r.wrong == 0
    p50, p99, top = (_secs(r.quantile(q), deadline) for q in (0.5, 0.99, 1.0))
    f99, ftop = (_secs(r.quantile(q, followed=True), deadline) for q in (0.99, 1.0))
    return (
        f"| {vendor} | {r.round} | {r.call:.2f} s | {r.seated} | {p50} | {p99} | {top} | {r.missed} | {r.wrong} "
        f"| {f99} | {ftop} | {r.unfollowed} "
        f"| {r.fetches} ({r.failed}) | {r.clock_fetches} | {r.drops} ({r.unopened}) | {r.refused} "
        f"| {r.client_cpu:.0%} | {r.server_cpu:.0%} "
        f"| p99 ≤ {TARGET_P99:.0f} s, none missed, every page followed {'✅' if met else '❌'} |"
    )


def _print_profile(vendor: str, profile: Profile) -> None:
    print(
        f"\nWhere the server's time went on {vendor} (the sampler in every web process, the pages' first loads"
        " included: the same view; shares of busy wall-clock samples): on the stack, and innermost\n"
    )
    print("| on the stack | share | innermost | share |\n|---|---|---|---|")
    for (outer, a), (inner, b) in zip(profile.on_stack, profile.innermost, strict=False):
        print(f"| `{outer}` | {a:.0%} | `{inner}` | {b:.0%} |")
    print(flush=True)


def _cap_words(args: argparse.Namespace) -> str:
    cap = args.max_connections if args.max_connections is not None else max_connections(args.pages)
    if not cap:
        return "The bench server runs with the default TAIKAI_MAX_CONNECTIONS (1,000 per web process)."
    return (
        f"The bench server runs with TAIKAI_MAX_CONNECTIONS={cap} (default 1,000 per web process, under what"
        f" {args.pages} streams and their fetches hold across {args.workers} processes)."
    )


def _print(rows: list[tuple[str, list[Run]]], args: argparse.Namespace) -> None:
    print(
        f"\n### Round published → every open player page shows its new table ({args.pages} pages on the event"
        f" stream, {args.workers} web processes)\n"
    )
    print(
        f"| database | round | pairing call | seated by the message | table shown p50 | p99 | max "
        f"| missed (> {args.deadline:.0f} s) "
        "| wrong table | page followed p99 | max | not followed | page fetches (failed) | clock fetches "
        "| streams dropped (not open) | loads refused | client CPU | server CPU | target |"
    )
    print("|---" * 19 + "|")
    for vendor, runs in rows:
        for r in runs:
            print(_row(vendor, r, args.deadline))
        if len(runs) > 1:
            p99 = statistics.median(r.quantile(0.99) for r in runs)
            print(f"| {vendor} | median of {len(runs)} | | | | {_secs(p99, args.deadline)} |" + " |" * 13)
    print(
        "\nTimed from the pairing call's return (the round committed). Table shown: until the page shows its table"
        " of the new round, from the stream's pairing message (its seats, as seat.js reads them) or else from its"
        " refresh; that includes the stream's poll (every 0.25 s). Page followed: until the page's refreshed answer"
        " shows the new round (opponent, clock, report form), which a seated page fetches at a moment of its own"
        " within the message's spread (taikai.events.seating). Clock fetches: clock.js's polls over the same span."
        " CPU: share of one core over the same span (client: this process, all pages)."
        f" {_cap_words(args)}"
    )
    print(
        f"\nThen, pages still open, {RESULTS} tables' results are entered one by one, {RESULTS_APART:g} s apart: a page"
        " refreshes for its own table's result only (live.js reads the tables it lists), so each result should"
        " cost two fetches, not one per open page.\n"
    )
    print("| database | round | results | page fetches | per result | server CPU |\n|---|---|---|---|---|---|")
    for vendor, runs in rows:
        for r in runs:
            got = r.extra.get("result_fetches", 0)
            print(
                f"| {vendor} | {r.round} | {r.extra.get('results', 0):.0f} | {got:.0f} "
                f"| {got / max(1, r.extra.get('results', 0)):.1f} | {r.extra.get('result_server_cpu', 0):.0%} |"
            )
    print(f"\n{load_line()}")


def run(argv: list[str]) -> None:
    from taikai.bench._databases import per_database

    parser = argparse.ArgumentParser(prog="python -m taikai.bench publish")
    parser.add_argument("--pages", type=int, default=2048, help="players, each with their page open (even)")
    parser.add_argument("--runs", type=int, default=1, help="rounds published one after another")
    parser.add_argument("--db", default="sqlite,postgresql")
    parser.add_argument("--deadline", type=float, default=DEADLINE)
    parser.add_argument("--workers", type=int, default=SERVE_WORKERS)
    parser.add_argument(
        "--max-connections", type=int, default=None, help="the server's TAIKAI_MAX_CONNECTIONS (0: its default)"
    )
    parser.add_argument("--profile", action="store_true", help="sample the server's stacks (taikai.bench._sampler)")
    args = parser.parse_args(argv)
    if args.pages % 2:
        parser.error("--pages must be even: every page has a table (no bye)")
    _print(per_database(args.db, lambda vendor: _bench_database(vendor, args)), args)


if __name__ == "__main__":
    run(sys.argv[1:])
