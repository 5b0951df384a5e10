"""One hostile client cannot stall the venue or lock out the staff (issue 16: H2, M1, M3, M4).

Each test reproduces a finding of the attack run, bounded in count and time: PIN hashing inside the writer
lock and PIN loops (M1), sign-in lockouts caused by other people and rotating addresses (M3), floods of
anonymous registrations and spectator reports (M4).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from taikai.db import heavy
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Player
from taikai.events.services import links, recovery
from taikai.judging.models import JudgeCall
from taikai.security import rates, throttle
from taikai.security.hashers import PinHasher
from taikai.security.models import RateHit
from tests.factories import World, make_user, new_event

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _fast_hashes(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", "taikai.security.hashers.PinHasher"]


def _login(client: Client, password: str, username: str = "head_x", **extra: Any) -> Any:
    return client.post("/login/", {"username": username, "password": password}, **extra)


# --- H2 / M1: hashing never runs inside the write transaction ------------------------------------------------


def test_a_pin_is_hashed_before_the_write_transaction(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    organizer = make_user("org_h", organizer=True)
    player = new_event(organizer, 1).players.get()
    seen: list[bool] = []
    real = make_password

    def watching(pin: str, **options: Any) -> str:
        seen.append(heavy.in_write_transaction())
        return real(pin, **options)

    monkeypatch.setattr(recovery, "make_password", watching)
    recovery.set_pin(player, pin="864213")
    assert seen == [False]  # before: True, and 16 PIN loops made every staff write wait seconds
    player.refresh_from_db()
    assert player.pin_hash.startswith("taikai_pin_argon2$argon2id$")


def test_a_pin_costs_one_core_for_milliseconds_not_both_cores_for_a_third_of_a_second(db: None) -> None:
    """Under attack, five PIN changes in a row with Django's default Argon2 (100 MiB, 8 lanes: ~300 ms of
    both cores each) stalled every result report (make bench: attack). A PIN hash uses one lane, 19 MiB."""
    from django.contrib.auth.hashers import check_password, identify_hasher

    encoded = make_password("864213", hasher=recovery.PIN_HASHER)
    hasher = identify_hasher(encoded)
    assert isinstance(hasher, PinHasher) and (hasher.parallelism, hasher.memory_cost) == (1, 19456)
    assert "$m=19456,t=2,p=1$" in encoded and check_password("864213", encoded)
    assert not check_password("864214", encoded)


def test_heavy_work_inside_a_write_transaction_is_refused(db: None) -> None:
    organizer = make_user("org_w", organizer=True)
    player = new_event(organizer, 1).players.get()
    with transaction.atomic(), pytest.raises(heavy.HeavyWorkInWriteTransaction):
        recovery.set_pin(player, pin="864213")
    assert Player.objects.get(pk=player.pk).pin_hash == ""
    assert heavy.in_write_transaction() is False


def test_a_pin_change_loop_on_one_link_is_throttled(db: None) -> None:
    organizer = make_user("org_p", organizer=True)
    event = new_event(organizer, 1)
    token = links.issue_access(event.players.get(), by=player_services_staff(organizer))
    client = Client()
    for i in range(rates.PIN_PER_PLAYER.limit):
        assert client.post(f"/p/{token}/pin/", {"pin": f"86421{i}"}).status_code == 302
    refused = client.post(f"/p/{token}/pin/", {"pin": "999999"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 14 * 60
    assert "短い間に操作が続いたため" in refused.content.decode()
    # Another address does not get around it: the limit is the player's.
    assert Client(REMOTE_ADDR="10.1.1.1").post(f"/p/{token}/pin/", {"pin": "999999"}).status_code == 429


def player_services_staff(user: User) -> Staff:
    return Staff(user)


def test_new_pins_have_six_digits_and_old_four_digit_pins_still_recover(db: None) -> None:
    organizer = make_user("org_6", organizer=True)
    event = new_event(organizer, 1)
    player = event.players.get()
    with pytest.raises(ServiceError) as refused:
        recovery.set_pin(player, pin="4321")
    assert refused.value.problem.code == "bad-pin"
    with pytest.raises(ServiceError):
        recovery.set_pin(player, pin="４３２１")  # full-width digits are still four digits
    Player.objects.filter(pk=player.pk).update(pin_hash=make_password("4321"))  # chosen before the change
    got, _ = recovery.recover_access(event, card_game_id=player.card_game_id, pin="4321")
    assert got == player


# --- M3: throttling per account and per address; known devices ----------------------------------------------


def test_rotating_addresses_meet_the_per_name_limit(db: None) -> None:
    make_user("head_x", password=PASSWORD)
    for i in range(throttle.NAME_LIMIT):
        assert _login(Client(), "wrong", REMOTE_ADDR=f"10.2.0.{i}").status_code == 200
    # Before: 60 wrong passwords from rotated addresses never met a 429. Now a fresh address gets two tries
    # (so a guesser elsewhere never locks the owner out: issue 25, item 12), then the name's lock holds there.
    fresh = [_login(Client(), "wrong", REMOTE_ADDR="10.2.1.1").status_code for _ in range(3)]
    assert fresh == [200] * throttle.UNDER_ATTACK_TRIES + [429]


def test_a_four_digit_pin_does_not_fall_to_a_guesser_rotating_addresses(db: None) -> None:
    organizer = make_user("org_g", organizer=True)
    event = new_event(organizer, 1)
    player = event.players.get()
    Player.objects.filter(pk=player.pk).update(pin_hash=make_password("0042"))
    url = f"/e/{event.pk}/recover/"
    answers = [
        Client(REMOTE_ADDR=f"10.3.0.{n}").post(url, {"card_game_id": player.card_game_id, "pin": f"{n:04d}"})
        for n in range(43)  # before: the PIN fell in 43 tries
    ]
    assert [a.status_code for a in answers[: throttle.NAME_LIMIT]] == [200] * throttle.NAME_LIMIT
    assert {a.status_code for a in answers[throttle.NAME_LIMIT :]} == {429}


def test_other_peoples_failures_never_lock_out_a_known_device(db: None) -> None:
    make_user("head_x", password=PASSWORD)
    known = Client()
    assert _login(known, PASSWORD).status_code == 302  # the head judge's own phone, signed in before
    assert throttle.DEVICE_COOKIE in known.cookies
    known.post("/logout/")
    # Someone on the same venue address sprays names and hammers the head judge's name; others elsewhere too.
    for i in range(throttle.ADDRESS_LIMIT):
        _login(Client(), "wrong", username=f"guess{i}")
    for i in range(throttle.NAME_LIMIT):
        _login(Client(), "wrong", REMOTE_ADDR=f"10.4.0.{i}")
    assert _login(Client(), PASSWORD).status_code == 429  # a stranger's browser stays locked out
    # Before: the head judge was locked out with the right password. Now the known device signs in.
    assert _login(known, PASSWORD).status_code == 302
    # The known device has its own small count: a stolen cookie does not guess forever.
    known.post("/logout/")
    for _ in range(throttle.LIMIT):
        assert _login(known, "wrong").status_code == 200
    assert _login(known, PASSWORD).status_code == 429


def test_a_forged_device_cookie_is_not_a_known_device(db: None) -> None:
    make_user("head_x", password=PASSWORD)
    for i in range(throttle.NAME_LIMIT):
        _login(Client(), "wrong", REMOTE_ADDR=f"10.5.0.{i}")
    forged = Client()
    forged.cookies[throttle.DEVICE_COOKIE] = "eyJpZCI6ImEiLCJuIjpbXX0:forged"
    for _ in range(throttle.UNDER_ATTACK_TRIES):  # counted for its address, not as a device
        assert _login(forged, "wrong").status_code == 200
    assert _login(forged, PASSWORD).status_code == 429


# --- M4: anonymous registrations and spectator reports -------------------------------------------------------


def test_self_registration_is_limited_per_address_and_per_event(db: None) -> None:
    organizer = make_user("org_m4", organizer=True)
    event = new_event(organizer, 0)
    url = f"/e/{event.pk}/register/"
    phone = Client()
    for i in range(rates.REGISTER_PER_ADDRESS.limit):
        answer = phone.post(url, {"name": f"スパム{i}", "card_game_id": f"90000000{i:02d}"})
        assert answer.status_code == 302  # registered: redirected to the new player's link (issue 24)
    assert phone.post(url, {"name": "もう一人", "card_game_id": "9000000099"}).status_code == 429
    # Per event: a botnet of addresses meets the event's limit (made small here to keep the test short; since
    # issue 25 each event's organizer sets it).
    from taikai.events.actors import Staff
    from taikai.security.services import set_limits

    set_limits(event, by=Staff(organizer), version=0, register_per_event=12)
    RateHit.objects.all().delete()
    codes = [
        Client(REMOTE_ADDR=f"10.6.0.{i}").post(url, {"name": f"b{i}", "card_game_id": f"91000000{i:02d}"}).status_code
        for i in range(15)
    ]
    assert codes == [302] * 12 + [429] * 3
    # Before: 100 registrations in 1.3 s. Now at most the limits.
    assert event.players.count() == rates.REGISTER_PER_ADDRESS.limit + 12


def test_spectator_reports_are_limited_per_address(world: World) -> None:
    url = f"/e/{world.event.pk}/report/"
    codes = [Client().post(url, {"table": "1", "description": f"spam {i}"}).status_code for i in range(8)]
    limit = rates.REPORT_PER_ADDRESS.limit
    assert codes == [302] * limit + [429] * (8 - limit)  # before: 200 reports in 3.4 s
    assert JudgeCall.objects.filter(event=world.event, source="spectator").count() == limit


def test_rate_hits_leave_the_window(db: None) -> None:
    rate = rates.Rate("t", 2, dt.timedelta(minutes=1))
    now = timezone.now()
    assert rates.take((rate, "x"), now=now) == 0
    assert rates.take((rate, "x"), now=now) == 0
    assert rates.take((rate, "x"), now=now) == 60
    assert rates.take((rate, "x"), now=now + dt.timedelta(seconds=61)) == 0


def test_the_organizer_removes_spam_registrations_in_one_action(db: None) -> None:
    organizer = make_user("org_s", organizer=True)
    event = new_event(organizer, 2)  # two registered at the desk
    for i in range(5):
        Client(REMOTE_ADDR=f"10.7.0.{i}").post(
            f"/e/{event.pk}/register/", {"name": f"スパム{i}", "card_game_id": f"92000000{i:02d}"}
        )
    assert event.players.count() == 7
    staff = Client()
    staff.force_login(organizer)
    answer = staff.post(f"/events/{event.pk}/players/remove-spam/", {"minutes": "30"}, follow=True)
    assert "5 件の自己登録を削除しました" in answer.content.decode()
    assert sorted(event.players.values_list("name", flat=True)) == ["選手0000", "選手0001"]  # the desk's stay
    from taikai.audit.models import AuditEntry

    entry = AuditEntry.objects.get(action="taikai.player.spam_registrations_removed")
    assert len(entry.before["players"]) == 5  # who was removed stays in the record


def test_a_judge_dismisses_a_flood_of_spectator_reports_in_one_action(world: World) -> None:
    for i in range(4):
        Client(REMOTE_ADDR=f"10.8.0.{i}").post(f"/e/{world.event.pk}/report/", {"table": "1", "description": f"x{i}"})
    spam = JudgeCall.objects.filter(event=world.event, source="spectator")
    assert spam.filter(status="open").count() == 4
    judge = Client()
    judge.force_login(world.judge)
    judge.post(f"/events/{world.event.pk}/judging/reports/dismiss-spam/", {"minutes": "60"})
    assert set(spam.values_list("status", "ruling")) == {("closed", "spam")}


def test_a_deck_list_loop_on_one_link_is_refused_after_a_few(db: None) -> None:
    """Each list is a whole deck check: a player's own page refuses a loop of them (the API does the same)."""
    organizer = make_user("org_d", organizer=True)
    event = new_event(organizer, 1)
    token = links.issue_access(event.players.get(), by=player_services_staff(organizer))
    client = Client()
    form = {"text": "3 灰流うらら", "languages": ["ja"]}
    answers = [client.post(f"/p/{token}/deck/", form).status_code for _ in range(rates.DECK_PER_PLAYER.limit + 1)]
    assert answers == [302] * rates.DECK_PER_PLAYER.limit + [429]
