"""Bounded GET load on a live server (``get_load``): wrk when installed, else Python threads; and wrk's report read."""

from __future__ import annotations

import statistics
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx


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
