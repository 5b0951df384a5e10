"""Issue 13, judging right at every seam: roles (CS 3), intent (INF-5), REG-2 participation, appeals against
other judges only, the one-minute condition of a time extension (TIME-4), and the words players read (what a DQ
leaves behind, for teams and prizes: test_dq_consequences.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import PlayerSelf, Staff
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Match, StaffRole
from taikai.events.services import clock as clock_services
from taikai.events.services import events as event_services
from taikai.events.services import links, participation, registration
from taikai.events.services import results as result_services
from taikai.judging.models import Appeal, Penalty
from taikai.judging.services import appeals, calls, penalty_history
from taikai.judging.services import penalties as svc
from tests.factories import A_WINS, PASSWORD, fresh, make_event, pair, player, staff

pytestmark = pytest.mark.django_db


def _code(exc: pytest.ExceptionInfo[ServiceError]) -> str:
    return exc.value.problem.code


# --- 4. only the event's head judge disqualifies and decides appeals (CS 3, PEN-6) ------------------------


def test_pen_6_a_site_admin_is_not_the_head_judge(event: Event, head: User, judge: User, organizer: User) -> None:
    # PEN-6, CS 3: 唯一のジャッジ. The first organizer account is a superuser and an organizer, not the head judge.
    assert organizer.is_superuser
    pair(event, organizer)
    p = player(event, 0)
    with pytest.raises(PermissionDenied):
        svc.issue_penalty(event, by=Staff(organizer), player=p, infraction="INF-9")
    pen = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-17")
    appeal = appeals.file_appeal(p, reason="not mine", penalty=pen, by=PlayerSelf(p))
    with pytest.raises(PermissionDenied):
        appeals.decide_appeal(appeal, by=Staff(organizer), decision="overturn")
    assert not fresh(p).disqualified and fresh(appeal).status == Appeal.Status.OPEN


def test_pen_6_an_organizer_who_judges_names_themself_head_judge(organizer: User) -> None:
    # PEN-6: exactly one head judge; the organizer stays organizer (pairs rounds) while being head judge.
    event = make_event(organizer, 4)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    org = staff(event, "org", StaffRole.Role.ORGANIZER)
    event_services.assign_staff(event, by=Staff(org), username="org", role=StaffRole.Role.ORGANIZER_HEAD_JUDGE)
    assert StaffRole.objects.get(event=event, user=head).role == StaffRole.Role.JUDGE  # the previous one
    pair(event, org)
    pen = svc.issue_penalty(event, by=Staff(org), player=player(event, 0), infraction="INF-9")
    assert fresh(player(event, 0)).disqualified and pen.rung == "dq-no-prize"
    with pytest.raises(PermissionDenied):
        svc.issue_penalty(event, by=Staff(head), player=player(event, 1), infraction="INF-9")
    # Naming someone else head judge leaves the organizer an organizer.
    event_services.assign_staff(event, by=Staff(org), username="head", role=StaffRole.Role.HEAD_JUDGE)
    assert StaffRole.objects.get(event=event, user=org).role == StaffRole.Role.ORGANIZER


# --- 14. roles: the organizer's work is the organizer's -----------------------------------------------------


def test_a_floor_judge_does_not_register_link_drop_enter_results_run_the_clock_or_export(
    event: Event, judge: User, organizer: User
) -> None:
    from taikai.events.services import transfer

    m = pair(event, organizer)[0]
    p = m.player_a
    by = Staff(judge)
    attempts: list[Callable[[], object]] = [
        lambda: registration.register_player(event, by=by, name="新人", card_game_id="1999999999"),
        lambda: registration.check_in(p, by=by),
        lambda: links.issue_access(p, by=by),
        lambda: links.revoke_access(p, by=by),
        lambda: participation.drop_player(p, by=by),
        lambda: result_services.enter_result(m, by=by, result=A_WINS()),
        lambda: clock_services.start_round(m.round, by=by),
        lambda: transfer.export_event(event, by=by),
    ]
    for attempt in attempts:
        with pytest.raises(PermissionDenied):
            attempt()
    # What floor judges do: penalties up to their limit (here a match loss), which change the result.
    svc.issue_penalty(event, by=by, player=p, infraction="INF-3", rung="match-loss", reason="slow play again")
    assert fresh(m).result == "b"


def test_a_floor_judge_sees_the_judges_pages_not_the_organizers_navigation(
    client: Client, event: Event, judge: User, organizer: User
) -> None:
    client.login(username=judge.username, password=PASSWORD)
    page = client.get(f"/events/{event.pk}/judging/").content.decode()
    assert f"/events/{event.pk}/players/" not in page and f"/events/{event.pk}/staff/" not in page
    assert f"/events/{event.pk}/judging/" in page
    assert client.get(f"/events/{event.pk}/export.json").status_code in (403, 404)


def test_pen_2_cs_1_2_the_judge_adds_downgrade_steps_past_three_and_nonsense_is_refused(
    client: Client, event: Event, judge: User, organizer: User
) -> None:
    # PEN-2, CS 1.2 (受賞資格から下げられる段階数は…任意で増やすことができる): the CS ruleset sets no cap, so 5
    # steps stand (refused before at 3); more than a penalty records, or 25 nines, is refused in words, not 500.
    assert event.ruleset.name == "harajuku-cs-1.2" and event.ruleset.penalties.max_downgrade_steps is None
    m = pair(event, organizer)[0]
    with pytest.raises(ServiceError) as exc:
        svc.issue_penalty(
            event,
            by=Staff(judge),
            player=m.player_a,
            infraction="INF-3",
            rung="match-loss-downgrade",
            reason="r",
            downgrade_steps=1000,
        )
    assert _code(exc) == "bad-downgrade-steps" and exc.value.problem.params["most"] == 99
    client.login(username=judge.username, password=PASSWORD)
    r = client.post(
        f"/events/{event.pk}/judging/penalties/new/",
        {
            "player": m.player_a.pk,
            "infraction": "INF-3",
            "rung": "match-loss-downgrade",
            "reason": "r",
            "downgrade_steps": "9" * 25,
            "issue": "1",
        },
        follow=True,
    )
    assert r.status_code == 200 and "段階数は1から99まで" in r.content.decode()
    assert not Penalty.objects.exists() and fresh(m).status == Match.Status.PENDING
    pen = svc.issue_penalty(
        event,
        by=Staff(judge),
        player=m.player_a,
        infraction="INF-3",
        rung="match-loss-downgrade",
        reason="r",
        downgrade_steps=5,
    )
    assert pen.downgrade_steps == 5


# --- 5. INF-5 needs intent (CS 2.2 D: 故意に) --------------------------------------------------------------


def test_inf_5_an_intentional_deck_change_gets_the_cs_default(event: Event, head: User) -> None:
    # INF-5
    p = player(event, 0)
    assert penalty_history.suggestion(event, p, "INF-5", intentional=True).rung == "dq-no-prize"
    pen = svc.issue_penalty(event, by=Staff(head), player=p, infraction="INF-5", intentional=True)
    assert pen.rung == pen.default_rung == "dq-no-prize" and pen.intentional and fresh(p).disqualified


def test_inf_5_an_unintentional_mismatch_has_no_default_the_judge_decides(event: Event, judge: User) -> None:
    # INF-5: without intent there is no CS default; the judge chooses (and says why, PEN-7).
    p = player(event, 0)
    assert penalty_history.suggestion(event, p, "INF-5").rung is None
    with pytest.raises(ServiceError) as exc:
        svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-5")
    assert _code(exc) == "rung-required"
    pen = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-5", rung="warning", reason="sleeve mix")
    assert pen.rung == "warning" and pen.default_rung == "" and not fresh(p).dropped


# --- 10. REG-2 is participation: an ineligible player is not paired -----------------------------------------


def test_reg_2_a_player_marked_ineligible_is_not_paired(event: Event, organizer: User) -> None:
    # REG-2 (参加資格)
    p = player(event, 0)
    participation.mark_ineligible(p, by=Staff(organizer), reason="カードゲームIDの登録内容が違う")
    matches = pair(event, organizer)
    paired = {m.player_a_id for m in matches} | {m.player_b_id for m in matches}
    rnd = event.rounds.get()
    assert p.pk not in paired and not rnd.matches.filter(player_a=p, is_bye=True).exists()
    assert str(p.pk) not in {q["id"] for q in rnd.pairing_input["players"] if not q.get("dropped")}


# --- 13. REG-3: a late check-in can open INF-1 ---------------------------------------------------------------


def test_reg_3_a_late_check_in_is_recorded_and_can_open_inf_1(event: Event, judge: User, organizer: User) -> None:
    # REG-3, INF-1: lateness is a violation; the judge decides the penalty (INF-1 has no default).
    p = player(event, 0)
    checked, _token = registration.check_in(p, by=Staff(organizer))
    assert checked.checked_in_at is not None
    with pytest.raises(ServiceError) as exc:
        svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-1")
    assert _code(exc) == "rung-required"
    pen = svc.issue_penalty(
        event, by=Staff(judge), player=p, infraction="INF-1", rung="warning", reason="10 minutes late"
    )
    assert pen.infraction == "INF-1" and pen.in_database


# --- 12. appeals are against other judges; time extensions need a ruling of one minute or more ---------------


def test_pen_6_the_head_judges_own_penalty_cannot_be_appealed(event: Event, head: User, judge: User) -> None:
    # PEN-6, CS 3: ヘッドジャッジ以外のジャッジの判断に不服がある場合
    p = player(event, 0)
    own = svc.issue_penalty(event, by=Staff(head), player=p, infraction="INF-17")
    with pytest.raises(ServiceError) as exc:
        appeals.file_appeal(p, reason="unfair", penalty=own, by=PlayerSelf(p))
    assert _code(exc) == "appeal-own-ruling" and not Appeal.objects.exists()
    other = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-2")
    assert appeals.file_appeal(p, reason="I did not rush", penalty=other, by=PlayerSelf(p)).status == "open"


def test_time_4_an_extension_needs_a_ruling_of_one_minute_or_more(event: Event, judge: User, organizer: User) -> None:
    # TIME-4 (CS 3.1: 一分以上)
    import datetime as dt

    m = pair(event, organizer)[0]
    call = calls.raise_call(event, table=m.table, by=Staff(judge), description="ruling")
    calls.take_call(call, by=Staff(judge))
    with pytest.raises(ServiceError) as exc:
        calls.rule_call(call, by=Staff(judge), ruling="quick", extension_seconds=60)
    assert _code(exc) == "extension-ruling-short" and fresh(m).extension_seconds == 0
    type(call).objects.filter(pk=call.pk).update(taken_at=fresh(call).taken_at - dt.timedelta(seconds=60))
    calls.rule_call(call, by=Staff(judge), ruling="long ruling", extension_seconds=60)
    assert fresh(m).extension_seconds == 60  # exactly one minute qualifies (以上)


# --- 15. what players read ----------------------------------------------------------------------------------


def test_the_player_reads_their_penalty_in_words_and_a_dq_says_disqualified(
    client: Client, event: Event, head: User, judge: User, organizer: User
) -> None:
    m = pair(event, organizer)[0]
    p = m.player_a
    token = links.issue_access(p, by=Staff(organizer))
    svc.issue_penalty(
        event, by=Staff(judge), player=p, infraction="INF-16", rung="match-loss", reason="制限超過のカード"
    )
    record = client.get(f"/p/{token}/record/").content.decode()
    assert "マッチの敗北" in record and "制限" in record and "INF-16" in record and "制限超過のカード" in record
    svc.issue_penalty(event, by=Staff(head), player=p, infraction="INF-9")
    home = client.get(f"/p/{token}/").content.decode()
    assert "失格" in home and "ドロップしました" not in home
    pen = Penalty.objects.filter(player=p, rung="match-loss").get()
    appeal = appeals.file_appeal(p, reason="制限内でした", penalty=pen, by=PlayerSelf(p))
    appeals.decide_appeal(appeal, by=Staff(head), decision="uphold")
    page = client.get(f"/p/{token}/appeal/").content.decode()
    assert "上告は認められませんでした" in page and "支持" not in page


def test_dq_and_overturning_ask_for_confirmation_without_javascript(
    client: Client, event: Event, head: User, judge: User, organizer: User
) -> None:
    pair(event, organizer)
    p = player(event, 0)
    client.login(username=head.username, password=PASSWORD)
    url = f"/events/{event.pk}/judging/penalties/new/"
    post = {"player": p.pk, "infraction": "INF-9", "rung": "dq-no-prize", "issue": "1"}
    r = client.post(url, post)
    assert r.status_code == 200 and "confirm-step" in r.content.decode() and not Penalty.objects.exists()
    client.post(url, {**post, "confirmed": "1"})
    assert fresh(p).disqualified
    q = player(event, 1)
    pen = svc.issue_penalty(event, by=Staff(judge), player=q, infraction="INF-17")
    appeal = appeals.file_appeal(q, reason="not mine", penalty=pen, by=PlayerSelf(q))
    decide = f"/events/{event.pk}/judging/appeals/{appeal.pk}/"
    r = client.post(decide, {"decision": "overturn", "note": "witness"})
    assert "confirm-step" in r.content.decode() and fresh(appeal).status == Appeal.Status.OPEN
    client.post(decide, {"decision": "overturn", "note": "witness", "confirmed": "1"})
    assert fresh(appeal).status == Appeal.Status.OVERTURNED and fresh(pen).overturned
    listing = client.get(f"/events/{event.pk}/judging/penalties/").content.decode()
    assert "dq-no-prize" not in listing and "受賞資格を失う失格" in listing  # names, not codes
