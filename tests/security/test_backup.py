"""Backups: `taikai backup` and `taikai restore` round trips on both databases, and a copy taken while serving."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from taikai.audit.models import AuditEntry
from taikai.bench._live import Database, Server, seed
from taikai.bench._reports import report_jobs, send_reports
from taikai.events.actors import Staff
from taikai.events.models import Event, Match
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from taikai.security.backup import BackupError, backup, restore
from tests.factories import build_world, new_event

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))


def _state() -> tuple[Any, ...]:
    return (
        Event.objects.count(),
        sorted(Match.objects.values_list("pk", "status", "result")),
        AuditEntry.objects.count(),
    )


def test_backup_and_restore_round_trip(transactional_db: None, tmp_path: Path) -> None:
    world = build_world(players=4)
    saved = _state()
    summary = backup(tmp_path / "taikai.backup")
    assert summary.events == 2 and summary.bytes > 0
    # Things happen after the backup ...
    result_services.enter_result(world.match(), by=Staff(world.organizer), result=A_WINS)
    new_event(world.organizer, 2, name="後から作った大会")
    assert _state() != saved
    # ... a restore refuses to overwrite them unless forced,
    with pytest.raises(BackupError, match="--force"):
        restore(tmp_path / "taikai.backup")
    # and forced, brings the database back to the moment of the backup.
    restore(tmp_path / "taikai.backup", force=True)
    assert _state() == saved


def test_a_restore_refuses_what_is_not_a_taikai_backup(transactional_db: None, tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a backup at all")
    with pytest.raises(BackupError, match="not a taikai backup"):
        restore(junk, force=True)
    with pytest.raises(BackupError, match="cannot open"):
        restore(tmp_path / "missing.backup", force=True)


def _taikai(db: Database, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import sys; from taikai.cli import main; sys.exit(main())", *args],
        env=db.env(),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.sqlite_only
def test_a_backup_taken_while_serving_is_consistent_and_restores_elsewhere(live_db: Database, tmp_path: Path) -> None:
    seeded = seed(live_db, 100)
    jobs = report_jobs(seeded, repeat=2)
    copy = tmp_path / "during.sqlite3"
    with Server(live_db) as server:
        sender = threading.Thread(target=send_reports, args=([server.url], seeded["event_id"], jobs, 8))
        sender.start()
        out = _taikai(live_db, "backup", str(copy))
        sender.join(timeout=120)
    assert out.returncode == 0, out.stderr
    assert "backed up" in out.stdout
    snapshot = Database(tmp_path / "snap")
    snapshot.var_dir.mkdir()
    os.replace(copy, snapshot.sqlite_path)
    assert snapshot.query("PRAGMA integrity_check") == [("ok",)]
    # Consistent: every match state in the copy has exactly the audit entries and reports that made it.
    confirmed = snapshot.query("SELECT COUNT(*) FROM events_match WHERE status = 'confirmed' AND is_bye = 0")[0][0]
    audit = snapshot.query("SELECT COUNT(*) FROM audit_auditentry WHERE action = 'taikai.match.result_confirmed'")
    reports = snapshot.query("SELECT COUNT(*) FROM events_resultreport")[0][0]
    reported = snapshot.query("SELECT COUNT(*) FROM events_match WHERE status = 'reported'")[0][0]
    assert audit[0][0] == confirmed and reports == 2 * confirmed + reported

    # Restoring over the live database needs --force; into an empty one it just works.
    refused = _taikai(live_db, "restore", str(snapshot.sqlite_path))
    assert refused.returncode == 1 and "--force" in refused.stderr
    fresh = Database(tmp_path / "fresh")
    fresh.var_dir.mkdir()
    restored = _taikai(fresh, "restore", str(snapshot.sqlite_path))
    assert restored.returncode == 0, restored.stderr
    assert fresh.query("SELECT COUNT(*) FROM events_match WHERE status = 'confirmed' AND is_bye = 0")[0][0] == confirmed


def test_a_forced_restore_refuses_while_a_server_holds_the_database(live_db: Database, tmp_path: Path) -> None:
    seeded = seed(live_db, 8)
    copy = tmp_path / "copy.sqlite3"
    with Server(live_db) as server:
        assert _taikai(live_db, "backup", str(copy)).returncode == 0
        # Before: --force overwrote the database under the running server, losing acknowledged writes.
        refused = _taikai(live_db, "restore", "--force", str(copy))
        assert refused.returncode == 1
        assert "a server is running on this database" in refused.stderr
        assert server.proc is not None and server.proc.poll() is None
    assert live_db.query("SELECT COUNT(*) FROM events_event")[0][0] >= 1
    # Once the server has stopped, the forced restore goes ahead.
    assert _taikai(live_db, "restore", "--force", str(copy)).returncode == 0
    assert seeded["event_id"]


@pytest.mark.sqlite_only
def test_the_database_and_backups_are_for_this_account_only(transactional_db: None, tmp_path: Path) -> None:
    from django.conf import settings

    build_world(players=2)
    summary = backup(tmp_path / "b" / "taikai.backup")
    assert summary.path.stat().st_mode & 0o777 == 0o600
    assert Path(settings.VAR_DIR).stat().st_mode & 0o777 == 0o700
    test_database = settings.DATABASES["default"]["TEST"]
    assert isinstance(test_database, dict)
    database = Path(str(test_database["NAME"]))
    assert database.stat().st_mode & 0o077 == 0  # before: world-readable
