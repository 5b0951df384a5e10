"""At the venue: a player's action from the follower (a report, a confirmation, a judge call, a drop, a notice
closed), applied once through the venue's own services, with their checks, refusals and audit; the outcome, in
the venue's words in Japanese and English, goes back to the player's page on the follower (``taikai.follow.venue``
carries both).

A report and a confirmation carry the match's version the player's page showed: a table changed since (the
opponent reported at the venue, the desk entered the slip, a judge or a penalty changed it) is refused, never
decided unseen, and the player is told what the table holds now, as the venue's own page tells them (END-4).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import translation

from taikai.core.problems import Problem
from taikai.events import reads
from taikai.events.actors import PlayerSelf
from taikai.events.errors import ServiceError
from taikai.events.models import Match, Player
from taikai.events.result_words import stale_confirm_text, stale_report_text
from taikai.events.services import participation, results
from taikai.events.services.notices import close_notice
from taikai.events.services.result_input import ResultInput
from taikai.events.texts import problem_text
from taikai.follow.models import AppliedAction, QueuedAction
from taikai.judging.services import player_calls

log = logging.getLogger(__name__)


def apply_action(action: dict[str, Any]) -> dict[str, Any]:
    """A follower's queued action, applied once through the venue's services (their checks, refusals and audit);
    the outcome is kept under the action's key, so the same action sent again gets the same answer."""
    key = str(action.get("key", ""))[:64]
    with transaction.atomic():
        done = AppliedAction.objects.select_for_update().filter(key=key).first()
        if done is None:
            status, code, problem = QueuedAction.Status.APPLIED, "", None
            try:
                with transaction.atomic():
                    _perform(action)
            except ServiceError as exc:
                status, code, problem = QueuedAction.Status.REFUSED, exc.problem.code, exc.problem
            except (KeyError, ValueError, TypeError):  # not an action this venue can read: refused, not retried
                log.exception("follower action %s unreadable", key)
                status, code, problem = QueuedAction.Status.REFUSED, "follow-bad-action", Problem("follow-bad-action")
            words = {}
            for lang in ("ja", "en"):
                with translation.override(lang):
                    words[lang] = _refusal_words(action, problem) if problem is not None else ""
            done = AppliedAction.objects.create(
                key=key,
                event_id=int(action.get("event", 0) or 0),
                status=status,
                code=code,
                message_ja=words["ja"],
                message_en=words["en"],
            )
    return {
        "key": done.key,
        "status": done.status,
        "code": done.code,
        "message_ja": done.message_ja,
        "message_en": done.message_en,
    }


def _refusal_words(action: dict[str, Any], problem: Problem) -> str:
    """The refusal as the venue's page says it: a report or a confirmation made on a table that changed since
    the player's page was drawn is told what the table holds now (its player page's words), the rest by code."""
    if problem.code == "conflict" and action.get("kind") in (QueuedAction.Kind.REPORT, QueuedAction.Kind.CONFIRM):
        match = Match.objects.select_related("round", "player_a", "player_b").filter(pk=int(action["match"])).first()
        player = Player.objects.filter(pk=int(action["player"])).first()
        if match is not None and player is not None:
            if action["kind"] == QueuedAction.Kind.REPORT:
                return stale_report_text(match, player)
            return stale_confirm_text(match, match.side_of(player))
    return problem_text(problem)


def _perform(action: dict[str, Any]) -> None:
    player = (
        Player.objects.select_related("event").filter(pk=int(action["player"]), event_id=int(action["event"])).first()
    )
    # The follower knew the player by the hash of their link; a link revoked or re-issued here since no longer acts.
    if player is None or not player.access_token_hash or player.access_token_hash != action.get("token_hash"):
        raise ServiceError("follow-link-revoked")
    if action["kind"] == QueuedAction.Kind.DROP:
        participation.drop_player(player, by=PlayerSelf(player))
        return
    if action["kind"] == QueuedAction.Kind.CLOSE_NOTICE:  # read on the follower's page: closed as at the venue
        close_notice(int(action.get("payload", {}).get("notice", 0)), player=player, by=PlayerSelf(player))
        return
    if action["kind"] == QueuedAction.Kind.JUDGE_CALL:  # at the player's table now, as the venue's page calls
        description = str(action.get("payload", {}).get("description", ""))[:500]
        player_calls.call_from_player(player.event, player, by=PlayerSelf(player), description=description)
        return
    match = reads.match_for_result(player.event, int(action["match"]))
    if match is None:
        raise ServiceError("follow-match-gone")
    if action["kind"] == QueuedAction.Kind.REPORT:
        data = _reported(match, player, action.get("payload", {}))
        results.report_result(
            match,
            player=player,
            result=data,
            idempotency_key=str(action["key"])[:64],
            version=int(action["seen_version"]),  # the table as the player's page showed it (END-4)
        )
    elif action["kind"] == QueuedAction.Kind.CONFIRM:
        results.confirm_result(match, player=player, version=int(action["seen_version"]))
    else:
        raise ServiceError("follow-bad-action")


def _reported(match: Match, player: Player, payload: dict[str, Any]) -> ResultInput:
    """The player's one-tap choice (``quick``), read as the venue's own page reads it (``from_choice``: with this
    table's format and penalty duels, PEN-1, from the player's side); or a record as the API takes it."""
    if "quick" not in payload:
        return ResultInput.from_json(payload)
    return ResultInput.from_choice(str(payload["quick"]), match, player)
