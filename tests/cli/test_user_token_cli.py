"""`taikai user create|list` and `taikai token create|list|revoke`: accounts and API tokens without the pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.test import Client

from taikai.cli import main
from taikai.events.site_roles import is_organizer
from taikai.tokens.models import ApiToken
from taikai.tokens.services import hash_token, token_user
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def taikai(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_user_create_prints_a_password_that_signs_in(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = taikai(capsys, monkeypatch, "user", "create", "suzuki", "--organizer")
    assert (code, err) == (0, "")
    password = out.strip().splitlines()[-1]
    user = authenticate(username="suzuki", password=password)
    assert user is not None and is_organizer(user)
    assert password not in user.password  # stored as a hash only


def test_an_existing_name_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert taikai(capsys, monkeypatch, "user", "create", "tanaka")[0] == 0
    code, out, err = taikai(capsys, monkeypatch, "user", "create", "tanaka")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "tanaka" in err
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert main(["user", "create", "tanaka"]) == 2
    assert "使われています" in capsys.readouterr().err


def test_user_list_names_organizers_and_staff(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    taikai(capsys, monkeypatch, "user", "create", "boss", "--organizer")
    taikai(capsys, monkeypatch, "user", "create", "floor")
    code, out, _err = taikai(capsys, monkeypatch, "user", "list")
    lines = dict(line.split("\t")[:2] for line in out.strip().splitlines())
    assert code == 0 and lines == {"boss": "organizer", "floor": "staff"}


def test_a_site_token_is_the_last_line_and_stored_hashed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    taikai(capsys, monkeypatch, "user", "create", "boss", "--organizer")
    code, out, err = taikai(capsys, monkeypatch, "token", "create", "boss", "--expires", "30")
    assert (code, err) == (0, "")
    token = out.strip().splitlines()[-1]
    assert token.startswith("tk_") and " " not in token
    row = ApiToken.objects.get(token_hash=hash_token(token))
    assert row.event is None and row.role == "organizer" and row.expires_at is not None
    assert not ApiToken.objects.filter(token_hash=token).exists()


def test_an_event_token_is_capped_at_the_users_role_there(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    organizer: User,
) -> None:
    from taikai.events.actors import Staff
    from taikai.events.services import events as event_services

    event = make_event(organizer, 0)
    taikai(capsys, monkeypatch, "user", "create", "floor")
    event_services.assign_staff(event, by=Staff(organizer), username="floor", role="judge")
    code, out, _err = taikai(capsys, monkeypatch, "token", "create", "floor", "--event", str(event.pk))
    assert code == 0
    row = ApiToken.objects.get(token_hash=hash_token(out.strip().splitlines()[-1]))
    assert (row.event_id, row.role) == (event.pk, "judge")  # asked for organizer by default: capped at judge
    code, out, _err = taikai(
        capsys, monkeypatch, "token", "create", "organizer", "--event", str(event.pk), "--role", "head_judge"
    )
    assert ApiToken.objects.get(token_hash=hash_token(out.strip().splitlines()[-1])).role == "head_judge"
    taikai(capsys, monkeypatch, "user", "create", "stranger")
    code, out, err = taikai(capsys, monkeypatch, "token", "create", "stranger", "--event", str(event.pk))
    assert code == 2 and out == "" and err.count("\n") == 1
    code, _out, err = taikai(capsys, monkeypatch, "token", "create", "floor", "--event", "999999")
    assert code == 2 and "999999" in err


def test_a_revoked_token_signs_in_no_more(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    client: Client,
    organizer: User,
) -> None:
    taikai(capsys, monkeypatch, "user", "create", "boss", "--organizer")
    token = taikai(capsys, monkeypatch, "token", "create", "boss")[1].strip().splitlines()[-1]
    assert token_user(token) is not None
    code, out, _err = taikai(capsys, monkeypatch, "token", "list", "boss")
    prefix = out.split("\t")[0]
    assert code == 0 and token.startswith(prefix) and "site" in out and "active" in out
    assert taikai(capsys, monkeypatch, "token", "revoke", prefix)[0] == 0
    assert token_user(token) is None
    body = '{"name": "x", "date": "2027-01-01", "ruleset": "dkt-2011", "format": "swiss"}'
    r = client.post("/api/v1/events", body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert r.status_code == 401
    capsys.readouterr()  # the server's log line of the refused request
    code, _out, err = taikai(capsys, monkeypatch, "token", "revoke", "tk_nothere")
    assert code == 2 and err.count("\n") == 1
