"""A player's judge call leaves a state (issue 24, item 6): the page says 「ジャッジを呼びました」 with a way to take
it back, and the judges' queue has one card per table, with everyone who called on it (JUDGE-1)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.services import links
from taikai.judging.models import CallCaller, JudgeCall
from taikai.judging.services import calls, player_calls
from tests.factories import fresh, pair

pytestmark = pytest.mark.django_db


def _call(event: Event, player: Player, question: str = "") -> JudgeCall:
    return calls.raise_call(event, player=player, by=PlayerSelf(player), description=question)


def test_judge_1_both_players_of_a_table_calling_make_one_card_with_both_callers(event: Event, organizer: User) -> None:
    # JUDGE-1
    m = pair(event, organizer)[0]
    first = _call(event, m.player_a, "チェーンの処理")
    second = _call(event, m.player_b, "同じ件です")
    again = _call(event, m.player_a)  # a second tap by the same player
    assert first.pk == second.pk == again.pk
    assert calls.open_calls(event) == [first]
    callers = player_calls.callers_by_call([first])[first.pk]
    assert [(c.player_id, c.question) for c in callers] == [
        (m.player_a_id, "チェーンの処理"),
        (m.player_b_id, "同じ件です"),
    ]
    actions = list(
        AuditEntry.objects.filter(object_id=str(first.pk), action__startswith="taikai.judging.call").values_list(
            "action", flat=True
        )
    )
    assert actions == ["taikai.judging.call_raised", "taikai.judging.call_joined", "taikai.judging.call_joined"]


def test_judge_1_another_table_and_a_closed_call_make_their_own_cards(
    event: Event, organizer: User, judge: User
) -> None:
    # JUDGE-1
    one, two = pair(event, organizer)[:2]
    a = _call(event, one.player_a)
    b = _call(event, two.player_b)
    assert a.pk != b.pk
    calls.rule_call(a, by=Staff(judge), ruling="解決")
    c = _call(event, one.player_b)  # the same table later: a new card
    assert c.pk != a.pk and {x.pk for x in calls.open_calls(event)} == {b.pk, c.pk}


def test_judge_1_each_side_sees_the_call_and_only_a_caller_may_take_it_back(event: Event, organizer: User) -> None:
    # JUDGE-1
    m = pair(event, organizer)[0]
    call = _call(event, m.player_a)
    mine, theirs = player_calls.table_call(m.player_a, m), player_calls.table_call(m.player_b, m)
    assert mine is not None and mine.mine and not mine.taken
    assert theirs is not None and not theirs.mine
    with pytest.raises(ServiceError) as refused:
        player_calls.withdraw_call(call, m.player_b, by=PlayerSelf(m.player_b))
    assert refused.value.problem.code == "call-not-yours"
    player_calls.withdraw_call(call, m.player_a, by=PlayerSelf(m.player_a))
    assert fresh(call).status == JudgeCall.Status.CLOSED and calls.open_calls(event) == []
    assert player_calls.table_call(m.player_a, m) is None
    assert AuditEntry.objects.filter(action="taikai.judging.call_withdrawn", object_id=str(call.pk)).exists()


def test_judge_1_a_call_two_players_made_stays_while_one_of_them_takes_theirs_back(
    event: Event, organizer: User
) -> None:
    # JUDGE-1
    m = pair(event, organizer)[0]
    call = _call(event, m.player_a)
    _call(event, m.player_b)
    player_calls.withdraw_call(call, m.player_a, by=PlayerSelf(m.player_a))
    assert fresh(call).status == JudgeCall.Status.OPEN
    state = player_calls.table_call(m.player_a, m)
    assert state is not None and not state.mine and state.callers == [m.player_b.name]
    assert CallCaller.objects.get(call=call, player=m.player_a).withdrawn_at is not None  # kept, not deleted


def test_judge_1_a_judge_on_the_way_is_not_sent_back(event: Event, organizer: User, judge: User) -> None:
    # JUDGE-1
    m = pair(event, organizer)[0]
    call = _call(event, m.player_a)
    calls.take_call(call, by=Staff(judge))
    state = player_calls.table_call(m.player_a, m)
    assert state is not None and state.taken
    with pytest.raises(ServiceError) as refused:
        player_calls.withdraw_call(call, m.player_a, by=PlayerSelf(m.player_a))
    assert refused.value.problem.code == "call-already-taken"
    assert fresh(call).status == JudgeCall.Status.TAKEN


def test_judge_1_the_page_says_it_was_called_and_cancels_it(event: Event, organizer: User, judge: User) -> None:
    # JUDGE-1: through the pages, in Japanese
    m = pair(event, organizer)[0]
    token_a = links.issue_access(m.player_a, by=Staff(organizer))
    token_b = links.issue_access(m.player_b, by=Staff(organizer))
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    assert "ジャッジを呼びました" not in client.get(f"/p/{token_a}/").content.decode()  # nothing called yet
    assert client.post(f"/p/{token_a}/judge/", {"description": "裁定"}).status_code == 302
    page = client.get(f"/p/{token_a}/").content.decode()
    assert ">ジャッジを呼びました<" in page and '<button class="cancel">取り消す</button>' in page
    other = client.get(f"/p/{token_b}/").content.decode()
    assert "対戦相手がジャッジを呼びました" in other and 'class="cancel"' not in other
    client.post(f"/p/{token_b}/judge/", {"description": ""})
    staff_client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    staff_client.force_login(judge)
    queue = staff_client.get(f"/events/{event.pk}/judging/").content.decode()
    assert queue.count('class="card call ') == 1
    assert f"呼んだ人: {m.player_a.name}: 裁定" in queue and f"呼んだ人: {m.player_b.name}" in queue
    call = JudgeCall.objects.get(match=m)
    client.post(f"/p/{token_a}/judge/{call.pk}/cancel/")
    page = client.get(f"/p/{token_a}/").content.decode()
    assert ">ジャッジを呼びました<" not in page and ">対戦相手がジャッジを呼びました<" in page
    assert fresh(call).status == JudgeCall.Status.OPEN  # player B's call is still waiting


@pytest.mark.django_db(transaction=True)
def test_judge_1_two_taps_at_the_same_moment_make_one_card(organizer: User) -> None:
    # JUDGE-1: the two phones of a table race; the unique key makes the second join the first
    from tests.factories import make_event

    event = make_event(organizer, 4)
    m = pair(event, organizer)[0]
    start = threading.Barrier(2)
    errors: list[BaseException] = []

    def tap(player: Player) -> None:
        try:
            start.wait()
            _call(event, player)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tap, args=(p,)) for p in (m.player_a, m.player_b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert JudgeCall.objects.filter(match=m).count() == 1
    assert CallCaller.objects.filter(call__match=m).count() == 2
