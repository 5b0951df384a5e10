"""TIME-4 on every path (issue 23, finding 7): the API's table extension, a judge call's ruling over the API,
and the judge's call page each record how long the ruling took and add no time below the ruleset's threshold
(CS 3.1: 一分以上), in the words of the rule; a judge adds at most what the ruling took, the head judge more."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match
from taikai.events.services import clock as clock_services
from taikai.events.services import rounds as round_services
from taikai.judging.models import JudgeCall
from taikai.judging.services import calls
from taikai.tokens.services import create_token
from tests.factories import Api, make_event, staff_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(organizer: User) -> tuple[Event, Match, Match]:
    event = make_event(organizer, 4, name="TIME-4 杯")
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    one, two = rnd.matches.order_by("table")
    return event, one, two


def _api(client: Client, organizer: User, event: Event, username: str, role: str, lang: str = "ja") -> Api:
    staff_user(organizer, event, username, role)
    return Api(client, token=create_token(event, by=Staff(organizer), username=username, role=role)[1], lang=lang)


def _ruled_for(call: JudgeCall, seconds: int) -> None:
    """The judge took the call ``seconds`` ago."""
    JudgeCall.objects.filter(pk=call.pk).update(taken_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds))


def _time(match: Match) -> int:
    return Match.objects.get(pk=match.pk).extension_seconds


def test_time_4_the_api_adds_no_time_without_a_ruling(
    client: Client, organizer: User, table: tuple[Event, Match, Match]
) -> None:
    # TIME-4: the finding — a floor judge gave 600 s with no judge call.
    event, m, _other = table
    floor = _api(client, organizer, event, "floor", "judge")
    r = floor.post(f"/events/{event.pk}/matches/{m.pk}/extension", {"seconds": 600, "reason": "long ruling"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "extension-needs-ruling"
    assert "CS 3.1" in r.json()["error"]["message"] and "1分以上" in r.json()["error"]["message"]
    assert _time(m) == 0


def test_time_4_a_stated_ruling_under_one_minute_adds_nothing_in_the_rules_words(
    client: Client, organizer: User, table: tuple[Event, Match, Match]
) -> None:  # TIME-4
    event, m, _other = table
    path = f"/events/{event.pk}/matches/{m.pk}/extension"
    for lang, words in (("ja", "ジャッジの判断に一分以上の時間がかかった場合"), ("en", "1 minute(s) or more")):
        api = _api(client, organizer, event, f"floor-{lang}", "judge", lang)
        r = api.post(path, {"seconds": 59, "reason": "ruling", "ruling_seconds": 59})
        assert r.status_code == 400 and r.json()["error"]["code"] == "extension-ruling-short"
        assert words in r.json()["error"]["message"] and "59" in r.json()["error"]["message"]
    assert _time(m) == 0
    r = api.post(path, {"seconds": 60, "reason": "ruling", "ruling_seconds": 60})  # 以上: one minute qualifies
    assert r.status_code == 200 and r.json()["extension_seconds"] == 60
    entry = AuditEntry.objects.get(action="taikai.match.time_extended")
    assert entry.data["ruling_seconds"] == 60 and entry.data["call"] is None


def test_time_4_a_floor_judge_makes_up_for_the_ruling_and_no_more(
    client: Client, organizer: User, table: tuple[Event, Match, Match]
) -> None:
    # TIME-4 (taikai's reading of CS 3.1): at most the ruling's length over its extensions; the head judge more.
    event, m, other = table
    floor = _api(client, organizer, event, "floor", "judge")
    head = _api(client, organizer, event, "head", "head_judge")
    call = calls.raise_call(event, table=m.table, by=Staff(organizer), description="ruling")
    calls.take_call(call, by=Staff(organizer))
    _ruled_for(call, 120)
    path = f"/events/{event.pk}/matches/{m.pk}/extension"
    r = floor.post(path, {"seconds": 600, "reason": "ruling", "call": str(call.pk)})
    assert r.status_code == 400 and r.json()["error"]["code"] == "extension-over-ruling"
    assert r.json()["error"]["params"]["left"] >= 120 and "ヘッドジャッジ" in r.json()["error"]["message"]
    assert floor.post(path, {"seconds": 90, "reason": "ruling", "call": str(call.pk)}).status_code == 200
    r = floor.post(path, {"seconds": 60, "reason": "ruling", "call": str(call.pk)})  # 150 > 120
    assert r.status_code == 400 and r.json()["error"]["code"] == "extension-over-ruling"
    r = head.post(path, {"seconds": 60, "reason": "ruling", "call": str(call.pk)})
    assert r.status_code == 200 and r.json()["extension_seconds"] == 150
    entries = list(AuditEntry.objects.filter(action="taikai.match.time_extended").order_by("id"))
    assert [(e.data["call"], e.data["beyond_ruling"]) for e in entries] == [(call.pk, False), (call.pk, True)]
    assert all(e.data["ruling_seconds"] >= 120 for e in entries)
    assert JudgeCall.objects.get(pk=call.pk).extended_seconds == 150
    # The call is this table's: another table's time is not made up for by it.
    r = floor.post(
        f"/events/{event.pk}/matches/{other.pk}/extension", {"seconds": 30, "reason": "x", "call": str(call.pk)}
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "extension-call-elsewhere"
    assert _time(other) == 0


def test_time_4_a_ruling_over_the_api_records_its_length(
    client: Client, organizer: User, table: tuple[Event, Match, Match]
) -> None:
    # TIME-4: the call's ruling endpoint measures the ruling; a judge may state a longer one (logged).
    event, m, _other = table
    floor = _api(client, organizer, event, "floor", "judge")
    call = calls.raise_call(event, table=m.table, by=Staff(organizer))
    calls.take_call(call, by=Staff(organizer))
    path = f"/events/{event.pk}/calls/{call.pk}/ruling"
    r = floor.post(path, {"ruling": "quick", "extension_seconds": 60, "close": False})
    assert r.status_code == 400 and r.json()["error"]["code"] == "extension-ruling-short"
    r = floor.post(path, {"ruling": "began before the call was taken", "extension_seconds": 90, "ruling_seconds": 95})
    assert r.status_code == 200 and r.json()["ruling_seconds"] == 95 and r.json()["extended_seconds"] == 90
    assert _time(m) == 90
    ruled = AuditEntry.objects.get(action="taikai.judging.call_ruled")
    assert ruled.data["ruling_seconds"] == 95 and ruled.data["measured_seconds"] < 60


def test_time_4_the_judges_call_page_refuses_a_short_ruling_and_takes_a_stated_one(
    client: Client, organizer: User, table: tuple[Event, Match, Match]
) -> None:  # TIME-4: the web judge form, in minutes; a ruling recorded late is stated by the judge, and logged
    event, m, _other = table
    call = calls.raise_call(event, table=m.table, by=Staff(organizer))
    calls.take_call(call, by=Staff(organizer))
    client.force_login(organizer)
    url = f"/events/{event.pk}/judging/calls/{call.pk}/"
    page = client.get(url, headers={"Accept-Language": "ja"})
    assert "追加する時間（分）" in page.content.decode()
    post = {"rule": "1", "ruling": "quick", "extension_minutes": "1"}
    r = client.post(url, post, headers={"Accept-Language": "ja"})
    asked = r.content.decode()
    assert "裁定にかかった時間（分）" in asked and _time(m) == 0  # measured a few seconds: asked, nothing added
    assert ">quick</textarea>" in asked  # the typed ruling is kept
    assert JudgeCall.objects.get(pk=call.pk).status != JudgeCall.Status.CLOSED
    r = client.post(url, {**post, "ruling_minutes": "0"}, headers={"Accept-Language": "ja"})
    assert r.status_code == 400 and _time(m) == 0 and ">quick</textarea>" in r.content.decode()
    client.post(url, {**post, "ruling_minutes": "2"}, headers={"Accept-Language": "ja"})
    assert _time(m) == 60
    closed = JudgeCall.objects.get(pk=call.pk)
    assert closed.status == JudgeCall.Status.CLOSED and closed.ruling_seconds == 120
    ruled = AuditEntry.objects.filter(action="taikai.judging.call_ruled", object_id=str(call.pk)).get()
    assert ruled.data["ruling_stated"] is True and ruled.data["measured_seconds"] < 60


def test_time_4_a_stated_length_under_the_threshold_adds_nothing(
    client: Client, organizer: User, table: tuple[Event, Match, Match]
) -> None:
    # TIME-4 still decides: a ruling stated under one minute adds no time, and the ruling typed is kept
    event, m, _other = table
    call = calls.raise_call(event, table=m.table, by=Staff(organizer))
    client.force_login(organizer)
    url = f"/events/{event.pk}/judging/calls/{call.pk}/"
    post = {"rule": "1", "ruling": "長い裁定", "extension_minutes": "3", "ruling_minutes": "2"}
    r = client.post(url, post, headers={"Accept-Language": "ja"})
    assert r.status_code == 400 and _time(m) == 0 and "長い裁定</textarea>" in r.content.decode()
    assert JudgeCall.objects.get(pk=call.pk).status != JudgeCall.Status.CLOSED


def _ruleset(minutes: int) -> dict[str, Any]:
    from taikai.core.ruleset import builtin

    doc = builtin("harajuku-cs-1.2").to_dict()
    doc["time"]["extension_threshold_minutes"] = minutes
    return doc


def test_time_4_the_rules_page_says_the_reading_and_a_ruleset_without_extensions_adds_none(
    client: Client, organizer: User
) -> None:  # TIME-4: the page is drawn from the ruleset
    client.force_login(organizer)
    three = make_event(organizer, 0, name="3分", ruleset_document=_ruleset(3))
    ja = client.get(f"/judging/rules/?event={three.pk}", headers={"Accept-Language": "ja"}).content.decode()
    assert "<strong>3分以上</strong>" in ja and "ジャッジが追加できるのはその判断にかかった時間まで" in ja
    none = make_event(organizer, 2, name="追加なし", ruleset_document=_ruleset(0))
    en = client.get(f"/judging/rules/?event={none.pk}", headers={"Accept-Language": "en"}).content.decode()
    assert "このルールセットでは taikai は対戦時間を追加しません" in en and "分以上</strong>" not in en
    rnd = round_services.pair_next_round(none, by=Staff(organizer))
    with pytest.raises(ServiceError) as refused:
        calls.extend_after_ruling(rnd.matches.get(), by=Staff(organizer), seconds=60, reason="r", ruling_seconds=600)
    assert refused.value.problem.code == "extension-not-in-ruleset"


def test_time_4_a_judge_still_at_the_table_may_add_time_again_as_the_ruling_goes_on(
    organizer: User, table: tuple[Event, Match, Match]
) -> None:  # TIME-4: the length is measured until the call closes
    event, m, _other = table
    floor = Staff(staff_user(organizer, event, "floor", "judge"))
    call = calls.raise_call(event, table=m.table, by=floor)
    calls.take_call(call, by=floor)
    _ruled_for(call, 70)
    calls.rule_call(call, by=floor, ruling="first part", close=False, extension_seconds=60)
    with pytest.raises(ServiceError) as over:
        calls.rule_call(call, by=floor, ruling="more", close=False, extension_seconds=60)  # 120 > 70
    assert over.value.problem.code == "extension-over-ruling"
    _ruled_for(call, 130)
    closed = calls.rule_call(call, by=floor, ruling="settled", extension_seconds=60)
    assert _time(m) == 120 and closed.extended_seconds == 120 and closed.ruling_seconds >= 130
