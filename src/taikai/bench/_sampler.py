"""A sampling profiler inside a bench server's worker (``TAIKAI_BENCH_PROFILE=DIR`` with the bench endpoints).

A thread looks at every other thread's stack every few milliseconds (wall clock, not CPU: a thread waiting
for the database counts where it waits). A sample whose innermost frame is a wait (a select, a thread pool's
queue, a lock, uvloop's loop in C) is idle and dropped; of the busy ones, each function on the stack counts
once. Every second the counts go to ``DIR/profile-PID.json``. cProfile sees one thread only, and a report
crosses three (the event loop, a2wsgi's pool, Django's own thread hops). A caveat seen in use: the sampler
needs the GIL to look, so it mostly looks when a thread has released it (a database call), and Python that
holds the GIL is under-counted: read it as where requests wait; for pure-Python costs profile one process
with cProfile (as the event bench's breakdown does).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

INTERVAL = 0.002
# innermost frames that wait (a thread pool's idle worker sits in _worker itself: its queue's get is C)
IDLE = {"select", "wait", "get", "acquire", "sleep", "poll", "readline", "accept", "recv", "_recv", "_recv_bytes"}
IDLE |= {"_worker"}
# uvloop runs the event loop in C: a sample whose innermost Python frame is the runner is the loop waiting or
# doing its own I/O, which Python cannot tell apart; it is left out like a wait (the Python the loop calls is not)
LOOP = "asyncio.runners.Runner.run"
# every busy thread's bottom frames: on every stack, they say nothing
ROOTS = ("multiprocessing.", "uvicorn._subprocess.", "uvicorn.supervisors.", "uvicorn._compat.", "threading.")
ROOTS_EXACT = {"asyncio.runners.Runner.run", "asyncio.runners.run", "concurrent.futures.thread._worker"}


def _names(frame: FrameType | None) -> list[str]:
    names = []
    while frame is not None:
        code = frame.f_code
        module = frame.f_globals.get("__name__", "?")
        names.append(f"{module}.{code.co_qualname if hasattr(code, 'co_qualname') else code.co_name}")
        frame = frame.f_back
    return names


def _loop(out: Path) -> None:
    me = threading.get_ident()
    counts: Counter[str] = Counter()  # on the stack
    inner: Counter[str] = Counter()  # the innermost frame: where the time is spent itself
    busy = 0
    flushed = time.monotonic()
    while True:
        time.sleep(INTERVAL)
        for ident, frame in sys._current_frames().items():
            if ident == me or frame.f_code.co_name in IDLE:
                continue
            names = _names(frame)
            if names[0] == LOOP:
                continue
            busy += 1
            counts.update(set(names))
            inner[names[0]] += 1
        if time.monotonic() - flushed > 1.0:
            flushed = time.monotonic()
            out.write_text(json.dumps({"busy": busy, "counts": counts, "inner": inner}))


def start(directory: str) -> None:
    out = Path(directory) / f"profile-{os.getpid()}.json"
    threading.Thread(target=_loop, args=(out,), name="taikai-bench-sampler", daemon=True).start()


@dataclass(frozen=True)
class Profile:
    on_stack: list[tuple[str, float]]  # share of busy samples with the function anywhere on the stack
    innermost: list[tuple[str, float]]  # share of busy samples spent in the function itself


def read_profiles(directory: Path, top: int = 12) -> Profile:
    """The workers' counts together: the ``top`` functions of each kind by share of busy samples."""
    busy, counts, inner = 0, Counter[str](), Counter[str]()
    for path in directory.glob("profile-*.json"):
        data = json.loads(path.read_text())
        busy += data["busy"]
        counts.update(data["counts"])
        inner.update(data["inner"])
    if not busy:
        return Profile([], [])
    shown = [
        (name, n / busy)
        for name, n in counts.most_common()
        if not name.startswith(ROOTS) and name not in ROOTS_EXACT and not name.endswith("<module>")
    ]
    return Profile(shown[:top], [(name, n / busy) for name, n in inner.most_common(top)])
