"""What the machine was doing while a table was measured: its load average, printed under every table.

Figures on a shared machine drift with its load; every headline figure is therefore a ratio to its own limit
measured in the same run, and the load says how much to trust the absolute ones beside it."""

from __future__ import annotations

import os


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return f"Machine: {os.cpu_count()} cores, load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)."


def verdict(ratio: float, target: float, at_most: bool = True) -> str:
    met = ratio <= target if at_most else ratio >= target
    return "ok" if met else "**over**" if at_most else "**under**"
