"""The event's audit log as messages: what the live stream (``taikai.api.stream``) sends and the webhooks
(``taikai.webhooks.delivery``) POST. Both read the audit log by entry id, so a webhook sees exactly what a stream
client sees, in order; an action not named in ``KINDS`` is not shown to either."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

KINDS = {
    "taikai.round.paired": "pairings",
    "taikai.round.repaired": "pairings",
    "taikai.round.pairing_edited": "pairings",
    "taikai.round.top_cut": "pairings",
    "taikai.round.started": "round-started",
    "taikai.round.paused": "clock-paused",
    "taikai.round.resumed": "clock-resumed",
    "taikai.round.finished": "round-finished",
    "taikai.round.undone": "pairings",
    "taikai.round.reopened": "pairings",
    "taikai.match.time_extended": "time-extended",
    "taikai.match.result_reported": "result",
    "taikai.match.result_confirmed": "result",
    "taikai.match.result_disputed": "result",
    "taikai.match.result_entered": "result",
    "taikai.match.result_corrected": "result",
    "taikai.match.result_reopened": "result",
    "taikai.match.penalty_duel_recorded": "result",  # a duel loss (PEN-1): both players' pages say it
    "taikai.player.registered": "players",
    "taikai.player.checked_in": "players",
    "taikai.player.dropped": "players",
    "taikai.player.undropped": "players",
    "taikai.player.disqualified": "players",
    "taikai.player.disqualification_lifted": "players",
    # a personal link replaced or revoked: its open page switches to the page that explains (nothing else
    # refreshes for it, and what the stream says is only that some link changed)
    "taikai.player.access_issued": "access",
    "taikai.player.access_revoked": "access",
    "taikai.player.access_recovered": "access",
    "taikai.player.archetype_set": "players",
    "taikai.event.archetypes_published": "players",  # the players' archetypes appear (or go) in public reads
    "taikai.event.archetypes_unpublished": "players",
    "taikai.event.started": "event",
    "taikai.event.updated": "event",
    "taikai.event.finished": "event",
    "taikai.event.announced": "event",  # announce.js reads the announcement when it sees this action
    "taikai.event.announcement_cleared": "event",
    # the judges' queue (what a spectator sees is only that a call was made, not by whom or why)
    "taikai.judging.call_raised": "judge-call",
    "taikai.judging.integrity_flagged": "judge-call",  # a disputed report, a refused ID over a lead (issue 24)
    "taikai.judging.call_joined": "judge-call",
    "taikai.judging.call_withdrawn": "judge-call",
    "taikai.judging.call_taken": "judge-call",
    "taikai.judging.call_ruled": "judge-call",
    "taikai.judging.call_closed": "judge-call",
    "taikai.judging.call_settled": "judge-call",
    "taikai.judging.report_received": "judge-call",
    "taikai.judging.appeal_filed": "judge-call",
}


@dataclass(frozen=True)
class Message:
    id: int | None
    kind: str
    data: dict[str, Any]

    def encode(self) -> bytes:
        return self.encoded

    @cached_property
    def encoded(self) -> bytes:
        """Encoded once, however many streams send it (a pairing message with its seats is some kilobytes)."""
        head = f"id: {self.id}\n" if self.id is not None else ""
        return f"{head}event: {self.kind}\ndata: {json.dumps(self.data, ensure_ascii=False)}\n\n".encode()


def message_of(row: tuple[int, Any, str, str, str]) -> Message | None:
    """The message for one audit row (id, at, action, object_type, object_id), or None for an action not shown."""
    pk, at, action, object_type, object_id = row
    kind = KINDS.get(action)
    if kind is None:
        return None
    data = {"action": action, "at": at.isoformat(), "object": f"{object_type}:{object_id}" if object_type else None}
    return Message(pk, kind, data)
