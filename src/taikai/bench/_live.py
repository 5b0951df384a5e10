"""A real server for load, crash and scale runs: its own database, a seeded event, `taikai serve` in a
subprocess (tests and `make bench` share this; loopback only). The load sent to it: ``_reports`` (result reports)
and ``_load`` (page loads); the seeding that runs inside it: ``_seed``.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

import httpx

SECRET = "bench-and-test-secret-key-not-for-production-0123456789"


# A client drops an idle connection before the server does (its keep-alive, TAIKAI_KEEP_ALIVE, 5 s), as a
# browser that retries does in effect: httpx's own expiry is also 5 s, so a request sent on a connection idle
# for exactly that long could meet the server's close and be reset (seen once in CI, the follower test).
CLIENT_KEEPALIVE = 2.0


def client(timeout: float = 30) -> httpx.Client:
    """An HTTP client for a live server, its idle connections given up before the server's keep-alive ends."""
    return httpx.Client(timeout=timeout, limits=httpx.Limits(keepalive_expiry=CLIENT_KEEPALIVE))


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
    """A new empty database for one run, named after the one in ``postgres_url``; a PostgreSQL one is dropped
    afterwards."""
    var_dir.mkdir(parents=True, exist_ok=True)
    if not postgres_url:
        yield Database(var_dir)
        return
    import psycopg

    base = urlparse(postgres_url).path.strip("/") or "taikai"  # taikai_NAME: taikai_NAME_live_…, beside it
    name = f"{base}_live_{os.getpid()}_{secrets.token_hex(4)}"
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


def seed(db: Database, players: int, timeout: float = 300, open_players: int = 0, top_cut: int = 0) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "taikai.bench._seed", "seed", "--players", str(players)]
        + ["--open-players", str(open_players), "--top-cut", str(top_cut)],
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
