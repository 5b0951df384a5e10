"""An event's recorded facts, read from the database in a few queries, for the sheet in taikai.core.

Nothing here adds up points: pairing, standings and previews all call ``event_sheet`` (or
``team_sheet``) and read the records that taikai.core.sheet computes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping

from django.db.models import Q

from taikai.audit.models import last_change
from taikai.core import sheet as core_sheet
from taikai.core.sheet import Entrant, EventFacts, RoundFacts, Sheet, Stage, Table
from taikai.db.heavy import in_write_transaction
from taikai.events.models import Event, Match, Round, TeamMatch


def event_facts(
    event: Event, before_round: int | None = None, overrides: Mapping[int, str] | None = None
) -> EventFacts:
    """Players, and every round's tables by stage; ``overrides`` replaces some matches' results (by pk),
    for a correction's preview. A result counts once confirmed; a bye is always decided.

    The entrants are the players who checked in (REG-3), and anyone already seated at a table: a player
    who registered but never came is not in the event's record, so never paired and never ranked."""
    matches = Match.objects.filter(round__event=event)
    seated = Q(pk__in=matches.values("player_a_id")) | Q(
        pk__in=matches.filter(player_b__isnull=False).values("player_b_id")
    )
    entrants = tuple(
        Entrant(pid, late, dropped, ineligible != "")  # REG-2: an ineligible player is not paired
        for pid, late, dropped, ineligible in event.players.filter(Q(checked_in_at__isnull=False) | seated)
        .order_by("id")
        .values_list("id", "late_entry_round", "dropped_after_round", "ineligible_reason")
    )
    rounds = event.rounds.order_by("number")
    if before_round is not None:
        rounds = rounds.filter(number__lt=before_round)
        matches = matches.filter(round__number__lt=before_round)
    stages = dict(rounds.values_list("number", "stage"))
    tables: dict[int, list[Table]] = {number: [] for number in stages}
    rows = matches.order_by("round__number", "table", "seat").values_list(
        "pk", "round__number", "player_a_id", "player_b_id", "is_bye", "result", "status"
    )
    for pk, number, a, b, is_bye, result, status in rows:
        if is_bye:
            tables[number].append(Table(a))
            continue
        decided = result if status == Match.Status.CONFIRMED else ""
        tables[number].append(Table(a, b, (overrides or {}).get(pk, decided)))
    return EventFacts(entrants, tuple(RoundFacts(n, Stage(stages[n]), tuple(t)) for n, t in sorted(tables.items())))


def event_sheet(event: Event, before_round: int | None = None, overrides: Mapping[int, str] | None = None) -> Sheet:
    """Every player's record (points, opponents, byes, missed rounds, stage reached).

    Outside a write transaction the current sheet is built once per change to the event and shared
    (``current_sheet``); inside one, the transaction may have changed facts it has not logged yet, so the
    sheet is read afresh (a service that knows its writes so far are logged asks ``current_sheet`` itself)."""
    if before_round is None and not overrides and not in_write_transaction():
        return current_sheet(event)
    return core_sheet.sheet(event_facts(event, before_round, overrides), event.ruleset)


_SHEETS: OrderedDict[tuple[object, ...], Sheet] = OrderedDict()
_SHEETS_KEPT = 8  # a few events' current sheets (one 4,096-player sheet is a few MB)
_sheets_guard = threading.Lock()


def current_sheet(event: Event) -> Sheet:
    """The event's sheet as it stands, keyed by its latest audit entry (every change writes one, and an entry
    is never removed, so a key names one state of the event's facts): the standings after a round's last
    result and the next round's pairing read the same sheet.

    Inside a transaction, call it only where every write so far has its audit entry. A sheet built inside a
    write transaction is not kept: that transaction may still roll back, and on SQLite its audit entry's id
    would then be given to another change."""
    key = (event.pk, event.created_at, last_change(event.pk), event.ruleset_fingerprint)
    with _sheets_guard:
        found = _SHEETS.get(key)
        if found is not None:
            _SHEETS.move_to_end(key)
            return found
    built = core_sheet.sheet(event_facts(event), event.ruleset)
    if not in_write_transaction():
        with _sheets_guard:
            _SHEETS[key] = built
            while len(_SHEETS) > _SHEETS_KEPT:
                _SHEETS.popitem(last=False)
    return built


def round_facts(rnd: Round) -> RoundFacts:
    """One round's tables, as the sheet reads them (e.g. the bracket's latest round)."""
    tables = tuple(
        Table(a) if is_bye else Table(a, b, result if status == Match.Status.CONFIRMED else "")
        for a, b, is_bye, result, status in rnd.matches.order_by("table", "seat").values_list(
            "player_a_id", "player_b_id", "is_bye", "result", "status"
        )
    )
    return RoundFacts(rnd.number, Stage(rnd.stage), tables)


def team_facts(event: Event) -> EventFacts:
    """Teams and their team matches of the Swiss rounds (a team match's result is set once all seats are)."""
    entrants = tuple(
        Entrant(tid, None, dropped)
        for tid, dropped in event.teams.order_by("id").values_list("id", "dropped_after_round")
    )
    tables: dict[int, list[Table]] = {
        n: [] for n in event.rounds.filter(stage=Round.Stage.SWISS).order_by("number").values_list("number", flat=True)
    }
    rows = (
        TeamMatch.objects.filter(round__event=event, round__stage=Round.Stage.SWISS)
        .order_by("round__number", "table")
        .values_list("round__number", "team_a_id", "team_b_id", "result")
    )
    for number, a, b, result in rows:
        tables[number].append(Table(a) if b is None else Table(a, b, result))
    return EventFacts(entrants, tuple(RoundFacts(n, Stage.SWISS, tuple(t)) for n, t in sorted(tables.items())))


def team_sheet(event: Event) -> Sheet:
    return core_sheet.sheet(team_facts(event), event.ruleset)
