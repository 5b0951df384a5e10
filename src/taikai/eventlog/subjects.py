"""What one page of log entries is about and who wrote them: the tables, players and rounds they name, read
in one query per kind (a page never reads row by row)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from taikai.audit.models import AuditEntry
from taikai.decks.models import DeckRegistration
from taikai.eventlog.values import model_of
from taikai.events.models import Event, Match, Player, Round, Team
from taikai.judging.models import Appeal, JudgeCall, Penalty

KINDS = {
    "events.event": _lazy("Event"),
    "events.team": _lazy("Team"),
    "judging.penalty": _lazy("Penalty"),
    "judging.appeal": _lazy("Appeal"),
    "judging.judgecall": _lazy("Judge call"),
    "judging.tabletoollog": _lazy("Table tool"),
    "decks.deckregistration": _lazy("Deck list"),
    "decks.eventdecks": _lazy("Deck lists"),
    "tokens.apitoken": _lazy("API token"),
    "webhooks.webhook": _lazy("Webhook"),
    # entries written before issue 28 name the API app, which owned these rows then
    "taikai_api.apitoken": _lazy("API token"),
    "taikai_api.webhook": _lazy("Webhook"),
    "taikai_api.deckarchetype": _lazy("Deck archetype"),
    "taikai_api.prizepublication": _lazy("Prize list"),
    "cards.banlist": _lazy("Forbidden/Limited list"),
}
# Rows about one player: the log names the player.
PLAYER_ROWS: dict[str, type[Penalty | Appeal | DeckRegistration]] = {
    "judging.penalty": Penalty,
    "judging.appeal": Appeal,
    "decks.deckregistration": DeckRegistration,
}
ACTOR_LABELS = {"self-service": _lazy("Self-registration"), "integrity": _lazy("taikai (integrity check)")}


def _kind(object_type: str) -> str:
    model = model_of(object_type)
    return str(model._meta.verbose_name).capitalize() if model is not None else object_type


def _ids(entries: list[AuditEntry], label: str) -> set[int]:
    return {int(e.object_id) for e in entries if e.object_type == label and e.object_id.isdigit()}


class Subjects:
    """The rows a page of entries names, looked up once."""

    def __init__(self) -> None:
        self.matches: dict[int, Match] = {}
        self.players: dict[int, Player] = {}
        self.rounds: dict[int, Round] = {}
        self.owners: dict[tuple[str, int], str] = {}  # a penalty, an appeal, a deck list -> its player's name
        self.calls: dict[int, int | None] = {}
        self.names: dict[tuple[str, int], str] = {}

    @classmethod
    def of(cls, entries: list[AuditEntry]) -> Subjects:
        found = cls()
        matches = Match.objects.select_related("round", "player_a", "player_b")
        found.matches = {m.pk: m for m in matches.filter(pk__in=_ids(entries, "events.match"))}
        found.rounds = {r.pk: r for r in Round.objects.filter(pk__in=_ids(entries, "events.round"))}
        acting = {
            int(e.actor_label[7:])
            for e in entries
            if e.actor_label.startswith("player:") and e.actor_label[7:].isdigit()
        }
        people = _ids(entries, "events.player") | acting
        found.players = {p.pk: p for p in Player.objects.filter(pk__in=people)}
        for label, model in PLAYER_ROWS.items():
            rows: Any = model.objects.filter(pk__in=_ids(entries, label)).values_list("pk", "player__name")
            found.owners.update({(label, pk): name for pk, name in rows})
        calls = JudgeCall.objects.filter(pk__in=_ids(entries, "judging.judgecall")).values_list("pk", "table")
        found.calls = dict(calls)
        teams = Team.objects.filter(pk__in=_ids(entries, "events.team")).values_list("pk", "name")
        events = Event.objects.filter(pk__in=_ids(entries, "events.event")).values_list("pk", "name")
        found.names = {("events.team", pk): n for pk, n in teams} | {("events.event", pk): n for pk, n in events}
        return found

    def match(self, entry: AuditEntry) -> Match | None:
        if entry.object_type != "events.match" or not entry.object_id.isdigit():
            return None
        return self.matches.get(int(entry.object_id))

    def actor(self, entry: AuditEntry) -> str:
        if entry.actor is not None:
            return str(entry.actor.get_username())
        label = entry.actor_label
        if label.startswith("player:") and label[7:].isdigit():
            player = self.players.get(int(label[7:]))
            return player.name if player is not None else _("A player")
        known = ACTOR_LABELS.get(label)
        return str(known) if known is not None else label or "taikai"

    def subject(self, entry: AuditEntry) -> str:
        """The table, player or round the entry is about, in words; the kind of row for anything else."""
        kind, raw = entry.object_type, entry.object_id
        pk = int(raw) if raw.isdigit() else None
        if pk is None:
            return ""
        if kind == "events.match" and pk in self.matches:
            m = self.matches[pk]
            return _("Round %(n)s, table %(t)s") % {"n": m.round.number, "t": m.table}
        if kind == "events.player" and pk in self.players:
            return self.players[pk].name
        if kind == "events.round" and pk in self.rounds:
            return _("Round %(n)s") % {"n": self.rounds[pk].number}
        what = str(KINDS.get(kind) or _kind(kind))
        if (kind, pk) in self.owners:
            return f"{what}: {self.owners[(kind, pk)]}"
        if kind == "judging.judgecall" and self.calls.get(pk) is not None:
            return f"{what}: " + _("Table %(t)s") % {"t": self.calls[pk]}
        if (kind, pk) in self.names:
            return f"{what}: {self.names[(kind, pk)]}"
        return what
