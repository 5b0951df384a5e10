"""A whole simulated event through the services, then its public pages and result reports under load.

``python -m taikai.bench event [--players 4096] [--rounds 12] [--cut 64] [--db sqlite,postgresql]
[--seconds 8] [--reports 2000]`` prints a markdown table with the targets of issues 8 and 16. Each database gets its
own fresh store (a SQLite file in a temporary directory, or a new PostgreSQL database that is dropped after);
the load comes from this process's threads to a `taikai serve` subprocess on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from taikai.bench._machine import load_line
from taikai.bench.pairing import core_event

PG_URL = os.environ.get("TAIKAI_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/taikai")
TARGETS = {
    "event_s": 60.0,  # the whole 4,096-player event on SQLite (issue 16)
    "event_ratio": 15.0,  # the event through the services ÷ the same event in pure core (issue 27)
    "pairings_rps": 500.0,  # at 200 clients, with p99 under 100 ms
    "p99_ms": 100.0,
    "reports_per_s": 300.0,
}


def _simulate(players: int, rounds: int, cut: int) -> dict[str, Any]:
    """Runs inside the database's environment: registration, Swiss rounds and the cut, all via services."""
    import datetime as dt
    import random
    from contextlib import redirect_stdout

    from taikai.server import prepare

    with redirect_stdout(sys.stderr):
        prepare()
    from django.contrib.auth import get_user_model

    from taikai.core.progress import NextAction
    from taikai.events.models import Event
    from taikai.events.services import events as event_services
    from taikai.events.services import registration
    from taikai.events.services import results as result_services
    from taikai.events.services import rounds as round_services
    from taikai.events.services.progress import plan
    from taikai.events.services.result_input import ResultInput
    from taikai.events.services.standings import standings_for

    rng = random.Random(4096)
    outcomes = [ResultInput(({"winner": "A"}, {"winner": "A"})), ResultInput(({"winner": "B"}, {"winner": "B"}))]
    from taikai.events.actors import Staff

    organizer = Staff(get_user_model().objects.filter(is_superuser=True).order_by("id").first())
    t_start = time.perf_counter()
    event = event_services.create_event(
        by=organizer,
        name=f"{players}人 ベンチマーク大会",
        date=dt.date.today(),
        ruleset_name="harajuku-cs-1.2",
        format=Event.Format.SWISS_CUT,
        swiss_rounds=rounds,
        top_cut=cut,
    )
    for i in range(players):
        p = registration.register_player(event, by=organizer, name=f"選手 {i:05d}", card_game_id=f"{i:010d}")
        registration.check_in(p, by=organizer)  # REG-3: only checked-in players are paired
    t_registered = time.perf_counter()
    per_round = []
    while plan(event).next_action != NextAction.FINISHED:
        t0 = time.perf_counter()
        rnd = round_services.pair_next_round(event, by=organizer)
        t1 = time.perf_counter()
        for m in rnd.matches.filter(is_bye=False).select_related("round__event", "player_a", "player_b"):
            result_services.enter_result(m, by=organizer, result=rng.choice(outcomes))
        t2 = time.perf_counter()
        standings_for(event)
        t3 = time.perf_counter()
        per_round.append(
            {"number": rnd.number, "stage": rnd.stage, "pair": t1 - t0, "results": t2 - t1, "standings": t3 - t2}
        )
    return {
        "event_id": event.pk,
        "register_s": t_registered - t_start,
        "total_s": time.perf_counter() - t_start,
        "rounds": per_round,
    }


def _run_simulation(db: Any, players: int, rounds: int, cut: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "taikai.bench.event", "--simulate", f"{players},{rounds},{cut}"],
        env=db.env(),
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-3000:])
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _bench_database(vendor: str, args: argparse.Namespace) -> dict[str, Any]:
    import httpx

    from taikai.bench._breakdown import cpu_of_group, postgres_seconds, postgres_ticks
    from taikai.bench._live import Server, database, seed
    from taikai.bench._load import get_load
    from taikai.bench._reports import report_jobs, send_reports_fast

    with (
        tempfile.TemporaryDirectory(prefix="taikai-bench-") as tmp,
        database(Path(tmp), PG_URL if vendor == "postgresql" else "") as db,
    ):
        core = core_event(args.players, args.rounds, 1)  # the limit, measured beside the figure
        sim = _run_simulation(db, args.players, args.rounds, args.cut)
        print(f"{vendor}: simulated event {sim['total_s']:.1f} s (registration {sim['register_s']:.1f} s)", flush=True)
        row: dict[str, Any] = {"vendor": vendor, "sim": sim, "core": core, "load": {}}
        # a second event, round 1 open: the report stream (each of its players reports once)
        seeded = seed(db, args.reports)
        with Server(db, workers=2) as server:
            eid = sim["event_id"]
            for page in ("pairings", "standings"):
                url = f"{server.url}/e/{eid}/{page}/"
                httpx.get(url, timeout=120)  # warm up: the first render of a 4,096-player page takes seconds
                for clients in (50, 200):
                    row["load"][(page, clients)] = get_load(url, clients, args.seconds)
            jobs = report_jobs(seeded)
            assert server.proc is not None
            cpu_before, pg_before = cpu_of_group(server.proc.pid), postgres_ticks()
            statuses, elapsed = send_reports_fast(server.url, seeded["event_id"], jobs, clients=50)
            server_cpu = cpu_of_group(server.proc.pid) - cpu_before
            pg_cpu = postgres_seconds(pg_before, postgres_ticks()) if vendor == "postgresql" else 0.0
        ids = ",".join(m["id"] for m in seeded["matches"])
        confirmed = db.query(f"SELECT COUNT(*) FROM events_match WHERE status='confirmed' AND id IN ({ids})")[0][0]
        ok = statuses.count(200)
        row["reports"] = {
            "sent": len(jobs),
            "ok": ok,
            "per_s": len(jobs) / elapsed,
            "lost": len(seeded["matches"]) - confirmed,
            "server_cpu_ms": server_cpu / len(jobs) * 1000,
            "postgres_cpu_ms": pg_cpu / len(jobs) * 1000,
        }
        row["breakdown"] = _breakdown(db)
        return row


def _breakdown(db: Any) -> dict[str, Any]:
    """A third event, measured inside Django (taikai.bench._breakdown): statements and CPU per report."""
    out = subprocess.run(
        [sys.executable, "-m", "taikai.bench._breakdown", "--players", "200"],
        env=db.env(),
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-3000:])
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _kinds(counts: dict[str, int]) -> str:
    return f"{sum(counts.values())} ({', '.join(f'{n} {kind}' for kind, n in counts.items())})"


def _fmt_ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _print(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    _print_event(rows, args)
    print(f"\n{load_line()}")
    _print_page_loads(rows, args)
    _print_reports(rows)
    _print_report_costs(rows)
    print(f"\n{load_line()}")


def _print_event(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """The whole event through the services against the same event in pure core."""
    print(f"### {args.players}-player event: {args.rounds} Swiss rounds + top {args.cut} (through the services)\n")
    print(
        "÷ core: the whole event through the services ÷ the same players and Swiss rounds in pure core (pairing, "
        "results, final standings; `taikai.bench.pairing`), measured in this run just before each database's "
        "event; the services' figure also holds registration, check-in, the top cut and the standings of every "
        "round.\n"
    )
    print(
        "| database | whole event | core event | ÷ core | target | registration | pairing / Swiss round "
        "(median, max) | results / round (median) | standings / round (median, max) | ÷ core standings |"
    )
    print("|---|---|---|---:|---|---|---|---|---|---:|")
    for r in rows:
        sim, core = r["sim"], r["core"]
        swiss = [x for x in sim["rounds"] if x["stage"] == "swiss"]
        pair = [x["pair"] for x in swiss]
        res = [x["results"] for x in swiss]
        st = [x["standings"] for x in swiss]
        ratio = sim["total_s"] / core["event_s"]
        met = "ok" if ratio <= TARGETS["event_ratio"] else "**over**"
        print(
            f"| {r['vendor']} | {sim['total_s']:.1f} s | {core['event_s']:.1f} s | {ratio:.1f}× "
            f"| ≤ {TARGETS['event_ratio']:.0f}× {met} | {sim['register_s']:.1f} s "
            f"| {_fmt_ms(statistics.median(pair))}, {_fmt_ms(max(pair))} | {statistics.median(res):.1f} s "
            f"| {_fmt_ms(statistics.median(st))}, {_fmt_ms(max(st))} "
            f"| {statistics.median(st) * 1000 / core['standings_ms']:.1f}× |"
        )


def _print_page_loads(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print(f"\n### Public pages under load ({args.seconds:.0f} s per cell, closed loop from a separate process)\n")
    print("| database | page | clients | requests/s | p50 | p99 | errors | target |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        for (page, clients), load in r["load"].items():
            target = ""
            if page == "pairings" and clients == 200:
                met = load.rate >= TARGETS["pairings_rps"] and load.p99_ms < TARGETS["p99_ms"]
                target = f"≥ 500 req/s, p99 < 100 ms {'✅' if met else '❌'}"
            print(
                f"| {r['vendor']} | {page} | {clients} | {load.rate:.1f} | {load.p50_ms:.0f} ms "
                f"| {load.p99_ms:.0f} ms | {load.errors} | {target} |"
            )


def _print_reports(rows: list[dict[str, Any]]) -> None:
    print("\n### Result reports (API, 50 keep-alive connections from one asyncio client)\n")
    print("| database | reports | answered 200 | reports/s | matches lost | target |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        rep = r["reports"]
        met = rep["per_s"] >= TARGETS["reports_per_s"] and rep["lost"] == 0
        print(
            f"| {r['vendor']} | {rep['sent']} | {rep['ok']} | {rep['per_s']:.0f} | {rep['lost']} "
            f"| ≥ 300/s, none lost {'✅' if met else '❌'} |"
        )


def _print_report_costs(rows: list[dict[str, Any]]) -> None:
    print("\n### Where a report's time goes (CPU per report; statements of one report and one confirmation)\n")
    print(
        "| database | server CPU (live, 2 workers) | of it in Django: view, services, ORM, driver (in-process) "
        "| HTTP stack and threads (the rest) | PostgreSQL server CPU | statements: report | confirmation |"
    )
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        rep, b = r["reports"], r["breakdown"]
        rest = rep["server_cpu_ms"] - b["cpu_ms"]
        pg = f"{rep['postgres_cpu_ms']:.1f} ms" if r["vendor"] == "postgresql" else "—"
        print(
            f"| {r['vendor']} | {rep['server_cpu_ms']:.1f} ms | {b['cpu_ms']:.1f} ms | {rest:.1f} ms | {pg} "
            f"| {_kinds(b['report'])} | {_kinds(b['confirmation'])} |"
        )


def run(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m taikai.bench event")
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--cut", type=int, default=64)
    parser.add_argument("--db", default="sqlite,postgresql")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--reports", type=int, default=2000, help="result reports sent (one per player)")
    args = parser.parse_args(argv)
    from taikai.bench._live import postgres_reachable

    rows = []
    for vendor in args.db.split(","):
        if vendor == "postgresql" and not postgres_reachable(PG_URL):
            print(f"PostgreSQL not reachable at {PG_URL}: skipped\n")
            continue
        rows.append(_bench_database(vendor, args))
    _print(rows, args)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--simulate":
        n, r, c = (int(x) for x in sys.argv[2].split(","))
        print(json.dumps(_simulate(n, r, c)))
    else:
        run(sys.argv[1:])
