"""Issue 25 item 12: anyone could lock any account name, the default `organizer` included, out of every new
device for 15 minutes by failing to sign in as it ten times. Now a name's lock holds only at addresses that
failed for it too, `taikai user unlock NAME` lifts it, and the first account's name is not guessable."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.cli import main
from taikai.security import throttle
from taikai.security.models import FailedAttempt
from taikai.server import first_account_name
from tests.factories import make_user
from tests.security.test_accounts import PASSWORD, _fast_hashes  # noqa: F401 - the fixture, used by name

pytestmark = pytest.mark.django_db


def _login(username: str, password: str, address: str) -> int:
    return Client(REMOTE_ADDR=address).post("/login/", {"username": username, "password": password}).status_code


@pytest.fixture
def organizer(db: None) -> User:
    return make_user("organizer", organizer=True, password=PASSWORD)


def test_a_guesser_elsewhere_does_not_lock_the_owner_out_of_a_new_device(organizer: User) -> None:
    for i in range(throttle.NAME_LIMIT * 3):  # 30 addresses, two guesses each
        for _ in range(throttle.UNDER_ATTACK_TRIES):
            _login("organizer", "wrong", f"203.0.113.{i}")
    # The guesser's own addresses, each past its two tries, are locked.
    assert _login("organizer", PASSWORD, "203.0.113.1") == 429
    # Before: 429 for 15 minutes on every device that had not signed in before. Now the owner, one typo included.
    assert _login("organizer", "typo", "192.168.1.20") == 200
    assert _login("organizer", PASSWORD, "192.168.1.20") == 302


def test_user_unlock_forgets_the_failures_of_a_name(organizer: User, capsys: pytest.CaptureFixture[str]) -> None:
    for _ in range(throttle.LIMIT):
        _login("organizer", "wrong", "192.168.1.30")
    assert _login("organizer", PASSWORD, "192.168.1.30") == 429
    assert main(["user", "unlock", "Organizer "]) == 2  # names are exact here: no such account
    assert main(["user", "unlock", "organizer"]) == 0
    assert "5 failed sign-in(s) forgotten" in capsys.readouterr().out
    assert not FailedAttempt.objects.filter(scope="login").exists()
    assert _login("organizer", PASSWORD, "192.168.1.30") == 302


def test_the_first_account_name_is_not_a_default_to_guess(monkeypatch: pytest.MonkeyPatch) -> None:
    names = {first_account_name() for _ in range(20)}
    assert len(names) == 20 and all(n.startswith("organizer-") and len(n) == 16 for n in names)
    monkeypatch.setenv("TAIKAI_FIRST_USER", "tanaka")
    assert first_account_name() == "tanaka"
