"""`taikai token create --scope follow` on the follower, `token list` and `token revoke` for it, and the
settings that turn a taikai into a venue with a follower or into a follower."""

from __future__ import annotations

import pytest

from taikai.cli import main
from taikai.config import ConfigError
from taikai.follow import config, protocol
from taikai.follow.models import FollowToken

pytestmark = pytest.mark.django_db


def taikai(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_follow_token_is_printed_once_and_only_its_key_is_kept(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = taikai(capsys, monkeypatch, "token", "create", "--scope", "follow", "--label", "原宿 会場")
    assert (code, err) == (0, "")
    token = out.strip().splitlines()[-1]
    assert token.startswith(protocol.TOKEN_PREFIX)
    row = FollowToken.objects.get()
    assert row.key == protocol.key_of(token) and token not in row.key and row.label == "原宿 会場"
    code, out, _ = taikai(capsys, monkeypatch, "token", "list")
    assert code == 0 and f"{row.prefix}\t-\tfollow\t-\tactive\t原宿 会場" in out
    code, out, _ = taikai(capsys, monkeypatch, "token", "revoke", row.prefix)
    assert code == 0 and row.prefix in out
    row.refresh_from_db()
    assert row.revoked_at is not None


def test_an_account_token_still_needs_its_user_name(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = taikai(capsys, monkeypatch, "token", "create")
    assert code == 2 and out == "" and "USERNAME" in err


def test_a_venue_names_both_the_follower_and_its_token_or_neither() -> None:
    assert config.target({}) is None
    found = config.target({"TAIKAI_FOLLOWER_URL": "https://follow.example.jp/", "TAIKAI_FOLLOWER_TOKEN": "fw_x"})
    assert found == config.Target("https://follow.example.jp", "fw_x")
    with pytest.raises(ConfigError, match="TAIKAI_FOLLOWER_TOKEN"):
        config.target({"TAIKAI_FOLLOWER_URL": "https://follow.example.jp"})
    with pytest.raises(ConfigError, match="TAIKAI_FOLLOWER_URL"):
        config.target({"TAIKAI_FOLLOWER_URL": "ftp://x/y", "TAIKAI_FOLLOWER_TOKEN": "fw_x"})
    assert config.role({}) == "venue" and config.role({"TAIKAI_ROLE": "Follower"}) == "follower"
    with pytest.raises(ConfigError, match="TAIKAI_ROLE"):
        config.role({"TAIKAI_ROLE": "mirror"})


def test_push_once_fails_plainly_when_the_follower_does_not_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _out, err = taikai(
        capsys, monkeypatch, "follow", "push", "--to", "http://127.0.0.1:9", "--token", "fw_x", "--once"
    )
    assert code == 1 and "the follower did not answer" in err
