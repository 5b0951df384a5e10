"""What a player does on the follower reaches the venue once: reports, confirmations, judge calls and drops are
queued, applied at the venue under their key and answered back, in the player's language; a link re-issued at
the venue no longer acts (the copies the venue sends: test_follow_sync.py)."""

from __future__ import annotations

from typing import Any

import pytest

from taikai.events.actors import Staff
from taikai.events.models import Match, ResultReport
from taikai.events.result_words import stale_confirm_text, stale_report_text
from taikai.events.services import links
from taikai.follow import copies, follower
from taikai.follow.applying import apply_action
from taikai.follow.models import AppliedAction, QueuedAction
from tests.factories import World
from tests.follow._sync import A_WINS, caught_up, follower_page, queued, venue_pusher

pytestmark = pytest.mark.django_db


def test_a_report_on_the_follower_is_applied_once_at_the_venue_and_the_outcome_comes_back(world: World) -> None:
    pusher = venue_pusher()
    caught_up(pusher)
    m = world.match()
    action = queued(world, m.player_a, "report", "k-report-1", **A_WINS)
    assert queued(world, m.player_a, "report", "k-report-1", **A_WINS).pk == action.pk  # a double tap
    assert "会場に送信待ち" in follower_page(world.token_of(m.player_a))
    pusher.turn()  # hands the action over; the venue applies it at once
    m.refresh_from_db()
    assert m.status == Match.Status.REPORTED
    # The answer was lost: the same action comes again and is not applied twice.
    again = apply_action(
        {
            "key": "k-report-1",
            "event": str(world.event.pk),
            "player": str(m.player_a_id),
            "token_hash": action.token_hash,
            "kind": "report",
            "match": str(m.pk),
            "seen_version": action.seen_version,
            "payload": A_WINS,
        }
    )
    assert again["status"] == "applied"
    assert ResultReport.objects.filter(match=m).count() == 1 and AppliedAction.objects.count() == 1
    pusher.turn()  # the outcome goes back, and the new state
    action.refresh_from_db()
    assert action.status == QueuedAction.Status.APPLIED
    assert "会場で反映されました" in follower_page(world.token_of(m.player_a))
    # The opponent sees the report on their follower page and may confirm it there.
    assert "確認する" in follower_page(world.token_of(m.player_b))


def test_a_confirmation_on_a_version_the_player_never_saw_is_refused_in_their_language(world: World) -> None:
    from taikai.events.services import results
    from taikai.events.services.result_input import ResultInput

    pusher = venue_pusher()
    caught_up(pusher)
    m = world.match()
    results.report_result(m, player=m.player_a, result=ResultInput.from_json(A_WINS), idempotency_key="x")
    me = copies.player_for_token(world.token_of(m.player_b))
    assert me is not None
    stale = follower.queue_action(
        me.followed,
        player_id=m.player_b_id,
        token_hash=me.token_hash,
        kind="confirm",
        match_id=m.pk,
        seen_version=m.version,
        payload={},
        key="k-confirm",
    )
    pusher.turn()
    pusher.turn()
    stale.refresh_from_db()
    assert stale.status == QueuedAction.Status.REFUSED and stale.code == "conflict"
    assert stale.message_ja and stale.message_en and stale.message_ja != stale.message_en
    assert stale.message_en in follower_page(world.token_of(m.player_b), "en")
    assert Match.objects.get(pk=m.pk).status == Match.Status.REPORTED
    # In the venue's own words for a confirmation from an older page (its player page says the same).
    assert (stale.message_ja, stale.message_en) == _venue_words(stale_confirm_text, Match.objects.get(pk=m.pk), "b")


def test_a_link_reissued_at_the_venue_no_longer_acts_from_the_follower(world: World) -> None:
    pusher = venue_pusher()
    caught_up(pusher)
    m = world.match()
    action = queued(world, m.player_a, "report", "k-old-link", **A_WINS)
    links.issue_access(m.player_a, by=Staff(world.organizer))  # the desk gave a new link; the old one stops
    pusher.turn()
    pusher.turn()
    action.refresh_from_db()
    assert action.status == QueuedAction.Status.REFUSED and action.code == "follow-link-revoked"
    assert Match.objects.get(pk=m.pk).status == Match.Status.PENDING
    # The follower now knows the new link only.
    assert copies.player_for_token(world.token_of(m.player_a)) is None


def test_a_judge_call_and_a_drop_from_the_follower_are_the_venues_own(world: World) -> None:
    from taikai.judging.models import JudgeCall

    pusher = venue_pusher()
    caught_up(pusher)
    m = world.match()
    call = queued(world, m.player_a, "judge_call", "k-call", description="裁定をお願いします")
    drop = queued(world, m.player_b, "drop", "k-drop")
    pusher.turn()
    pusher.turn()
    call.refresh_from_db()
    drop.refresh_from_db()
    assert (call.status, drop.status) == (QueuedAction.Status.APPLIED, QueuedAction.Status.APPLIED)
    (card,) = JudgeCall.objects.filter(match=m)
    assert card.status == JudgeCall.Status.OPEN
    m.player_b.refresh_from_db()
    assert m.player_b.dropped_after_round == 1
    # A second drop from the follower is refused with the venue's own reason.
    again = queued(world, m.player_b, "drop", "k-drop-2")
    pusher.turn()
    pusher.turn()
    again.refresh_from_db()
    assert again.status == QueuedAction.Status.REFUSED and again.code == "already-dropped"


def test_an_action_the_venue_cannot_read_is_refused_once_not_retried_forever(world: World) -> None:
    outcome = apply_action({"key": "k-bad", "event": str(world.event.pk), "player": "not a number", "kind": "report"})
    assert (outcome["status"], outcome["code"]) == ("refused", "follow-bad-action")
    assert outcome["message_ja"] == "この操作は受け付けられません。"
    assert apply_action({"key": "k-bad"}) == outcome  # the same key again: the stored answer


def _venue_words(words: Any, match: Match, *args: Any) -> tuple[str, str]:
    from django.utils import translation

    out = []
    for lang in ("ja", "en"):
        with translation.override(lang):
            out.append(words(match, *args))
    return out[0], out[1]


def _act_on_page(token: str, kind: str, **extra: str) -> QueuedAction:
    """What the player's form on the follower's page posts: the match and its version as the page shows them."""
    import re

    from django.test import RequestFactory

    from taikai.follow import pages

    page = follower_page(token)
    form = next(f for f in re.findall(r"<form\b.*?</form>", page, re.S) if f'name="kind" value="{kind}"' in f)
    fields = dict(re.findall(r'name="(match|version|key)" value="([^"]*)"', form))
    request = RequestFactory().post(f"/p/{token}/act", {"kind": kind, **fields, **extra})
    assert pages.player_action(request, token).status_code == 302
    return QueuedAction.objects.get(key=fields["key"])


def test_a_report_on_the_follower_on_a_table_the_venue_changed_since_is_refused_with_the_reason(
    world: World,
) -> None:  # END-4: nothing applied against a version the player never saw
    from taikai.events.services import results
    from taikai.events.services.result_input import ResultInput

    pusher = venue_pusher()
    caught_up(pusher)
    m = world.match()
    token_b = world.token_of(m.player_b)
    stale = _act_on_page(token_b, "report", quick="loss-0-2")  # B's page: the table still to report
    assert stale.seen_version == m.version
    # Meanwhile A reports at the venue, before B's report reaches it: the same result, but not one B saw.
    results.report_result(m, player=m.player_a, result=ResultInput.from_json(A_WINS))
    caught_up(pusher)
    stale.refresh_from_db()
    now = Match.objects.get(pk=m.pk)
    assert (stale.status, stale.code) == (QueuedAction.Status.REFUSED, "conflict")
    assert now.status == Match.Status.REPORTED and not ResultReport.objects.filter(by_player=m.player_b).exists()
    assert (stale.message_ja, stale.message_en) == _venue_words(stale_report_text, now, m.player_b)
    assert stale.message_ja.startswith("対戦相手が先に「") and stale.message_ja in follower_page(token_b)
    assert stale.message_en in follower_page(token_b, "en")
    # B reads A's report on the page and confirms it there, on the version now shown: decided.
    confirm = _act_on_page(token_b, "confirm")
    caught_up(pusher)
    confirm.refresh_from_db()
    assert confirm.status == QueuedAction.Status.APPLIED
    assert Match.objects.get(pk=m.pk).status == Match.Status.CONFIRMED


def test_a_report_on_the_follower_on_a_table_the_desk_entered_is_refused_saying_the_result(world: World) -> None:
    from taikai.events.services import results
    from taikai.events.services.result_input import ResultInput

    pusher = venue_pusher()
    caught_up(pusher)
    m = world.match()
    stale = _act_on_page(world.token_of(m.player_a), "report", quick="win-2-0")
    results.enter_result(m, by=Staff(world.organizer), result=ResultInput.from_json(A_WINS))  # the paper slip
    caught_up(pusher)
    stale.refresh_from_db()
    assert (stale.status, stale.code) == (QueuedAction.Status.REFUSED, "conflict")
    assert stale.message_ja.startswith("この結果はすでに確定しています: ")
    assert ResultReport.objects.filter(match=m, by_player__isnull=False).count() == 0
