"""Open many concurrent SSE connections to a running taikai and measure how fast an update reaches all.

    python -m taikai.api.sse_load --url http://127.0.0.1:8000 --event 1 -n 300 \\
        [--token tk_… --round 1]   # pause and resume the clock, timing delivery to every stream
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import time
from dataclasses import dataclass

import httpx


@dataclass
class LoadResult:
    opened: int
    failed: int
    open_seconds: float
    delivered: int = 0
    latency_max: float | None = None
    latency_median: float | None = None


async def _reader(
    client: httpx.AsyncClient, url: str, connected: asyncio.Event, seen: asyncio.Queue[float], ready: list[int]
) -> None:
    try:
        async with client.stream("GET", url, headers={"Accept": "text/event-stream"}) as response:
            response.raise_for_status()
            async for line in response.aiter_lines():
                if line == ": connected":
                    ready.append(1)
                    connected.set()
                elif line.startswith("event: clock-paused"):
                    await seen.put(time.monotonic())
    except (httpx.HTTPError, OSError):
        return  # counted as not connected


async def run(base: str, event_id: int, n: int, token: str = "", round_number: int = 0) -> LoadResult:
    url = f"{base.rstrip('/')}/api/v1/events/{event_id}/stream"
    limits = httpx.Limits(max_connections=n + 10, max_keepalive_connections=n + 10)
    seen: asyncio.Queue[float] = asyncio.Queue()
    ready: list[int] = []
    async with httpx.AsyncClient(timeout=httpx.Timeout(60.0, connect=30.0), limits=limits) as client:
        start = time.monotonic()
        events = [asyncio.Event() for _ in range(n)]
        tasks = [asyncio.create_task(_reader(client, url, events[i], seen, ready)) for i in range(n)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), timeout=60)
        result = LoadResult(len(ready), n - len(ready), time.monotonic() - start)
        if token and round_number and ready:
            headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
            clock = f"{base.rstrip('/')}/api/v1/events/{event_id}/rounds/{round_number}/clock"
            async with httpx.AsyncClient(timeout=30) as admin:
                sent = time.monotonic()
                (await admin.post(f"{clock}/pause", content=json.dumps({}), headers=headers)).raise_for_status()
                latencies: list[float] = []
                try:
                    while len(latencies) < len(ready):
                        latencies.append(await asyncio.wait_for(seen.get(), timeout=10) - sent)
                except TimeoutError:
                    pass
                await admin.post(f"{clock}/resume", content=json.dumps({}), headers=headers)
            latencies.sort()
            result.delivered = len(latencies)
            if latencies:
                result.latency_max = latencies[-1]
                result.latency_median = latencies[len(latencies) // 2]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--event", type=int, required=True)
    parser.add_argument("-n", type=int, default=300)
    parser.add_argument("--token", default="")
    parser.add_argument("--round", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.url, args.event, args.n, args.token, args.round)).__dict__, indent=1))


if __name__ == "__main__":
    main()
