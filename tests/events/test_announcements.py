"""Announcements (issue 24, item 19): the organizer's short message, validated, length-capped, audited, made on
the one the organizer saw; the projector and every player's page show it, and the projector shows the standings
between Swiss rounds."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events import actions
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.errors import Conflict, PermissionDenied, ServiceError
from taikai.events.models import Announcement, Event
from taikai.events.services import announcements
from taikai.events.services import links as link_services
from taikai.events.services import rounds as round_services
from tests.events.test_organizer_desk import _play
from tests.factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organizer: User) -> Event:
    return make_event(organizer, 4)


def _code(exc: pytest.ExceptionInfo[ServiceError]) -> str:
    return exc.value.problem.code


def test_an_announcement_is_shown_and_audited(organizer: User, event: Event) -> None:
    made = announcements.announce(event, by=Staff(organizer), text="  13時から昼休憩です\r\n再開は13:45  ", seen=0)
    assert announcements.current(event.pk) == made and made.text == "13時から昼休憩です\n再開は13:45"
    entry = AuditEntry.objects.get(action=actions.ANNOUNCEMENT_SENT)
    assert entry.after == {"text": made.text} and entry.before == {"text": ""} and entry.actor_label == "organizer"


def test_clearing_hides_it_and_is_audited_too(organizer: User, event: Event) -> None:
    first = announcements.announce(event, by=Staff(organizer), text="休憩中", seen=0)
    announcements.announce(event, by=Staff(organizer), text="", seen=first.pk)
    assert announcements.current(event.pk) is None
    assert AuditEntry.objects.get(action=actions.ANNOUNCEMENT_CLEARED).before == {"text": "休憩中"}
    with pytest.raises(ServiceError) as exc:  # nothing to clear
        announcements.announce(event, by=Staff(organizer), text=" ", seen=announcements.seen_id(event.pk))
    assert _code(exc) == "required"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("x" * (announcements.MAX_CHARS + 1), "too-long"),
        ("bell\x07", "bad-characters"),
        ("\u202eevil", "bad-characters"),
    ],
)
def test_a_bad_message_is_refused_and_nothing_is_written(organizer: User, event: Event, text: str, code: str) -> None:
    with pytest.raises(ServiceError) as exc:
        announcements.announce(event, by=Staff(organizer), text=text, seen=0)
    assert _code(exc) == code
    assert (
        not Announcement.objects.exists() and not AuditEntry.objects.filter(action=actions.ANNOUNCEMENT_SENT).exists()
    )


def test_the_cap_counts_characters_not_bytes(organizer: User, event: Event) -> None:
    text = "あ" * announcements.MAX_CHARS
    assert announcements.announce(event, by=Staff(organizer), text=text, seen=0).text == text


def test_a_message_sent_on_a_stale_page_does_not_replace_one_unseen(organizer: User, event: Event) -> None:
    announcements.announce(event, by=Staff(organizer), text="第1ラウンド開始", seen=0)
    with pytest.raises(Conflict) as exc:
        announcements.announce(event, by=Staff(organizer), text="休憩", seen=0)
    assert exc.value.problem.params == {"text": "第1ラウンド開始"}
    assert announcements.current(event.pk).text == "第1ラウンド開始"


def test_only_the_organizer_announces(event: Event) -> None:
    player = event.players.first()
    assert player is not None
    with pytest.raises(PermissionDenied):
        announcements.announce(event, by=PlayerSelf(player), text="全員ドロップ", seen=0)


def test_the_projector_and_a_players_page_show_it(client: Client, organizer: User, event: Event) -> None:
    announcements.announce(event, by=Staff(organizer), text="ジャッジは本部へ", seen=0)
    player = event.players.first()
    assert player is not None
    token = link_services.issue_access(player, by=Staff(organizer))
    for url in (f"/e/{event.pk}/projector/", f"/p/{token}/"):
        html = client.get(url).content.decode()
        assert "ジャッジは本部へ" in html and 'id="announcement"' in html, url
    body = client.get(f"/e/{event.pk}/announcement.json").json()
    assert body["text"] == "ジャッジは本部へ" and body["id"] == announcements.seen_id(event.pk)


def test_the_console_form_sends_and_keeps_a_refused_text(client: Client, organizer: User, event: Event) -> None:
    client.force_login(organizer)
    url = f"/events/{event.pk}/announcement/"
    assert client.post(url, {"text": "デッキチェック中", "seen": "0"}).status_code == 302
    assert announcements.current(event.pk).text == "デッキチェック中"
    refused = client.post(url, {"text": "古いページから", "seen": "0"}, follow=True).content.decode()
    assert "ほかの人が先にお知らせを変えました" in refused and "古いページから</textarea>" in refused


def test_the_projector_shows_the_standings_between_swiss_rounds(client: Client, organizer: User, event: Event) -> None:
    rnd = round_services.pair_next_round(event, by=Staff(organizer), seed=1)
    assert "終了時点の順位" not in client.get(f"/e/{event.pk}/projector/").content.decode()
    _play(event, organizer, rnd)
    html = client.get(f"/e/{event.pk}/projector/").content.decode()
    assert "第1ラウンド終了時点の順位" in html and "勝ち点3 · 1-0-0" in html
    round_services.pair_next_round(event, by=Staff(organizer), seed=1)
    assert "終了時点の順位" not in client.get(f"/e/{event.pk}/projector/").content.decode()
