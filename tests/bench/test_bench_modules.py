"""`make bench` runs every module of taikai.bench whose name has no leading underscore: each must be a
benchmark (a ``run(argv)``); a shared helper's name starts with ``_`` (``_live``, ``_databases``)."""

from __future__ import annotations

import importlib
import pkgutil

import taikai.bench
from taikai.bench.__main__ import main


def test_every_module_make_bench_runs_is_a_benchmark() -> None:
    names = [m.name for m in pkgutil.iter_modules(taikai.bench.__path__) if not m.name.startswith("_")]
    assert names  # the benches are found at all
    missing = [
        name for name in names if not callable(getattr(importlib.import_module(f"taikai.bench.{name}"), "run", None))
    ]
    assert missing == []


def test_an_unknown_benchmark_is_refused_by_name() -> None:
    assert main(["no-such-bench"]) == 2
