"""A real server for load, crash and scale runs: its own database, a seeded event, `taikai serve` in a
subprocess, and bounded HTTP load from threads (tests and `make bench` share this; loopback only).

``python -m taikai.bench._live seed --players N [--open-players K]`` (run with the server's environment)
creates an event with N checked-in players, pairs and starts round 1, and prints one JSON line: the event,
its matches and the players' personal-link tokens. With K, a second event whose round 1 has not started
(deck lists still open) gets K checked-in players, listed with their ids and tokens under "open".
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

import httpx

SECRET = "bench-and-test-secret-key-not-for-production-0123456789"
A_WINS = {"duels": [{"winner": "A"}, {"winner": "A"}], "basis": "played"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- databases -----------------------------------------------------------------------------------------------


@dataclass
class Database:
    """Where a live server keeps its data: a SQLite file under var_dir, or a fresh PostgreSQL database."""

    var_dir: Path
    url: str = ""  # empty: SQLite under var_dir

    @property
    def vendor(self) -> str:
        return "postgresql" if self.url else "sqlite"

    @property
    def sqlite_path(self) -> Path:
        return self.var_dir / "taikai.sqlite3"

    def env(self) -> dict[str, str]:
        env = {**os.environ, "TAIKAI_VAR_DIR": str(self.var_dir), "TAIKAI_SECRET_KEY": SECRET}
        env["TAIKAI_DATABASE_URL"] = self.url
        env.pop("DJANGO_SETTINGS_MODULE", None)
        return env

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        if not self.url:
            with contextlib.closing(sqlite3.connect(self.sqlite_path, timeout=30)) as conn:
                return list(conn.execute(sql).fetchall())
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            return list(conn.execute(sql).fetchall())


def _admin_url(url: str) -> str:
    return urlunparse(urlparse(url)._replace(path="/postgres"))


@contextlib.contextmanager
def database(var_dir: Path, postgres_url: str = "") -> Iterator[Database]:
    """A new empty database for one run; a PostgreSQL one is dropped afterwards."""
    var_dir.mkdir(parents=True, exist_ok=True)
    if not postgres_url:
        yield Database(var_dir)
        return
    import psycopg

    name = f"taikai_live_{os.getpid()}_{secrets.token_hex(4)}"
    with psycopg.connect(_admin_url(postgres_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield Database(var_dir, urlunparse(urlparse(postgres_url)._replace(path=f"/{name}")))
    finally:
        with psycopg.connect(_admin_url(postgres_url), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def postgres_reachable(url: str) -> bool:
    try:
        import psycopg

        psycopg.connect(_admin_url(url), connect_timeout=3).close()
    except Exception:
        return False
    return True


def seed(db: Database, players: int, timeout: float = 300, open_players: int = 0) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "taikai.bench._live", "seed", "--players", str(players)]
        + ["--open-players", str(open_players)],
        env=db.env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    (db.var_dir / "seed.log").write_text(out.stderr)  # holds the first organizer's password, shown once
    if out.returncode != 0:
        raise RuntimeError(f"seeding failed: {out.stderr[-2000:]}")
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


# --- the server ------------------------------------------------------------------------------------------------


@dataclass
class Server:
    db: Database
    port: int = field(default_factory=free_port)
    workers: int = 1
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        """The server's process, and its process group (its workers' too)."""
        assert self.proc is not None, "not started"
        return self.proc.pid

    def start(self, timeout: float = 90) -> Server:
        log = open(self.db.var_dir / f"server-{self.port}.log", "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from taikai.cli import main; sys.exit(main())", "serve"]
            + ["--host", "127.0.0.1", "--port", str(self.port)]
            + ["--workers", str(self.workers)],
            env=self.db.env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a kill reaches the uvicorn workers too
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"taikai serve exited with {self.proc.returncode}: see {log.name}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"taikai serve did not answer within {timeout} s")

    def kill(self) -> None:
        """SIGKILL the whole server (its process group): no shutdown, no flush."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --- load ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """One result report over the API, as a player's phone sends it (a retry reuses the key)."""

    match_id: str
    token: str
    key: str
    body: dict[str, Any] = field(default_factory=lambda: A_WINS)


@dataclass
class Outcome:
    report: Report
    status: int  # 0: no answer (connection refused or cut)
    seconds: float
    error: str = ""


def report_jobs(seeded: dict[str, Any], repeat: int = 1) -> list[Report]:
    jobs = []
    for m in seeded["matches"]:
        for side in ("a", "b"):
            jobs.extend([Report(m["id"], m[f"{side}_token"], f"{m['id']}-{side}")] * repeat)
    return jobs


def send_reports(
    base_urls: list[str],
    event_id: int,
    jobs: list[Report],
    clients: int,
    stop: threading.Event | None = None,
    into: list[Outcome] | None = None,
) -> list[Outcome]:
    """Send the reports from ``clients`` threads (each its own connection), round-robin over the servers;
    outcomes are appended to ``into`` as they arrive, so a watcher can act mid-stream."""
    outcomes: list[Outcome] = [] if into is None else into
    lock = threading.Lock()
    queue = list(enumerate(jobs))
    queue.reverse()

    def worker(n: int) -> None:
        with httpx.Client(timeout=30) as client:
            while not (stop is not None and stop.is_set()):
                with lock:
                    if not queue:
                        return
                    i, job = queue.pop()
                url = f"{base_urls[i % len(base_urls)]}/api/v1/events/{event_id}/matches/{job.match_id}/result"
                t0 = time.perf_counter()
                error = ""
                try:
                    status = client.post(
                        url, json={**job.body, "idempotency_key": job.key}, headers={"X-Player-Token": job.token}
                    ).status_code
                except httpx.HTTPError as exc:
                    status, error = 0, f"{type(exc).__name__}: {exc}"
                with lock:
                    outcomes.append(Outcome(job, status, time.perf_counter() - t0, error))

    threads = [threading.Thread(target=worker, args=(n,), daemon=True) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


@dataclass
class LoadResult:
    requests: int
    errors: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.latencies) * 1000 if self.latencies else float("nan")

    @property
    def p99_ms(self) -> float:
        return self.percentile(99) * 1000


@dataclass
class WrkResult:
    """What wrk (a C load generator, Debian package ``wrk``) measured; the same fields the tables use."""

    requests: int
    errors: int
    seconds: float
    p50_ms: float
    p99_ms: float

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def _ms(text: str) -> float:
    units = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}
    for unit in ("us", "ms", "s", "m"):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * units[unit]
    return float(text)


def parse_wrk(out: str) -> WrkResult:
    """Read wrk's ``--latency`` report line by line.

    The percentiles come only from the lines after "Latency Distribution": the thread-stats table above it
    ends its rows with a "+/- Stdev" percentage (``75.50%``), which a search over the whole text mistook for
    the 50% percentile and then read the next word ("Latency") as a number.
    """
    lines = [line.strip() for line in out.splitlines()]
    percentiles: dict[str, float] = {}
    requests = errors = 0
    seconds = 0.0
    in_distribution = False
    for line in lines:
        words = line.split()
        if line.startswith("Latency Distribution"):
            in_distribution = True
            continue
        if in_distribution:
            if len(words) == 2 and words[0].endswith("%"):
                percentiles[words[0]] = _ms(words[1])
                continue
            in_distribution = False
        if len(words) >= 4 and words[1] == "requests" and words[2] == "in":
            requests = int(words[0])
            duration = words[3].rstrip(",")
            seconds = _ms(duration) / 1000
        elif line.startswith("Non-2xx or 3xx responses:"):
            errors += int(words[-1])
        elif line.startswith("Socket errors:"):
            errors += sum(int(part.split()[-1]) for part in line.split(":", 1)[1].split(","))
    if requests == 0 and seconds > 0:  # nothing answered within the run: a measurement, not a parse error
        return WrkResult(0, errors, seconds, float("nan"), float("nan"))
    if not requests or "50%" not in percentiles or "99%" not in percentiles:
        raise RuntimeError(f"cannot read wrk's output: {out[-500:]}")
    return WrkResult(requests, errors, seconds, percentiles["50%"], percentiles["99%"])


def wrk_load(url: str, clients: int, seconds: float) -> WrkResult:
    """GET ``url`` with wrk: ``clients`` connections for ``seconds`` (closed loop, like get_load)."""
    import shutil

    out = subprocess.run(
        [shutil.which("wrk") or "wrk", "-t2", f"-c{clients}", f"-d{max(1, int(seconds))}s", "--latency", url],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    ).stdout
    return parse_wrk(out)


def get_load(
    url: str, clients: int, seconds: float, check: Callable[[httpx.Response], bool] | None = None
) -> LoadResult | WrkResult:
    """GET ``url`` from ``clients`` connections for ``seconds``: a bounded closed-loop load. Uses wrk when
    installed (a Python client on the same 2 cores measures mostly itself), else Python threads."""
    import shutil

    if check is None and shutil.which("wrk"):
        return wrk_load(url, clients, seconds)
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def worker() -> None:
        nonlocal errors
        mine: list[float] = []
        bad = 0
        with httpx.Client(timeout=30) as client:
            while time.monotonic() < end:
                t0 = time.perf_counter()
                try:
                    r = client.get(url)
                    ok = r.status_code == 200 and (check is None or check(r))
                except httpx.HTTPError:
                    ok = False
                mine.append(time.perf_counter() - t0)
                bad += 0 if ok else 1
        with lock:
            latencies.extend(mine)
            errors += bad

    t0 = time.perf_counter()
    threads = [threading.Thread(target=worker, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return LoadResult(len(latencies), errors, time.perf_counter() - t0, latencies)


# --- seeding (runs inside the server's environment) ----------------------------------------------------------


def _seed(players: int, open_players: int = 0) -> dict[str, Any]:
    import datetime as dt

    from taikai.cli.serve import prepare

    with contextlib.redirect_stdout(sys.stderr):
        prepare()
    from django.contrib.auth import get_user_model

    from taikai.events.actors import Staff
    from taikai.events.services import clock as clock_services
    from taikai.events.services import events as event_services
    from taikai.events.services import registration
    from taikai.events.services import rounds as round_services

    organizer = Staff(get_user_model().objects.filter(is_superuser=True).order_by("id").first())
    event = event_services.create_event(
        by=organizer, name="負荷試験 / Load test", date=dt.date.today(), ruleset_name="harajuku-cs-1.2"
    )
    tokens = {}
    for i in range(players):
        p = registration.register_player(event, by=organizer, name=f"Player {i:05d}", card_game_id=f"{i:010d}")
        _, tokens[p.pk] = registration.check_in(p, by=organizer)
    rnd = round_services.pair_next_round(event, by=organizer)
    clock_services.start_round(rnd, by=organizer)
    matches = []
    for m in rnd.matches.filter(is_bye=False).order_by("table"):
        assert m.player_b_id is not None  # a table that is not a bye has two players
        matches.append({"id": str(m.pk), "a_token": tokens[m.player_a_id], "b_token": tokens[m.player_b_id]})
    seeded = {"event_id": event.pk, "round": rnd.number, "limit": rnd.time_limit_seconds, "matches": matches}
    if open_players:
        later = event_services.create_event(
            by=organizer, name="受付中 / Registration open", date=dt.date.today(), ruleset_name="harajuku-cs-1.2"
        )
        checked_in = []
        for i in range(open_players):
            p = registration.register_player(later, by=organizer, name=f"Open {i:04d}", card_game_id=f"9{i:09d}")
            _, token = registration.check_in(p, by=organizer)
            checked_in.append({"id": str(p.pk), "token": token})
        seeded["open"] = {"event_id": later.pk, "players": checked_in}
    return seeded


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m taikai.bench._live")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("seed")
    p.add_argument("--players", type=int, default=100)
    p.add_argument("--open-players", type=int, default=0)
    args = parser.parse_args(argv)
    print(json.dumps(_seed(args.players, args.open_players)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def send_reports_fast(base_url: str, event_id: int, jobs: list[Report], clients: int) -> tuple[list[int], float]:
    """Send the reports over ``clients`` keep-alive connections from one asyncio loop with a minimal HTTP/1.1
    client, so the load generator costs little CPU beside the server on the same cores. (statuses, seconds)"""
    import asyncio
    from urllib.parse import urlparse

    target = urlparse(base_url)
    host, port = target.hostname or "127.0.0.1", target.port or 80
    pending = list(enumerate(jobs))
    pending.reverse()
    statuses: list[int] = [0] * len(jobs)

    async def connection() -> None:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while pending:
                i, job = pending.pop()
                body = json.dumps({**job.body, "idempotency_key": job.key}).encode()
                head = (
                    f"POST /api/v1/events/{event_id}/matches/{job.match_id}/result HTTP/1.1\r\n"
                    f"Host: {host}:{port}\r\nContent-Type: application/json\r\nX-Player-Token: {job.token}\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n"
                )
                writer.write(head.encode() + body)
                await writer.drain()
                status_line = await reader.readline()
                length = 0
                while True:
                    line = await reader.readline()
                    if line in (b"\r\n", b""):
                        break
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                await reader.readexactly(length)
                statuses[i] = int(status_line.split()[1]) if status_line else 0
        finally:
            writer.close()

    async def main() -> None:
        await asyncio.gather(*(connection() for _ in range(clients)))

    started = time.perf_counter()
    asyncio.run(main())
    return statuses, time.perf_counter() - started
