"""Result reports sent to a live server as players' phones send them: one job a report (a retry reuses its key),
from threads over several servers (``send_reports``) or from one asyncio loop (``send_reports_fast``)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

A_WINS = {"duels": [{"winner": "A"}, {"winner": "A"}], "basis": "played"}


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
