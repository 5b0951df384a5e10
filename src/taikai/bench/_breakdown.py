"""Where a result report's time goes: the statements it sends, and its CPU inside Django and around it.

``python -m taikai.bench._breakdown --players N`` (run with the database's environment) seeds an event with N
players, then sends every table's two reports (the report, then the opponent's confirmation) through Django's
test client, in this process: no HTTP server, no sockets. It prints one JSON line: the statements of one
report and of one confirmation by kind, and the CPU per report in this process (the view, the services, the
ORM and the database driver). The live server's CPU per report minus this is what the HTTP stack costs
(uvicorn, the thread hop, the middleware).

``cpu_of_group`` and ``cpu_of_postgres`` read what the kernel accounts to processes (``/proc``), so a
server's CPU is measured from outside while a load runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: str) -> tuple[int, int, str] | None:
    """(process group, user+system ticks, command name) of one process, or None once it has gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[2]), int(fields[11]) + int(fields[12]), name


def _processes() -> dict[str, tuple[int, int, str]]:
    found = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit() and (stat := _stat(pid)) is not None:
            found[pid] = stat
    return found


def cpu_of_group(group: int) -> float:
    """CPU seconds used so far by the live processes of one process group (a server and its workers)."""
    return sum(ticks for g, ticks, _ in _processes().values() if g == group) / TICKS


def postgres_ticks() -> dict[str, int]:
    """The PostgreSQL server's processes and their CPU ticks so far (compare two readings per process: a
    backend that ends between them takes its ticks with it)."""
    return {pid: ticks for pid, (_, ticks, name) in _processes().items() if name.startswith("postgres")}


def postgres_seconds(before: dict[str, int], after: dict[str, int]) -> float:
    return sum(after[pid] - before.get(pid, 0) for pid in after) / TICKS


def _kinds(queries: list[dict[str, Any]]) -> dict[str, int]:
    kinds = Counter(q["sql"].split()[0].upper() for q in queries)
    return {k: kinds[k] for k in ("SELECT", "INSERT", "UPDATE", "DELETE") if kinds[k]}


def measure(players: int) -> dict[str, Any]:
    from taikai.bench._reports import A_WINS
    from taikai.bench._seed import seed_events

    seeded = seed_events(players)
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    event_id = seeded["event_id"]

    def report(match: dict[str, Any], side: str) -> None:
        answer = client.post(
            f"/api/v1/events/{event_id}/matches/{match['id']}/result",
            data=json.dumps({**A_WINS, "idempotency_key": f"{match['id']}-{side}"}),
            content_type="application/json",
            headers={"X-Player-Token": match[f"{side}_token"]},
        )
        if answer.status_code != 200:
            raise RuntimeError(f"report answered {answer.status_code}: {answer.content[:300]!r}")

    first, *rest = seeded["matches"]
    # counted at once: the captured list is a view of the connection's log, which each request resets
    with CaptureQueriesContext(connection) as reported:
        report(first, "a")
    statements = {"report": _kinds(reported.captured_queries)}
    with CaptureQueriesContext(connection) as confirmed:
        report(first, "b")
    statements["confirmation"] = _kinds(confirmed.captured_queries)
    started = time.process_time()
    for match in rest:
        report(match, "a")
        report(match, "b")
    cpu = time.process_time() - started
    return {**statements, "cpu_ms": cpu / max(1, 2 * len(rest)) * 1000}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m taikai.bench._breakdown")
    parser.add_argument("--players", type=int, default=200)
    args = parser.parse_args(argv)
    os.environ.setdefault("TAIKAI_ALLOWED_HOSTS", "*")
    with contextlib.redirect_stdout(sys.stderr):
        result = measure(args.players)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
