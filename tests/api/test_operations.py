"""The operations of issue 17 one by one: site tokens and their reach, staff, prizes and their publication,
appeals, judge calls, time extensions, the time procedure, and webhooks delivered to a local server."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings

from taikai.config import load_webhooks
from taikai.events.actors import Staff, System
from taikai.events.models import Event, Match
from taikai.events.services import clock as clock_services
from taikai.events.services import links, registration
from taikai.events.services import rounds as round_services
from taikai.judging.models import JudgeCall
from taikai.tokens.services import create_site_token, create_token
from taikai.webhooks import delivery
from taikai.webhooks.models import Webhook
from tests.factories import Api, make_event, staff_user

pytestmark = pytest.mark.django_db


def _site(client: Client, username: str) -> Api:
    return Api(client, token=create_site_token(by=System("test"), username=username)[1])


def test_a_site_token_acts_only_where_its_user_holds_a_role(client: Client, organizer: User) -> None:
    mine = make_event(organizer, 4)
    other_owner = staff_user(organizer, mine, "other", "judge")
    theirs = make_event(organizer, 4, name="別の大会")
    from taikai.events.services import events as event_services

    event_services.assign_staff(theirs, by=Staff(organizer), username="other", role="organizer")
    api = _site(client, other_owner.username)
    # An organizer where they organize: pairs the round. A judge where they judge: may not.
    assert api.post(f"/events/{theirs.pk}/rounds").status_code == 201
    r = api.post(f"/events/{mine.pk}/rounds")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not-organizer"
    # Not a site organizer: creates no events.
    body = {"name": "x", "date": "2027-01-01", "ruleset": "dkt-2011", "format": "swiss"}
    assert api.post("/events", body).json()["error"]["code"] == "not-organizer"
    # A superuser's site token is no master key: it acts only where its user holds a role.
    stranger = make_event(organizer, 4, name="三つ目")
    root = _site(client, organizer.username)
    from taikai.events.models import StaffRole

    StaffRole.objects.filter(event=stranger, user=organizer).delete()
    r = root.post(f"/events/{stranger.pk}/rounds")
    assert r.status_code == 403
    # An event's token creates no events.
    _row, event_token = create_token(mine, by=Staff(organizer), username=organizer.username, role="organizer")
    r = Api(client, token=event_token).post("/events", body)
    assert r.status_code == 403 and r.json()["error"]["code"] == "site-token-required"


def test_staff_are_removed_but_the_last_organizer_stays(organizer_api: Api, api_event: Event) -> None:
    staff_user(api_event.created_by, api_event, "floor", "judge")
    api = organizer_api
    r = api.client.delete(f"/api/v1/events/{api_event.pk}/staff/organizer", headers=api.headers())
    assert r.status_code == 400 and r.json()["error"]["code"] == "last-organizer"
    r = api.client.delete(f"/api/v1/events/{api_event.pk}/staff/nobody", headers=api.headers())
    assert r.status_code == 400 and r.json()["error"]["code"] == "not-event-staff"
    assert api.client.delete(f"/api/v1/events/{api_event.pk}/staff/floor", headers=api.headers()).status_code == 204
    names = [row["username"] for row in api.get(f"/events/{api_event.pk}/staff").json()["items"]]
    assert names == ["organizer"]


def _started(organizer: User) -> tuple[Event, Match]:
    event = make_event(organizer, 4, format="swiss_cut", swiss_rounds=1, top_cut=2)
    for p in event.players.all():
        registration.check_in(p, by=Staff(organizer))
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    return event, rnd.matches.filter(is_bye=False).order_by("table").first()


def test_prizes_are_for_staff_until_published(client: Client, organizer: User) -> None:
    event, _match = _started(organizer)
    head = staff_user(organizer, event, "head", "head_judge")
    boss = Api(client, token=create_token(event, by=Staff(organizer), username="organizer", role="organizer")[1])
    ranks = {"ranks": [{"label": "優勝", "first": 1, "last": 1}, {"label": "2位", "first": 2, "last": 2}]}
    r = boss.client.put(
        f"/api/v1/events/{event.pk}/prize-ranks",
        json.dumps(ranks),
        content_type="application/json",
        headers=boss.headers(),
    )
    assert r.status_code == 200 and [x["label"] for x in r.json()["ranks"]] == ["優勝", "2位"]
    public = Api(client)
    hidden = public.get(f"/events/{event.pk}/prizes")
    assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "prizes-not-published"
    judge = Api(client, token=create_token(event, by=Staff(organizer), username=head.username, role="judge")[1])
    assert judge.get(f"/events/{event.pk}/prizes").status_code == 200
    assert judge.post(f"/events/{event.pk}/prizes/publish").status_code == 403
    assert boss.post(f"/events/{event.pk}/prizes/publish").json()["published"] is True
    shown = public.get(f"/events/{event.pk}/prizes")
    assert shown.status_code == 200 and shown.json()["published"] is True


def test_an_appeal_overturned_by_the_head_judge_restores_the_match(client: Client, organizer: User) -> None:
    event, match = _started(organizer)
    head = staff_user(organizer, event, "head", "head_judge")
    floor = staff_user(organizer, event, "floor", "judge")
    judge = Api(client, token=create_token(event, by=Staff(organizer), username=floor.username, role="judge")[1])
    hj = Api(client, token=create_token(event, by=Staff(organizer), username=head.username, role="head_judge")[1])
    # PEN-1: a match loss decides the player's current match at once.
    body = {"player": str(match.player_a_id), "infraction": "INF-1", "rung": "match-loss", "reason": "test"}
    r = judge.post(f"/events/{event.pk}/penalties", body)
    assert r.status_code == 201, r.content
    change = r.json()["effects"]["matches"][0]
    assert change["match"] == str(match.pk) and change["table"] == match.table and change["round"] == 1
    assert change["before"]["status"] == "pending" and change["after"]["result"] == "b"
    pid = r.json()["id"]
    link = links.issue_access(match.player_a, by=Staff(organizer))  # the slip at the desk
    player = Api(client, player=link)
    assert player.post(f"/events/{event.pk}/penalties/{pid}/appeal", {"reason": "I did not"}).status_code == 201
    refused = judge.post(f"/events/{event.pk}/penalties/{pid}/decision", {"decision": "overturn"})
    assert refused.status_code == 403  # PEN-6: the head judge decides
    r = hj.post(f"/events/{event.pk}/penalties/{pid}/decision", {"decision": "overturn", "note": "no evidence"})
    assert r.status_code == 200 and r.json()["appeal"]["status"] == "overturned"
    assert r.json()["penalty"]["overturned"] is True
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING and match.result == ""
    again = hj.post(f"/events/{event.pk}/penalties/{pid}/decision", {"decision": "uphold"})
    assert again.status_code == 400 and again.json()["error"]["code"] == "no-open-appeal"


def test_judge_calls_extensions_and_the_time_procedure(client: Client, organizer: User) -> None:
    event, match = _started(organizer)
    floor = staff_user(organizer, event, "floor", "judge")
    judge = Api(client, token=create_token(event, by=Staff(organizer), username=floor.username, role="judge")[1])
    link = links.issue_access(match.player_a, by=Staff(organizer))  # the slip at the desk
    r = Api(client, player=link).post(f"/events/{event.pk}/calls", {"description": "ruling please"})
    assert r.status_code == 201 and r.json()["table"] == match.table and r.json()["source"] == "player"
    cid = r.json()["id"]
    assert [c["player"] for c in r.json()["callers"]] == [str(match.player_a_id)]
    # JUDGE-1: the opponent's call joins the table's one card; the record names both callers, with when and why.
    other = links.issue_access(match.player_b, by=Staff(organizer))
    r = Api(client, player=other).post(f"/events/{event.pk}/calls", {"description": "相手の処理について"})
    assert r.status_code == 201 and r.json()["id"] == cid
    queued = judge.get(f"/events/{event.pk}/calls").json()["items"]
    assert [c["id"] for c in queued] == [cid]
    callers = queued[0]["callers"]
    assert [(c["player"], c["name"], c["question"]) for c in callers] == [
        (str(match.player_a_id), match.player_a.name, "ruling please"),
        (str(match.player_b_id), match.player_b.name, "相手の処理について"),
    ]
    assert all(dt.datetime.fromisoformat(c["called_at"]) and c["withdrawn_at"] is None for c in callers)
    assert judge.post(f"/events/{event.pk}/calls/{cid}/take").json()["status"] == "taken"
    taken = JudgeCall.objects.get(pk=cid).taken_at
    JudgeCall.objects.filter(pk=cid).update(taken_at=taken - dt.timedelta(minutes=2))  # TIME-4: it took 2 minutes
    r = judge.post(
        f"/events/{event.pk}/calls/{cid}/ruling", {"ruling": "resolved", "extension_seconds": 120, "reason": "ruling"}
    )
    assert r.status_code == 200 and r.json()["status"] == "closed"
    assert judge.get(f"/events/{event.pk}/calls").json()["items"] == []
    # TIME-4: time added to one table, with a reason.
    r = judge.post(
        f"/events/{event.pk}/matches/{match.pk}/extension",
        {"seconds": 60, "reason": "deck check", "ruling_seconds": 90},
    )
    assert r.status_code == 200 and r.json()["extension_seconds"] == 180
    # The time procedure (TIME-E, TIME-S): time called during A's turn after A won the first duel.
    path = f"/events/{event.pk}/matches/{match.pk}/time-procedure"
    r = judge.post(path, {"between": False, "turn_player": "A", "duels": [{"winner": "A"}]})
    assert r.status_code == 201 and r.json()["phase"] == "finish_turn" and "turn_end" in r.json()["expects"]
    r = judge.post(path + "/steps", {"step": ["win", "A"]})  # A wins the duel in progress: 2-0, done
    assert r.status_code == 200 and r.json()["phase"] == "done"
    assert r.json()["match"]["status"] == "confirmed" and r.json()["match"]["result"] == "a"
    bad = judge.post(path + "/steps", {"step": ["win", "B"]})
    assert bad.status_code == 400


class _Receiver(BaseHTTPRequestHandler):
    received: list[tuple[dict[str, str], bytes]] = []
    fail_first = 0

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if _Receiver.fail_first > 0:
            _Receiver.fail_first -= 1
            self.send_response(503)
        else:
            _Receiver.received.append((dict(self.headers), body))
            self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def no_settling(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    monkeypatch.setattr(delivery, "SETTLE", dt.timedelta(0))
    # The receivers here are local: internal destinations are refused unless the operator allows them.
    settings.WEBHOOKS = load_webhooks({"TAIKAI_WEBHOOK_ALLOW": "127.0.0.1"})


@pytest.mark.usefixtures("no_settling")
def test_webhooks_are_signed_and_retried_with_back_off(client: Client, organizer: User) -> None:
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        event = make_event(organizer, 4)
        boss = Api(client, token=create_token(event, by=Staff(organizer), username="organizer", role="organizer")[1])
        r = boss.post(f"/events/{event.pk}/webhooks", {"url": f"http://127.0.0.1:{server.server_port}/hook"})
        assert r.status_code == 201, r.content
        secret = r.json()["secret"]
        assert (
            boss.post(f"/events/{event.pk}/webhooks", {"url": "ftp://x"}).json()["error"]["code"] == "bad-webhook-url"
        )
        _Receiver.received, _Receiver.fail_first = [], 1
        assert boss.post(f"/events/{event.pk}/rounds").status_code == 201  # nothing is sent inside the request
        assert _Receiver.received == []
        assert delivery.deliver_due() == 0  # the receiver answered 503: retried later
        hook = Webhook.objects.get(event=event)
        assert hook.failures == 1 and hook.last_error == "HTTP 503" and hook.next_attempt_at is not None
        assert delivery.deliver_due() == 0  # still backing off
        assert delivery.deliver_due(now=hook.next_attempt_at) >= 1
        headers, body = _Receiver.received[0]
        expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        assert headers["X-Taikai-Signature"] == expected
        message = json.loads(body)
        assert message["kind"] == "pairings" and message["event_id"] == str(event.pk)
        assert headers["X-Taikai-Delivery"] == str(message["id"])
        row = boss.get(f"/events/{event.pk}/webhooks").json()["items"][0]
        assert row["failures"] == 0 and row["delivered"] >= 1 and row["secret"] is None
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.usefixtures("no_settling")
def test_a_dead_receiver_is_given_up_after_the_last_attempt(organizer: User) -> None:
    event = make_event(organizer, 4)
    hook, _secret = delivery.create_webhook(event, by=Staff(organizer), url="http://127.0.0.1:9/nothing")
    start = hook.last_entry_id
    round_services.pair_next_round(event, by=Staff(organizer))
    for _ in range(delivery.MAX_ATTEMPTS):
        hook.refresh_from_db()
        delivery.deliver(hook, now=hook.next_attempt_at)
    hook.refresh_from_db()
    # The first message is given up; the cursor moves on and the next one starts its own attempts.
    assert hook.skipped == 1 and hook.last_entry_id > start and hook.failures <= 1 and hook.delivered == 0
    assert hook.last_error


def test_only_the_last_round_is_undone_and_the_event_knows(organizer_api: Api, api_event: Event) -> None:
    from tests.api.test_flow import _register_four

    eid = api_event.pk
    _register_four(organizer_api, eid)
    assert organizer_api.post(f"/events/{eid}/rounds").status_code == 201
    matches = organizer_api.get(f"/events/{eid}/rounds/1/matches").json()["items"]
    for m in matches:
        organizer_api.post(f"/events/{eid}/matches/{m['id']}/result", {"duels": [{"winner": "A"}, {"winner": "A"}]})
    assert organizer_api.post(f"/events/{eid}/rounds").status_code == 201
    version = Event.objects.get(pk=eid).version
    r = organizer_api.client.delete(f"/api/v1/events/{eid}/rounds/1", headers=organizer_api.headers())
    assert r.status_code == 400 and r.json()["error"]["code"] == "undo-not-latest"
    assert (
        organizer_api.client.delete(f"/api/v1/events/{eid}/rounds/2", headers=organizer_api.headers()).status_code
        == 204
    )
    event = Event.objects.get(pk=eid)
    assert event.version == version + 1 and event.status == "running" and event.rounds.count() == 1
    from taikai.audit.models import AuditEntry

    entry = AuditEntry.objects.filter(event_id=eid, action="taikai.round.undone").get()
    assert entry.before["number"] == 2 and len(entry.before["tables"]) == 2
