"""The venue and its follower in one process: ordered, versioned changes, signed messages, actions applied once.

Both sides share the test database here (the copies live in the follow tables, the venue's state in the events
tables, under the same event ids); tests/follow/test_follow_live.py runs them as two real servers."""

from __future__ import annotations

import datetime as dt
import json

import httpx
import pytest
from django.test import Client
from django.utils import timezone

from taikai.events.actors import Staff
from taikai.follow import api_views, copies, follower, protocol
from taikai.follow.models import CopiedDocument, FollowedEvent
from tests.factories import World, build_world
from tests.follow._sync import A_WINS, caught_up, follower_get, venue_pusher

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db: None) -> World:
    return build_world()


API = ["", "/players", "/rounds", "/rounds/1", "/rounds/1/matches", "/standings", "/placings", "/bracket"]


def test_the_follower_answers_the_venues_public_api_byte_for_byte(world: World) -> None:
    pusher = venue_pusher()
    caught_up(pusher)
    venue = Client()
    row = FollowedEvent.objects.get(event_id=world.event.pk)
    assert row.version > 0 and row.name == world.event.name
    for path in API + [f"/matches/{world.match().pk}"]:
        for query in ("", "?limit=3&offset=2"):
            url = f"/api/v1/events/{world.event.pk}{path}{query}"
            ours = venue.get(url)
            assert ours.status_code == 200, url
            theirs = follower_get(url)
            assert theirs.content == ours.content, url
            assert theirs["ETag"] == ours["ETag"]
            assert theirs["X-Taikai-Venue-Version"] == str(row.version)


def test_a_result_confirmed_at_the_venue_reaches_the_follower_on_the_next_turn(world: World) -> None:
    from taikai.events.services import results
    from taikai.events.services.result_input import ResultInput

    pusher = venue_pusher()
    caught_up(pusher)
    before = FollowedEvent.objects.get(event_id=world.event.pk).version
    m = world.match()
    results.enter_result(
        m, by=Staff(world.organizer), result=ResultInput.from_json({"duels": [{"winner": "A"}, {"winner": "A"}]})
    )
    pusher.turn()
    row = FollowedEvent.objects.get(event_id=world.event.pk)
    assert row.version > before
    (copied,) = [x for x in copies.document(row, "matches/1") if x["id"] == str(m.pk)]
    assert copied["status"] == "confirmed" and copied["duels"]["a"] == 2
    # Nothing moved: the next turn sends no change and the version stays.
    pusher.turn()
    assert FollowedEvent.objects.get(event_id=world.event.pk).version == row.version


def test_a_change_applies_only_on_the_version_before_it(world: World) -> None:
    token, _raw = follower.create_token()
    now = timezone.now()
    first = {"event": "7", "base": 0, "version": 10, "venue_time": now.isoformat(), "documents": {"event": {"n": 1}}}
    assert follower.apply_change(token, first, now=now) == {"version": 10, "applied": True}
    # The same change again (its answer was lost) and an older one: neither applies, the answer says 10.
    assert follower.apply_change(token, first, now=now) == {"version": 10, "applied": False}
    late = {**first, "base": 3, "version": 9, "documents": {"event": {"n": 0}}}
    assert follower.apply_change(token, late, now=now) == {"version": 10, "applied": False}
    assert copies.document(FollowedEvent.objects.get(event_id=7), "event") == {"n": 1}
    # The next one on 10 applies; a document sent as null is removed.
    nxt = {**first, "base": 10, "version": 12, "documents": {"event": None, "standings": []}}
    assert follower.apply_change(token, nxt, now=now)["applied"]
    assert set(CopiedDocument.objects.values_list("name", flat=True)) == {"standings"}


def test_another_venues_event_of_the_same_id_is_refused(world: World) -> None:
    mine, _ = follower.create_token()
    theirs, _ = follower.create_token()
    now = timezone.now()
    change = {"event": "7", "base": 0, "version": 1, "venue_time": now.isoformat(), "documents": {}}
    assert follower.apply_change(mine, change, now=now)["applied"]
    assert follower.apply_change(theirs, change, now=now) == {
        "version": 0,
        "applied": False,
        "refused": "event-followed-elsewhere",
    }


def test_a_message_not_signed_with_the_pairing_is_refused_whole(world: World) -> None:
    row, token = follower.create_token()
    now = timezone.now()
    change = {"event": "7", "base": 0, "version": 1, "venue_time": now.isoformat(), "documents": {"event": {}}}
    body = protocol.encode({"changes": [change]}, now=now)
    with pytest.raises(protocol.BadMessage, match="bad-signature"):
        follower.receive(row.prefix, body, protocol.sign(protocol.key_of(token + "x"), body))
    with pytest.raises(protocol.BadMessage, match="bad-signature"):
        follower.receive(row.prefix, body.replace(b'"version":1', b'"version":2'), protocol.sign(row.key, body))
    with pytest.raises(protocol.BadMessage, match="unknown-token"):
        follower.receive("fw_nothing", body, protocol.sign(row.key, body))
    old = protocol.encode({"changes": [change]}, now=now - dt.timedelta(minutes=6))
    with pytest.raises(protocol.BadMessage, match="too-old"):
        follower.receive(row.prefix, old, protocol.sign(row.key, old))
    assert not FollowedEvent.objects.exists()
    follower.revoke_token(row.prefix)
    with pytest.raises(protocol.BadMessage, match="unknown-token"):
        follower.receive(row.prefix, body, protocol.sign(row.key, body))
    # The genuine message goes through, and its answer is signed with the same key.
    row.revoked_at = None
    row.save()
    answer = follower.receive(row.prefix, body, protocol.sign(row.key, body))
    assert protocol.decode(row.key, answer.body, answer.signature, now=now)["events"]["7"]["applied"]


def test_the_follower_counts_the_clock_down_itself(world: World) -> None:
    pusher = venue_pusher()
    caught_up(pusher)
    row = FollowedEvent.objects.get(event_id=world.event.pk)
    stored = json.loads(copies.text(row, "clock") or "{}")
    assert "server_time" not in stored and "remaining" not in stored
    now = timezone.now().timestamp()
    clock = copies.clock(row, now)
    assert clock is not None and clock["status"] == "running"
    assert abs(clock["remaining"] - (stored["_ends"] - now)) < 0.2
    later = copies.clock(row, now + world.round.time_limit_seconds + 5)
    assert later is not None and later["status"] == "time" and later["remaining"] == 0.0
    assert api_views.MAX_LIMIT == 200


def test_a_change_whose_answer_was_lost_is_not_applied_twice_and_the_copy_catches_up(world: World) -> None:
    from taikai.events.services import results
    from taikai.events.services.result_input import ResultInput

    pusher = venue_pusher()
    caught_up(pusher)
    real = pusher.client
    assert real is not None
    lost = {"n": 0}

    def drop_answer(request: httpx.Request) -> httpx.Response:
        real.send(request)  # the follower applies it ...
        lost["n"] += 1
        raise httpx.ReadError("link cut")  # ... and its answer never arrives

    pusher.client = httpx.Client(transport=httpx.MockTransport(drop_answer))
    m = world.match()
    results.enter_result(m, by=Staff(world.organizer), result=ResultInput.from_json(A_WINS))
    with pytest.raises(httpx.ReadError):
        pusher.turn()
    held = FollowedEvent.objects.get(event_id=world.event.pk).version
    pusher.client = real
    caught_up(pusher)  # resent on the old version: refused, the venue asks what is held and sends the difference
    assert lost["n"] == 1
    row = FollowedEvent.objects.get(event_id=world.event.pk)
    assert row.version == held  # nothing new happened since: the copy already held it
    venue = Client()
    url = f"/api/v1/events/{world.event.pk}/rounds/1/matches"
    assert follower_get(url).content == venue.get(url).content


def test_the_event_page_says_how_old_the_copy_is_and_pairs_by_name(world: World) -> None:
    from django.test import RequestFactory

    from taikai.follow import pages

    pusher = venue_pusher()
    caught_up(pusher)
    request = RequestFactory().get(f"/e/{world.event.pk}/?view=name")
    request.LANGUAGE_CODE = "ja"
    html = pages.event_page(request, world.event.pk).content.decode()
    assert "会場の最終更新: " in html and "会場と接続中" in html
    names = [p.name for p in world.event.players.all()]
    positions = sorted(html.index(n) for n in names)
    assert len(positions) == len(names)
    row = FollowedEvent.objects.get(event_id=world.event.pk)
    token = row.token
    token.last_contact_at = timezone.now() - dt.timedelta(minutes=2)
    token.save()
    html = pages.event_page(RequestFactory().get(f"/e/{world.event.pk}/"), world.event.pk).content.decode()
    assert "会場から 120 秒連絡がありません" in html


def test_the_dashboard_says_whether_the_public_pages_are_connected(world: World) -> None:
    from taikai.follow.models import PushLink

    pusher = venue_pusher()
    caught_up(pusher)
    pusher._connected(True)
    client = Client()
    client.force_login(world.organizer)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "公開ページ: http://follower.test 接続中" in page
    PushLink.objects.update(last_ok_at=timezone.now() - dt.timedelta(minutes=5))  # serve stopped stamping
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "公開ページ: http://follower.test 接続が切れています" in page


def test_a_first_copy_larger_than_one_message_goes_over_several_turns(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    from taikai.follow import venue

    monkeypatch.setattr(venue, "MAX_MESSAGE", 1500)  # a few documents a turn
    sizes: list[int] = []
    pusher = venue_pusher()
    assert pusher.client is not None
    real = pusher.client

    def measured(request: httpx.Request) -> httpx.Response:
        sizes.append(len(request.content))
        return real.send(request)

    pusher.client = httpx.Client(transport=httpx.MockTransport(measured))
    for _ in range(40):
        pusher.turn()
    assert len([s for s in sizes if s > 1000]) >= 3  # the copy came in parts
    assert max(sizes) < 1500 + 8000  # one part: the budget, or a single document larger than it
    venue_client = Client()
    for path in API:
        url = f"/api/v1/events/{world.event.pk}{path}"
        assert follower_get(url).content == venue_client.get(url).content, url


def test_the_console_says_once_why_the_follower_refuses(world: World) -> None:
    pusher = venue_pusher()
    follower.revoke_token(protocol.prefix_of(pusher.token))
    lines: list[str] = []
    pusher.say = lines.append
    for _ in range(3):
        with pytest.raises(protocol.BadMessage, match="unknown-token") as refused:
            pusher.turn()
        pusher.failed(refused.value)
    assert [line for line in lines if "the token is unknown or revoked" in line] == [
        "taikai: 公開フォロワー / public follower: トークンが無効か取り消されています / "
        "the token is unknown or revoked on the follower"
    ]
    assert (
        lines.count(
            "taikai: 公開ページ / public pages: http://follower.test 接続が切れています (disconnected, retrying)"
        )
        == 1
    )
