"""The event's log read by people (issue 22): who may read it, the filters, and a correction in words."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from taikai.audit.models import AuditEntry
from taikai.eventlog.reads import LogFilter, LogPage, read_log
from taikai.eventlog.words import lines
from taikai.events.actors import Actor, PlayerSelf, Staff, Visitor
from taikai.events.errors import PermissionDenied
from taikai.events.models import Match, Player
from taikai.events.services import links, registration
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from tests.factories import make_event
from tests.web.log_world import A_WINS, World, world_fixture  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def _actions(page: LogPage) -> list[str]:
    return [e.action for e in page.entries]


def test_the_organizer_and_the_head_judge_read_the_whole_log_newest_first(world: World) -> None:
    everything = AuditEntry.objects.filter(event_id=world.event.pk).count()
    for user in (world.organizer, world.head):
        page = read_log(world.event, by=Staff(user), limit=200)
        assert page.count == everything
        ids = [e.pk for e in page.entries]
        assert ids == sorted(ids, reverse=True)


@pytest.mark.parametrize("who", ["floor", "visitor", "signed-out"])
def test_a_floor_judge_and_a_visitor_are_refused(world: World, who: str) -> None:
    from django.contrib.auth.models import AnonymousUser

    actors: dict[str, Actor] = {"floor": Staff(world.floor), "visitor": Visitor(), "signed-out": Staff(AnonymousUser())}
    actor = actors[who]
    with pytest.raises(PermissionDenied):
        read_log(world.event, by=actor)


def test_a_player_reads_only_what_happened_at_their_own_tables(world: World) -> None:
    page = read_log(world.event, by=PlayerSelf(world.me), limit=200)
    assert page.count > 0
    assert {(e.object_type, e.object_id) for e in page.entries} == {("events.match", str(world.corrected.pk))}
    assert "taikai.match.result_corrected" in _actions(page)
    theirs = read_log(world.event, by=PlayerSelf(world.other), limit=200)
    assert {e.object_id for e in theirs.entries} == {str(world.reported.pk)}


def test_a_player_of_another_event_is_refused(world: World, organizer: User) -> None:
    elsewhere = make_event(organizer, 2, name="別の大会")
    with pytest.raises(PermissionDenied):
        read_log(world.event, by=PlayerSelf(elsewhere.players.first()))


def test_the_table_filter_keeps_that_table_and_its_judge_calls_and_penalties(world: World) -> None:
    page = read_log(world.event, by=Staff(world.organizer), filters=LogFilter(table=world.reported.table), limit=200)
    kinds = {(e.object_type, e.action) for e in page.entries}
    assert ("events.match", "taikai.match.result_reported") in kinds
    assert any(kind == "judging.penalty" for kind, _ in kinds)  # given from a call at that table
    assert any(kind == "judging.judgecall" for kind, _ in kinds)
    assert {e.object_id for e in page.entries if e.object_type == "events.match"} == {str(world.reported.pk)}


def test_the_player_filter_keeps_their_registration_their_tables_and_their_penalty(world: World) -> None:
    target = world.reported.player_b
    page = read_log(world.event, by=Staff(world.head), filters=LogFilter(player=target.pk), limit=200)
    kinds = {e.object_type for e in page.entries}
    assert kinds == {"events.player", "events.match", "judging.penalty", "judging.judgecall"}
    assert {e.object_id for e in page.entries if e.object_type == "events.player"} == {str(target.pk)}
    assert {e.object_id for e in page.entries if e.object_type == "events.match"} == {str(world.reported.pk)}


def test_the_round_filter_keeps_the_round_and_its_tables_and_combines_with_the_table(world: World) -> None:
    by = Staff(world.organizer)
    result_services.report_result(world.reported, player=world.reported.player_b, result=A_WINS)  # confirms it
    round_services.pair_next_round(world.event, by=by)
    one = read_log(world.event, by=by, filters=LogFilter(round=1), limit=200)
    two = read_log(world.event, by=by, filters=LogFilter(round=2), limit=200)
    assert "taikai.round.started" in _actions(one) and "taikai.round.paired" in _actions(one)
    assert _actions(two) == ["taikai.round.paired"]
    both = read_log(world.event, by=by, filters=LogFilter(round=1, table=world.corrected.table), limit=200)
    assert {e.object_id for e in both.entries if e.object_type == "events.match"} == {str(world.corrected.pk)}
    # and the judges' flag on the corrected result (a call at that table)
    assert {e.object_type for e in both.entries} == {"events.match", "judging.judgecall"}
    assert read_log(world.event, by=by, filters=LogFilter(round=2, table=world.corrected.table)).count == 0


def test_pages_are_fifty_entries_and_the_last_page_ends_the_log(world: World) -> None:
    by = Staff(world.organizer)
    everything = read_log(world.event, by=by, limit=200)
    first = read_log(world.event, by=by, limit=5)
    second = read_log(world.event, by=by, offset=5, limit=5)
    assert [e.pk for e in first.entries + second.entries] == [e.pk for e in everything.entries[:10]]
    assert first.count == everything.count and first.has_next
    last = read_log(world.event, by=by, offset=everything.count - 2, limit=5)
    assert len(last.entries) == 2 and not last.has_next


def test_a_correction_reads_before_and_after_in_words_with_its_reason(world: World) -> None:
    # END-3: a confirmed result changes only with a reason; the old one stays in the log.
    page = read_log(world.event, by=PlayerSelf(world.me), limit=200)
    entry = next(e for e in page.entries if e.action == "taikai.match.result_corrected")
    a, b = world.corrected.player_a.name, world.corrected.player_b.name
    with translation.override("ja"):
        (line,) = lines([entry], show_private=False)
        result = next(c for c in line.changes if c.field == "result")
        assert (result.before, result.after) == (f"{a} の勝ち 2–1", f"{b} の勝ち 2–0")
        assert line.text == "結果を訂正"
        assert line.reason == "伝票の読み違い"
        assert line.subject == f"第1ラウンド {world.corrected.table}番卓"
        assert line.actor == "organizer"
    with translation.override("en"):
        (line,) = lines([entry], show_private=False)
        result = next(c for c in line.changes if c.field == "result")
        assert (result.before, result.after) == (f"{a} wins 2–1", f"{b} wins 2–0")


def test_a_report_names_the_player_who_sent_it(world: World) -> None:
    page = read_log(world.event, by=PlayerSelf(world.other), limit=200)
    entry = next(e for e in page.entries if e.action == "taikai.match.result_reported")
    with translation.override("ja"):
        (line,) = lines([entry], show_private=False)
    assert line.actor == world.other.name
    changes = {c.field: (c.before, c.after) for c in line.changes}
    assert changes["result"] == ("—", f"{world.other.name} の勝ち 2–1")
    assert changes["status"] == ("対戦中", "確認待ち")
    assert changes["side"] == (None, world.other.name)


def _client(user: User = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _token(world: World, player: Player) -> str:
    return links.issue_access(player, by=Staff(world.organizer))


@pytest.mark.parametrize(
    ("who", "status"),
    [("organizer", 200), ("head", 200), ("floor", 403), ("visitor", 302)],
)
def test_the_log_page_by_role(world: World, who: str, status: int) -> None:
    user = {"organizer": world.organizer, "head": world.head, "floor": world.floor, "visitor": None}[who]
    response = _client(user).get(f"/events/{world.event.pk}/log/", HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == status
    text = response.content.decode()
    if status == 200:
        assert "結果を訂正" in text and "伝票の読み違い" in text
    if status == 403:
        assert "主催者とヘッドジャッジだけ" in text and "伝票の読み違い" not in text


def test_the_players_page_shows_their_tables_only_and_the_player_page_links_it(world: World) -> None:
    mine, theirs = _token(world, world.me), _token(world, world.other)
    home = _client().get(f"/p/{mine}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"/p/{mine}/log/" in home
    text = _client().get(f"/p/{mine}/log/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "伝票の読み違い" in text and "結果を訂正" in text
    assert world.reported.player_b.name not in text  # another table
    other = _client().get(f"/p/{theirs}/log/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "伝票の読み違い" not in other and "結果を報告" in other
    assert _client().get("/p/not-a-token/log/").status_code == 404


def test_contact_details_in_the_log_are_the_organizers(world: World) -> None:
    registration.update_player(world.me, by=Staff(world.organizer), contact="090-1234-5678")
    for user, shown in ((world.organizer, True), (world.head, False)):
        text = _client(user).get(f"/events/{world.event.pk}/log/?player={world.me.pk}").content.decode()
        assert ("090-1234-5678" in text) is shown
        assert "連絡先" in text


def test_a_filter_the_form_refuses_is_said_in_japanese_and_shows_nothing(world: World) -> None:
    response = _client(world.organizer).get(f"/events/{world.event.pk}/log/?table=abc&round=99")
    text = response.content.decode()
    assert response.status_code == 200
    assert "整数を入力してください。" in text and "正しく選択してください" in text
    assert "結果を訂正" not in text


def test_the_filters_on_the_page_and_the_next_page_link_keep_them(world: World) -> None:
    for n in range(50):  # with the registration and the check-in: more than a page about this player
        registration.update_player(world.me, by=Staff(world.organizer), name_kana=f"なまえ{n}")
    client = _client(world.organizer)
    url = f"/events/{world.event.pk}/log/?player={world.me.pk}"
    first = client.get(url).content.decode()
    assert f'rel="next" href="?player={world.me.pk}&amp;page=2"' in first and 'rel="prev"' not in first
    assert first.count('class="card log-entry"') == 50 and "なまえ49" in first
    second = client.get(url + "&page=2").content.decode()
    assert f'rel="prev" href="?player={world.me.pk}&amp;page=1"' in second and 'rel="next"' not in second
    assert "結果を訂正" in second and "なまえ" not in second  # the oldest: the table, the check-in, the entry


def test_a_field_nobody_named_still_reads_as_words(world: World) -> None:
    entry = AuditEntry(
        pk=1,
        at=timezone.now(),
        action="taikai.player.updated",
        event_id=world.event.pk,
        object_type="events.player",
        object_id=str(world.me.pk),
        before={"shoe_size": 26, "lucky": False, "seen_at": "2026-12-06T01:30:00+00:00"},
        after={"shoe_size": 27, "lucky": True, "seen_at": None, "colours": ["red", "blue"]},
    )
    with translation.override("ja"):
        (line,) = lines([entry], show_private=False)
    assert line.subject == world.me.name and line.text == "プレイヤー情報を更新"
    assert [(c.label, c.before, c.after) for c in line.changes] == [
        ("Shoe size", "26", "27"),
        ("Lucky", "いいえ", "はい"),
        ("Seen at", "12/06 10:30", "—"),  # the venue's clock (Asia/Tokyo)
        ("Colours", None, "red、blue"),
    ]


def test_a_penalty_reads_its_rung_and_infraction_in_words(world: World) -> None:
    page = read_log(world.event, by=Staff(world.head), filters=LogFilter(player=world.reported.player_b.pk))
    entry = next(e for e in page.entries if e.action == "taikai.judging.penalty_issued")
    with translation.override("ja"):
        (line,) = lines([entry], show_private=False)
    said = {c.field: c.after for c in line.changes}
    assert said["rung"] == "警告" and said["infraction"].startswith("INF-2 ")
    assert line.subject == f"罰則: {world.reported.player_b.name}" and line.reason == "遅刻"
    assert "player" not in said and "effects" not in said  # the subject names the player; effects are entries


def _bulk_entries(world: World, n: int) -> None:
    """Thousands of entries about the event's tables, as a long day writes them (bulk: nothing else is tested)."""
    matches = list(Match.objects.filter(round__event=world.event).values_list("pk", flat=True))
    AuditEntry.objects.bulk_create(
        AuditEntry(
            action="taikai.match.result_reported",
            event_id=world.event.pk,
            object_type="events.match",
            object_id=str(matches[i % len(matches)]),
            before={"status": "pending", "result": ""},
            after={"status": "reported", "result": "a", "duels": [2, 1, 0]},
        )
        for i in range(n)
    )


def test_a_page_of_a_long_log_is_a_fixed_number_of_queries_on_the_events_index(world: World) -> None:
    client = _client(world.organizer)
    url = f"/events/{world.event.pk}/log/"
    _bulk_entries(world, 60)
    client.get(url)  # the session and the caches warm up
    with CaptureQueriesContext(connection) as short:
        assert client.get(url).status_code == 200
    _bulk_entries(world, 3000)
    with CaptureQueriesContext(connection) as long:
        response = client.get(url + "?page=40")
    assert response.content.decode().count('class="card log-entry"') == 50
    assert len(long) == len(short) <= 20  # the words of a page are read per kind of row, never per entry
    newest = AuditEntry.objects.filter(event_id=world.event.pk).order_by("-id")[50:100]
    plan = newest.explain()
    assert "audit_event_latest" in plan, plan  # the (event_id, id) index, walked backwards
