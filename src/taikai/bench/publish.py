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
import json
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
from taikai.bench._sampler import Profile, read_profiles

TARGET_P99 = 2.0  # seconds from the round's publication to its table on every open page
DEADLINE = 30.0  # seconds: a page that has not shown its new table by then is missed
SERVE_WORKERS = min(4, max(2, os.cpu_count() or 2))  # `taikai serve`'s own default (taikai.cli.serve)
RESULTS = 8  # results entered with the pages open, after the publication: each should refresh two pages only
RESULTS_APART = 0.5  # seconds between them: more than live.js's debounce, so each is a refresh of its own
OPEN_AT_ONCE = 64  # pages loaded, and streams opened, at the same time (phones arrive over minutes at a venue)


# --- the organizer, in the database's environment -----------------------------------------------------------


def _organizer(event_id: int) -> None:
    """Commands on stdin, one JSON line per answer: ``decide`` enters every open table's result, ``pair``
    pairs the next round (timed: monotonic clock, shared by the processes of this machine)."""
    import random
    from contextlib import redirect_stdout

    from taikai.server import prepare

    with redirect_stdout(sys.stderr):
        prepare()
    from django.contrib.auth import get_user_model

    from taikai.events.actors import Staff
    from taikai.events.models import Event, Match
    from taikai.events.services import clock as clock_services
    from taikai.events.services import results as result_services
    from taikai.events.services import rounds as round_services
    from taikai.events.services.result_input import ResultInput

    organizer = Staff(get_user_model().objects.filter(is_superuser=True).order_by("id").first())
    rng = random.Random(event_id)
    outcomes = [ResultInput(({"winner": "A"}, {"winner": "A"})), ResultInput(({"winner": "B"}, {"winner": "B"}))]
    event = Event.objects.get(pk=event_id)
    for line in sys.stdin:
        if line.strip() == "decide":
            rnd = event.rounds.order_by("-number").get(number=event.rounds.count())
            if rnd.started_at is None:
                clock_services.start_round(rnd, by=organizer)  # the organizer's "start" of the round published
            tables = rnd.matches.filter(is_bye=False).exclude(status=Match.Status.CONFIRMED)
            for m in tables.select_related("round__event", "player_a", "player_b"):
                result_services.enter_result(m, by=organizer, result=rng.choice(outcomes))
            answer: dict[str, Any] = {"round": rnd.number}
        elif line.strip() == "start":  # the round published starts (every page follows its clock)
            rnd = event.rounds.order_by("-number").get(number=event.rounds.count())
            clock_services.start_round(rnd, by=organizer)
            answer = {"round": rnd.number}
        elif line.startswith("report"):  # "report N": N tables' results, one at a time, apart (not one burst)
            rnd = event.rounds.order_by("-number").get(number=event.rounds.count())
            tables = rnd.matches.filter(is_bye=False, status=Match.Status.PENDING).order_by("table")
            for m in tables.select_related("round__event", "player_a", "player_b")[: int(line.split()[1])]:
                result_services.enter_result(m, by=organizer, result=rng.choice(outcomes))
                time.sleep(RESULTS_APART)
            answer = {"round": rnd.number}
        else:
            t0 = time.monotonic()
            rnd = round_services.pair_next_round(event, by=organizer)
            t1 = time.monotonic()
            paired = {str(m.pk): m.table for m in rnd.matches.filter(is_bye=False)}
            answer = {"round": rnd.number, "called": t0, "returned": t1, "tables": paired}
        print(json.dumps(answer), flush=True)


class Organizer:
    """The organizer's process, driven from the bench's event loop."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, env: dict[str, str], event_id: int) -> Organizer:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "taikai.bench.publish", "--organizer", str(event_id), env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        return cls(proc)

    async def ask(self, command: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{command}\n".encode())
        await self.proc.stdin.drain()
        line = await self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the organizer's process ended ({command})")
        return dict(json.loads(line))

    async def stop(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        await self.proc.wait()


# --- one run -------------------------------------------------------------------------------------------------


@dataclass
class Run:
    round: int
    call: float  # seconds the pairing call took
    delays: list[float]  # per page that saw it: seconds from the call's return
    told: list[float]  # per page whose stream said so: seconds from the call's return to the message
    missed: int
    wrong: int  # pages that showed a table the round does not have for them
    fetches: int
    failed: int
    drops: int
    unopened: int  # streams not open when the round was published (refused, waiting to try again)
    refused: int  # first page loads refused (opened again a second later)
    client_cpu: float  # share of one core, this process, from the call to the last page (or the deadline)
    server_cpu: float  # the same for the server's processes
    extra: dict[str, float] = field(default_factory=dict)

    def quantile(self, q: float) -> float:
        """Over every page: a missed one counts as longer than any seen (infinite)."""
        ordered = sorted(self.delays) + [float("inf")] * self.missed
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


def _wrong(pages: Pages, tables: dict[str, int]) -> int:
    """Pages that showed a match not in the new round, or another table than the match's, or a match that more
    than its two players' pages showed."""
    shown: dict[str, int] = {}
    wrong = 0
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
    extra = await _results_at_tables(pages, organizer, server_pid)
    await pages.close()
    seen = [p.seen_at - returned for p in pages.pages if p.seen_at is not None]
    return Run(
        round=paired["round"],
        call=returned - paired["called"],
        delays=seen,
        told=sorted(p.told_at - returned for p in pages.pages if p.told_at is not None),
        missed=len(pages.pages) - len(seen),
        wrong=_wrong(pages, paired["tables"]),
        fetches=fetches,
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
    met = r.quantile(0.99) <= TARGET_P99 and r.missed == 0 and r.wrong == 0
    p50, p99, top = (_secs(r.quantile(q), deadline) for q in (0.5, 0.99, 1.0))
    return (
        f"| {vendor} | {r.round} | {r.call:.2f} s | {p50} | {p99} | {top} | {r.missed} | {r.wrong} "
        f"| {_secs(r.told[int(len(r.told) * 0.99)] if r.told else float('inf'), deadline)} "
        f"| {r.fetches} ({r.failed}) | {r.drops} ({r.unopened}) | {r.refused} "
        f"| {r.client_cpu:.0%} | {r.server_cpu:.0%} "
        f"| p99 ≤ {TARGET_P99:.0f} s, none missed {'✅' if met else '❌'} |"
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
        f"| database | round | pairing call | p50 | p99 | max | missed (> {args.deadline:.0f} s) | wrong table "
        "| stream message p99 | fetches (failed) | streams dropped (not open) | loads refused | client CPU "
        "| server CPU | target |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for vendor, runs in rows:
        for r in runs:
            print(_row(vendor, r, args.deadline))
        if len(runs) > 1:
            p99 = statistics.median(r.quantile(0.99) for r in runs)
            print(f"| {vendor} | median of {len(runs)} | | | {_secs(p99, args.deadline)} | | | | | | | | | | |")
    print(
        "\nTimed from the pairing call's return (the round committed) to the page's refreshed answer showing its"
        " table of the new round; that includes the stream's poll (every 0.25 s) and live.js's 300 ms debounce."
        " Stream message: from the same return to the page's stream saying so (the fetch follows 300 ms later)."
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
    if len(sys.argv) == 3 and sys.argv[1] == "--organizer":
        _organizer(int(sys.argv[2]))
    else:
        run(sys.argv[1:])
