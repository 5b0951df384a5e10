"""Issue 16, low finding: with the disk full the organizer saw a bare "Server Error (500)" and could not sign in.

Now, on a database that is really full (tests/security/fulldisk.py): the organizer signs in (the session is held
in a signed cookie), reads the event's pages, and a write answers a clear page (507) in Japanese or English that
says nothing was saved; players and the public read as usual; the API answers its coded error; nothing is
half-written; the sign-in throttle still counts; signing out still ends the session.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.models import Player
from taikai.events.services import registration
from taikai.security import diskfull, throttle
from taikai.security import sessions as session_store
from taikai.security.models import FailedAttempt, RevokedSession
from taikai.tokens.services import create_token
from tests.factories import World, build_world
from tests.security.fulldisk import FullDisk, full_disk_fixture

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "a long enough password"
JA_TITLE = "サーバーのディスクがいっぱいです"
EN_TITLE = "The server's disk is full"


@pytest.fixture
def full() -> Iterator[FullDisk]:
    yield from full_disk_fixture()


@pytest.fixture
def world(transactional_db: None, settings: Settings) -> World:
    # many sign-ins below: a fast hash (PINs keep theirs)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", "taikai.security.hashers.PinHasher"]
    built = build_world()
    built.organizer.set_password(PASSWORD)
    built.organizer.save()
    return built


def sign_in(client: Client, username: str = "org_a", password: str = PASSWORD) -> Any:
    return client.post("/login/", {"username": username, "password": password})


def signed_in_on_a_full_disk(world: World, full: FullDisk) -> Client:
    full.fill()
    client = Client()
    assert client.get("/login/").status_code == 200
    answer = sign_in(client)
    assert answer.status_code == 302, answer.content.decode()[:500]
    return client


def test_a_service_write_on_the_full_database_is_refused_whole(world: World, full: FullDisk) -> None:
    full.fill()
    before = Player.objects.count(), AuditEntry.objects.count()
    with pytest.raises(Exception) as refused:  # the player's row, then its audit entry, in one transaction
        registration.register_player(
            world.event, by=Staff(world.organizer), name="満杯", card_game_id="9999999999", late_entry=True
        )
    assert diskfull.is_disk_full(refused.value)
    assert (Player.objects.count(), AuditEntry.objects.count()) == before


def test_the_organizer_signs_in_with_the_disk_full_and_reads_the_event(world: World, full: FullDisk) -> None:
    client = signed_in_on_a_full_disk(world, full)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    assert session_store.is_cookie_key(cookie.value)  # held in the signed cookie: the database took no row
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert not Session.objects.filter(expire_date__gt=timezone.now()).exists()  # (only the fillers, long expired)
    event = world.event.pk
    for url in ("/", f"/events/{event}/", f"/events/{event}/players/", f"/events/{event}/rounds/1/"):
        page = client.get(url)
        assert page.status_code == 200, url
    assert "org_a" in client.get("/").content.decode()
    assert world.match().player_a.name in client.get(f"/events/{event}/rounds/1/").content.decode()  # pairings


def test_a_staff_write_answers_the_clear_page_and_saves_nothing(world: World, full: FullDisk) -> None:
    client = signed_in_on_a_full_disk(world, full)
    player = world.event.players.order_by("pk").first()
    assert player is not None
    players, entries = Player.objects.count(), AuditEntry.objects.count()
    url = f"/events/{world.event.pk}/players/{player.pk}/drop/"
    answer = client.post(url, HTTP_REFERER=f"http://testserver/events/{world.event.pk}/players/")
    assert answer.status_code == diskfull.STATUS == 507
    html = answer.content.decode()
    assert JA_TITLE in html and "何も保存されていません" in html and "ページの表示はできます" in html
    assert str(settings.VAR_DIR) in html and "ディスクに空きを作って" in html  # staff: what to do, and where
    assert f'href="http://testserver/events/{world.event.pk}/players/"' in html  # back to the form's page
    assert answer["Content-Language"] == "ja" and answer["Cache-Control"] == "no-store"
    # Nothing half-written: the drop (the player's row, then its audit entry) rolled back whole.
    player.refresh_from_db()
    assert not player.dropped
    assert (Player.objects.count(), AuditEntry.objects.count()) == (players, entries)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.post(url).content.decode()
    assert EN_TITLE in english and "Nothing was saved" in english and "Pages can still be read" in english
    assert "Free space on the server" in english


def test_players_and_the_public_read_as_usual_and_a_players_write_is_told(world: World, full: FullDisk) -> None:
    full.fill()
    player = world.match().player_a
    token = world.token_of(player)
    public, phone = Client(), Client()
    event = world.event.pk
    for url in (f"/e/{event}/", f"/e/{event}/pairings/", f"/e/{event}/standings/", f"/e/{event}/pairings/1/"):
        assert public.get(url).status_code == 200, url
    home = phone.get(f"/p/{token}/")
    assert home.status_code == 200 and player.name in home.content.decode()
    answer = phone.post(f"/p/{token}/pin/", {"pin": "864213"})
    assert answer.status_code == 507
    html = answer.content.decode()
    assert JA_TITLE in html and "受付か主催者に知らせてください" in html
    assert str(settings.VAR_DIR) not in html  # where the data lives is for staff only
    player.refresh_from_db()
    assert not player.pin_hash


def test_the_api_answers_reads_and_a_coded_error_for_a_write(world: World, full: FullDisk) -> None:
    _row, token = create_token(world.event, by=Staff(world.organizer), username="org_a", role="organizer")
    full.fill()
    api = Client(headers={"Authorization": f"Bearer {token}"})
    event = world.event.pk
    assert api.get(f"/api/v1/events/{event}").status_code == 200
    assert api.get(f"/api/v1/events/{event}/rounds/1/matches").status_code == 200
    player = world.event.players.order_by("pk").first()
    assert player is not None
    answer = api.post(f"/api/v1/events/{event}/players/{player.pk}/drop", content_type="application/json")
    assert answer.status_code == 507
    body = answer.json()
    assert body["error"]["code"] == "disk-full" and body["error"]["params"] == {}
    assert "ディスクがいっぱい" in body["error"]["message"]
    english = api.post(
        f"/api/v1/events/{event}/players/{player.pk}/drop", content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    ).json()
    assert english["error"]["message"].startswith("The server's disk is full: nothing was saved.")
    player.refresh_from_db()
    assert not player.dropped


def test_the_console_is_told_once_loudly(world: World, full: FullDisk, caplog: pytest.LogCaptureFixture) -> None:
    client = signed_in_on_a_full_disk(world, full)
    player = world.event.players.order_by("pk").first()
    assert player is not None
    diskfull.reports.reset()  # a new episode (the sign-in above was reported already)
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        for _ in range(3):
            assert client.post(f"/events/{world.event.pk}/players/{player.pk}/drop/").status_code == 507
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in loud] == ["taikai.diskfull"]  # one report; no "Internal Server Error" traceback
    report = loud[0].getMessage()
    assert "THE DISK IS FULL" in report and "ディスクがいっぱいです" in report
    assert f"POST /events/{world.event.pk}/players/{player.pk}/drop/" in report
    assert str(settings.VAR_DIR) in report and "free:" in report
    assert "database or disk is full" in report or "No space left on device" in report  # SQLite / PostgreSQL


def test_failed_sign_ins_are_still_counted_and_a_known_device_still_gets_in(world: World, full: FullDisk) -> None:
    known = Client()
    assert sign_in(known).status_code == 302  # this browser signed in before: a known device
    known.post("/logout/")
    full.fill()
    stranger = Client()
    for _ in range(throttle.LIMIT):
        assert sign_in(stranger, password="wrong").status_code == 200
    assert not FailedAttempt.objects.exclude(scope__startswith="fill-").exists()  # none could be written
    assert sign_in(stranger).status_code == 429  # counted in memory: the guesser is not let through
    assert sign_in(known).status_code == 302  # and the organizer's own device is not locked out
    assert known.get("/").status_code == 200


def test_signing_out_ends_a_cookie_held_session_even_for_a_copy(world: World, full: FullDisk) -> None:
    client = signed_in_on_a_full_disk(world, full)
    stolen = Client()
    stolen.cookies[settings.SESSION_COOKIE_NAME] = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert stolen.get("/").status_code == 200
    assert client.post("/logout/").status_code == 302
    assert client.get("/").status_code == 302  # the browser's cookie is gone
    assert stolen.get("/").status_code == 302  # and a copy is refused (held in this process while full)
    assert not RevokedSession.objects.filter(until__gt=timezone.now()).exists() and session_store.revoked.unsaved
    full.free()
    assert sign_in(Client()).status_code == 302  # the next write that succeeds stores the revocation too
    assert RevokedSession.objects.filter(until__gt=timezone.now()).count() == 1 and not session_store.revoked.unsaved
    session_store.revoked.clear()  # as another web process, which never saw the sign-out
    assert stolen.get("/").status_code == 302


def test_a_changed_password_or_an_altered_cookie_ends_a_cookie_held_session(world: World, full: FullDisk) -> None:
    client = signed_in_on_a_full_disk(world, full)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    forged = Client()
    forged.cookies[settings.SESSION_COOKIE_NAME] = value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB")
    assert forged.get("/").status_code == 302
    full.free()
    user = get_user_model().objects.get(username="org_a")
    user.set_password("another long password")
    user.save()
    assert client.get("/").status_code == 302


def test_once_the_disk_has_room_the_session_moves_back_into_the_database(world: World, full: FullDisk) -> None:
    client = signed_in_on_a_full_disk(world, full)
    held = client.cookies[settings.SESSION_COOKIE_NAME].value
    full.free()
    store = session_store.SessionStore(held)
    store["note"] = "x"
    store.save()
    assert not session_store.is_cookie_key(store.session_key)
    assert Session.objects.filter(session_key=store.session_key).exists()
    moved = Client()
    moved.cookies[settings.SESSION_COOKIE_NAME] = store.session_key or ""
    assert moved.get("/").status_code == 200
    assert moved.post("/logout/").status_code == 302
    old = Client()
    old.cookies[settings.SESSION_COOKIE_NAME] = held
    assert old.get("/").status_code == 302  # signing out of the moved session revoked the cookie it came from


def test_an_upload_to_a_full_disk_is_told_not_a_500(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import contextlib

    from django.core.files.uploadedfile import SimpleUploadedFile

    (tmp_path / "upload-0.cdb").symlink_to("/dev/full")  # the kernel answers ENOSPC to every write there

    @contextlib.contextmanager
    def folder(prefix: str = "") -> Iterator[str]:
        yield str(tmp_path)

    monkeypatch.setattr(tempfile, "TemporaryDirectory", folder)  # the upload's folder (taikai.web.cards)
    client = Client()
    client.force_login(world.admin)
    answer = client.post(
        "/cards/import/", {"cards": SimpleUploadedFile("cards.cdb", b"SQLite format 3\x00" + b"0" * 99)}
    )
    assert answer.status_code == 507
    assert JA_TITLE in answer.content.decode()


@pytest.mark.sqlite_only
def test_a_backup_to_a_full_disk_leaves_no_partial_file_and_says_so(
    world: World, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from taikai.cli import main

    (tmp_path / "copy.sqlite3.partial").symlink_to("/dev/full")
    assert main(["backup", str(tmp_path / "copy.sqlite3")]) == 3
    err = capsys.readouterr().err
    assert "ディスクがいっぱいです" in err and "the disk is full: nothing was saved" in err
    assert sorted(os.listdir(tmp_path)) == []  # neither the copy nor a partial one


@pytest.mark.parametrize("role", ["anonymous", "player", "judge", "organizer"])
def test_every_page_and_api_read_answers_with_the_disk_full(full: FullDisk, transactional_db: None, role: str) -> None:
    from tests.factories import make_user
    from tests.security.routes import all_routes
    from tests.test_reads_do_not_write import SKIPPED, build, client_for, urls

    world = build(make_user("organizer", organizer=True))
    full.fill()
    client = client_for(world, role)
    failed, fetched = [], 0
    for route in all_routes():
        if route.name in SKIPPED:
            continue
        for url, headers in urls(world, role, route):
            answer = client.get(url, headers=headers)
            fetched += 1
            if answer.status_code >= 500:
                failed.append((url, answer.status_code))
    assert fetched > 100
    assert failed == [], f"reads that failed on the full disk as {role}: {failed}"


def test_what_counts_as_a_refused_write_for_lack_of_space() -> None:
    import errno
    import sqlite3

    from django.db import IntegrityError

    small = sqlite3.connect(":memory:")
    small.execute("CREATE TABLE t (b BLOB)")
    small.execute(f"PRAGMA max_page_count = {small.execute('PRAGMA page_count').fetchone()[0]}")
    with pytest.raises(sqlite3.OperationalError) as sqlite_full:
        small.execute("INSERT INTO t VALUES (zeroblob(100000))")
    assert diskfull.is_disk_full(sqlite_full.value)
    with pytest.raises(OSError) as device_full, open("/dev/full", "wb", buffering=0) as out:
        out.write(b"x")
    assert device_full.value.errno == errno.ENOSPC and diskfull.is_disk_full(device_full.value)
    try:
        raise RuntimeError("wrapped") from device_full.value
    except RuntimeError as wrapped:
        assert diskfull.is_disk_full(wrapped)  # Django wraps the driver's error; the cause is followed
    assert not diskfull.is_disk_full(OSError(errno.ENOENT, "No such file or directory"))
    with pytest.raises(sqlite3.OperationalError) as other:
        small.execute("SELECT * FROM missing")
    assert not diskfull.is_disk_full(other.value)
    assert not diskfull.is_disk_full(IntegrityError("UNIQUE constraint failed"))


@pytest.mark.postgres_only
def test_postgresql_disk_full_counts_and_other_resource_errors_do_not(transactional_db: None) -> None:
    from django.db import DatabaseError, connection

    def raised(code: str, message: str) -> BaseException:
        with pytest.raises(DatabaseError) as caught, connection.cursor() as cursor:
            cursor.execute(f"DO $$ BEGIN RAISE EXCEPTION '{message}' USING ERRCODE = '{code}'; END $$")
        return caught.value

    full = raised("disk_full", "could not extend file: No space left on device")
    assert type(full.__cause__).__name__ == "DiskFull" and diskfull.is_disk_full(full)  # SQLSTATE 53100
    assert diskfull.is_disk_full(raised("insufficient_resources", "could not write: No space left on device"))
    assert not diskfull.is_disk_full(raised("out_of_memory", "out of memory"))  # 53200: not about the disk
    assert not diskfull.is_disk_full(raised("too_many_connections", "too many clients"))  # 53300


def test_a_refusal_outside_a_view_gets_the_same_page_and_other_errors_djangos_500() -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.test import RequestFactory

    from taikai.web.diskfull import server_error

    request = RequestFactory().post("/events/1/players/", HTTP_COOKIE="taikai_language=en")
    request.user = AnonymousUser()
    try:  # as Django's handler500 is called: inside the except block of the failed middleware
        with open("/dev/full", "wb", buffering=0) as out:
            out.write(b"an upload spooled to a full temp folder")
    except OSError:
        answer = server_error(request)
    assert answer.status_code == 507 and EN_TITLE in answer.content.decode()
    try:
        raise KeyError("something else")
    except KeyError:
        assert server_error(request).status_code == 500


def test_a_database_session_changed_on_a_full_disk_is_held_in_a_cookie_and_signing_out_ends_both(
    world: World, full: FullDisk
) -> None:
    client = Client()
    assert sign_in(client).status_code == 302  # the disk has room: a database session
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert not session_store.is_cookie_key(key) and Session.objects.filter(session_key=key).exists()
    full.fill()
    store = session_store.SessionStore(key)
    store["csv_problems"] = ["CSV 3行目: カードゲームIDは10桁の数字です。" * 10] * 40  # as a refused CSV import does
    store.save()
    held = store.session_key or ""
    assert session_store.is_cookie_key(held) and len(held) <= session_store.MAX_COOKIE
    assert store.load()["_auth_user_id"] == str(world.organizer.pk)  # too large for a cookie: who is signed in stays
    cookie = Client()
    cookie.cookies[settings.SESSION_COOKIE_NAME] = held
    assert cookie.get("/").status_code == 200
    assert cookie.post("/logout/").status_code == 302
    assert not Session.objects.filter(session_key=key).exists()  # the row it was held for is gone too
    assert client.get("/").status_code == 302
