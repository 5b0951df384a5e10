"""Configuration: safe defaults, and a bad setting named at start-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from taikai.config import ConfigError, load


def test_defaults_use_sqlite_under_var_and_keep_the_generated_secret(tmp_path: Path) -> None:
    env = {"TAIKAI_VAR_DIR": str(tmp_path)}
    first = load(env)
    assert first.database_url == f"sqlite:///{tmp_path / 'taikai.sqlite3'}"
    assert not first.debug and first.time_zone == "Asia/Tokyo"
    assert load(env).secret_key == first.secret_key  # generated once, kept under var/
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TAIKAI_DATABASE_URL", "mysql://x/y"),
        ("TAIKAI_DATABASE_URL", "postgresql://localhost"),
        ("TAIKAI_DEBUG", "maybe"),
        ("TAIKAI_SECRET_KEY", "short"),
        ("TAIKAI_TIME_ZONE", "Mars/Olympus"),
        ("TAIKAI_ALLOWED_HOSTS", " , "),
        ("TAIKAI_PUBLIC_URL", "192.168.1.20:8000"),
        ("TAIKAI_PUBLIC_URL", "ftp://venue.example"),
        ("TAIKAI_PUBLIC_URL", "http://venue.example/?x=1"),
        ("TAIKAI_PUBLIC_URL", "http://venue.example:99999"),
    ],
)
def test_bad_setting_is_named(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError) as exc:
        load({"TAIKAI_VAR_DIR": str(tmp_path), name: value})
    assert exc.value.setting == name
    assert name in str(exc.value)


SETUP = "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'taikai.settings'; django.setup()"


def test_bad_setting_stops_the_command_with_its_name(tmp_path: Path) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-c", SETUP],
        env={"TAIKAI_VAR_DIR": str(tmp_path), "TAIKAI_DEBUG": "perhaps", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "TAIKAI_DEBUG" in proc.stderr


def test_the_venue_address_is_taken_as_given_without_a_trailing_slash(tmp_path: Path) -> None:
    env = {"TAIKAI_VAR_DIR": str(tmp_path), "TAIKAI_PUBLIC_URL": "https://taikai.example.jp/venue/"}
    assert load(env).public_url == "https://taikai.example.jp/venue"
    assert load({"TAIKAI_VAR_DIR": str(tmp_path)}).public_url == ""


def test_serve_tells_phones_the_public_url_else_the_first_lan_address() -> None:
    from taikai.cli.serve import venue_address

    assert venue_address("https://taikai.example.jp", ["192.168.1.20"], 8000) == "https://taikai.example.jp"
    assert venue_address("", ["192.168.1.20", "10.0.0.3"], 8000) == "http://192.168.1.20:8000"
    assert venue_address("", [], 8000) == ""


def test_postgresql_connections_come_from_psycopgs_pool_sized_by_the_request_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import connection, connections

    from taikai.settings import _database

    monkeypatch.setenv("TAIKAI_THREADS", "8")
    db = _database("postgresql://taikai@127.0.0.1:5432/taikai")
    assert db["CONN_MAX_AGE"] == 0  # the pool keeps the connections, not each thread
    assert db["OPTIONS"] == {"pool": {"min_size": 9, "max_size": 9, "timeout": 10}}
    sqlite = _database("sqlite:////tmp/taikai-config-test.sqlite3")
    options = sqlite["OPTIONS"]
    assert isinstance(options, dict) and "pool" not in options
    if connection.vendor == "postgresql":  # the suite's own connections on its PostgreSQL pass
        from django.db.backends.postgresql.base import DatabaseWrapper

        assert isinstance(connections["default"], DatabaseWrapper) and connections["default"].pool is not None
