"""Sign-in protection: throttled logins and player-page recoveries, session expiry, Argon2, HTTPS settings."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.backends import db as db_sessions
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from taikai.events.services import recovery
from taikai.security import throttle
from taikai.security.models import FailedAttempt
from tests.factories import make_user, new_event

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _fast_hashes(request: pytest.FixtureRequest, settings: Settings) -> None:
    # Argon2 is deliberately slow; the throttle tests log in dozens of times, so they use a fast hash.
    if "argon2" not in request.node.name:
        settings.PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.MD5PasswordHasher",
            "taikai.security.hashers.PinHasher",
        ]


@pytest.fixture
def judge(db: None) -> User:
    return make_user("judge_x", password=PASSWORD)


def _login(client: Client, password: str, username: str = "judge_x", **extra: Any) -> Any:
    return client.post("/login/", {"username": username, "password": password}, **extra)


def test_five_failed_logins_lock_that_name_from_that_address_for_fifteen_minutes(judge: User) -> None:
    client = Client()
    for _ in range(throttle.LIMIT):
        assert _login(client, "wrong").status_code == 200
    refused = _login(client, PASSWORD)  # even the right password, while locked
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 14 * 60
    assert "ログインの失敗が続いたため" in refused.content.decode()
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = _login(english, PASSWORD).content.decode()
    assert "Signing in failed too many times. Try again in 15 minutes." in page
    # Another address, or another name from this address, is not locked out by it.
    assert _login(Client(), PASSWORD, REMOTE_ADDR="10.0.0.7").status_code == 302
    make_user("judge_y", password=PASSWORD)
    assert _login(Client(), PASSWORD, username="judge_y").status_code == 302


def test_the_lock_lifts_after_the_window_and_a_success_clears_the_count(judge: User) -> None:
    client = Client()
    for _ in range(throttle.LIMIT):
        _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 429
    FailedAttempt.objects.update(at=timezone.now() - throttle.WINDOW - dt.timedelta(seconds=1))
    assert _login(client, PASSWORD).status_code == 302
    assert FailedAttempt.objects.filter(scope="login").count() == 0
    # The count is per name and address, and case does not open a new count.
    other = Client()
    for name in ("JUDGE_X", "judge_x", "Judge_X", "judge_x ", "ｊｕｄｇｅ_ｘ"):
        _login(other, "wrong", username=name)
    assert _login(other, PASSWORD).status_code == 429


def test_one_address_trying_many_names_is_stopped(db: None) -> None:
    client = Client()
    for i in range(throttle.ADDRESS_LIMIT):
        assert _login(client, "wrong", username=f"guess{i}").status_code == 200
    assert _login(client, "wrong", username="another").status_code == 429


def test_player_page_recovery_is_throttled_per_card_game_id(db: None) -> None:
    organizer = make_user("org_r", organizer=True)
    event = new_event(organizer, 2)
    player = event.players.first()
    assert player is not None
    recovery.set_pin(player, pin="864213")
    client = Client()
    url = f"/e/{event.pk}/recover/"
    for _ in range(throttle.LIMIT):
        assert client.post(url, {"card_game_id": player.card_game_id, "pin": "000000"}).status_code == 200
    refused = client.post(url, {"card_game_id": player.card_game_id, "pin": "864213"})
    assert refused.status_code == 429
    assert "受付で新しいリンク" in refused.content.decode()
    assert (
        Client(REMOTE_ADDR="10.0.0.9").post(url, {"card_game_id": player.card_game_id, "pin": "864213"}).status_code
        == 302
    )


def test_failures_are_kept_in_the_database_so_every_web_process_counts_them(judge: User) -> None:
    for _ in range(throttle.LIMIT):
        _login(Client(), "wrong")  # five different clients (as if five processes answered)
    assert FailedAttempt.objects.count() == throttle.LIMIT
    assert _login(Client(), PASSWORD).status_code == 429


def test_a_session_lasts_one_event_day_and_then_expires(judge: User) -> None:
    assert settings.SESSION_COOKIE_AGE == 12 * 60 * 60
    # Database sessions, shared by every web process (held in a signed cookie only while the disk is full).
    assert issubclass(import_module(settings.SESSION_ENGINE).SessionStore, db_sessions.SessionStore)
    client = Client()
    response = _login(client, PASSWORD)
    assert response.status_code == 302
    cookie = response.cookies[settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) == 12 * 60 * 60 and cookie["httponly"] and cookie["samesite"] == "Lax"
    assert client.get("/").status_code == 200
    session = Session.objects.get()
    assert abs((session.expire_date - timezone.now()).total_seconds() - 12 * 3600) < 60
    Session.objects.update(expire_date=timezone.now() - dt.timedelta(seconds=1))
    expired = client.get("/")
    assert expired.status_code == 302 and expired["Location"].startswith("/login/")


def test_passwords_are_stored_as_argon2_hashes(judge: User) -> None:
    assert judge.password.startswith("argon2")
    assert settings.PASSWORD_HASHERS[0].endswith("Argon2PasswordHasher")


def test_over_https_cookies_are_secure_and_hsts_is_sent(tmp_path: Path) -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0, s.SECURE_PROXY_SSL_HEADER)"
    )
    env = {
        **os.environ,
        "TAIKAI_VAR_DIR": str(tmp_path),
        "TAIKAI_HTTPS": "1",
        "DJANGO_SETTINGS_MODULE": "taikai.settings",
    }
    env.pop("TAIKAI_DATABASE_URL", None)
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup();" + code],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.strip()
    assert out == "True True True ('HTTP_X_FORWARDED_PROTO', 'https')"
    assert settings.X_FRAME_OPTIONS == "DENY" and settings.SECURE_CONTENT_TYPE_NOSNIFF
