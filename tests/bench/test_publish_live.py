"""The publish bench (issue 27) at a tiny size against a real `taikai serve` on SQLite: a round published
reaches every open player page, each showing its own table of the new round."""

from __future__ import annotations

import argparse
from pathlib import Path

from taikai.bench._live import Server, database, seed
from taikai.bench._openloop import run_loop
from taikai.bench.follow import Side
from taikai.bench.publish import DEADLINE, _runs, max_connections


def test_every_open_page_shows_its_table_of_the_published_round(tmp_path: Path) -> None:
    with database(tmp_path / "var") as plain:
        db = Side(plain.var_dir, plain.url, {"TAIKAI_MAX_CONNECTIONS": str(max_connections(16))})
        seeded = seed(db, 16)
        args = argparse.Namespace(runs=2, deadline=DEADLINE)
        with Server(db, workers=2) as server:
            runs = run_loop(lambda: _runs(db, seeded, server.port, server.pid, args))
    assert [r.round for r in runs] == [2, 3]
    for r in runs:
        assert (r.missed, r.unfollowed, r.wrong, r.failed, r.drops, r.unopened, r.refused) == (0,) * 7
        assert r.seated == len(r.shown) == len(r.delays) == 16  # every table shown from the stream's message
        assert all(0 < d < DEADLINE for d in r.shown + r.delays)
        assert r.fetches == 16  # one message, one fetch per page: the debounce, as live.js
        assert r.clock_fetches < 16  # a refreshed page carries its table's clock (only clock.js's minute polls)
