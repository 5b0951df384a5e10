"""Rounds: pairing (Swiss, top cut, elimination) and taking a round back (the round clock: clock; edits and
re-pairs: pairing_edits)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from taikai.audit.services import record, save_and_log
from taikai.core import sheet as core_sheet
from taikai.core.collation import name_order
from taikai.core.pairing import elimination
from taikai.core.pairing.elimination import BracketRound
from taikai.core.pairing.types import PairingError
from taikai.core.progress import NextAction
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, Round, bye, create_round
from taikai.events.permissions import require_organizer
from taikai.events.services import engine, round_plan
from taikai.events.services.history import current_sheet, round_facts
from taikai.events.services.progress import plan
from taikai.events.services.round_end import finish_round
from taikai.events.signals import for_round, round_paired


def planned_swiss_rounds(event: Event) -> int:
    return round_plan.current(event).swiss_rounds


def planned_top_cut(event: Event) -> int:
    return round_plan.current(event).top_cut


def _require_previous_finished(event: Event) -> None:
    last = event.rounds.select_for_update().last()
    if last is not None:
        open_tables = last.matches.exclude(status=Match.Status.CONFIRMED).count()
        if open_tables:
            raise ServiceError("round-not-finished", count=open_tables)
        if last.status != Round.Status.FINISHED:
            finish_round(last)  # its last result committed but the server stopped before the round ended


SEED_LIMIT = 2**62  # the random seeds taikai draws are below this; a given seed must be too


def pair_next_round(event: Event, *, by: Actor, seed: int | None = None) -> Round:
    """Pair what comes next. ``seed``: the organizer's seed for the round's draw (stored with the round, as a
    drawn one is), so that an event can be replayed identically; None draws one."""
    require_organizer(by, event)
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise ServiceError("bad-seed", limit=SEED_LIMIT - 1)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        _require_previous_finished(event)
        if not event.rounds.exists():
            round_plan.fix_at_round_one(event, by=by)  # the rounds and the cut stay what they are now
        p = plan(event)
        if p.next_action == NextAction.PAIR_SWISS and event.is_team_event:
            from taikai.events.services.team_play import pair_team_round

            rnd = pair_team_round(event, by, number=event.rounds.count() + 1, seed=seed)
        elif p.next_action == NextAction.PAIR_SWISS:
            rnd = _pair_swiss(event, by, number=event.rounds.count() + 1, seed=seed)
        elif p.next_action == NextAction.TOP_CUT:
            rnd = _top_cut(event, by, p.top_cut, seed)
        elif p.next_action == NextAction.PAIR_ELIMINATION:
            rnd = _pair_elimination(event, by, seed)
        else:
            raise ServiceError("all-rounds-played")
        if event.status == Event.Status.REGISTRATION:
            event.status = Event.Status.RUNNING
            save_and_log(
                event,
                actions.EVENT_STARTED,
                actor=by,
                fields=["status"],
                ruleset_fingerprint=event.ruleset_fingerprint,
            )
    return rnd


def _active(event: Event) -> Any:
    """Who can be paired: checked in (REG-3), not dropped, and with the right to take part (REG-2)."""
    return event.players.filter(dropped_after_round__isnull=True, checked_in_at__isnull=False, ineligible_reason="")


def _active_players(event: Event) -> list[Player]:
    return list(_active(event).order_by("id"))


def _pair_swiss(event: Event, by: Actor, number: int, seed: int | None = None) -> Round:
    if _active(event).count() < 2:
        raise ServiceError("no-players")
    given = seed is not None
    seed = secrets.randbits(62) if seed is None else seed
    # The sheet the standings after the last result read (the event's row is locked, every write so far logged)
    request = engine.swiss_request(current_sheet(event), number, seed)
    answer = engine.pair_swiss(request)
    rnd = create_round(
        event=event,
        number=number,
        stage=Round.Stage.SWISS,
        seed=seed,
        pairing_input=request,
        pairing_report=answer.get("explanations", []),
        time_limit_seconds=event.ruleset.time.match_minutes * 60,
    )
    tables = [(int(a), int(b)) for a, b in answer["pairings"]]
    _create_matches(rnd, [*tables, *((int(x), None) for x in answer["byes"])])
    record(
        actions.ROUND_PAIRED,
        actor=by,
        obj=rnd,
        announce=[for_round(round_paired, rnd, by)],
        seed=seed,
        seed_given=given,
        after={"pairings": answer["pairings"], "byes": answer["byes"]},
    )
    return rnd


def _create_matches(
    rnd: Round, tables: list[tuple[int, int | None]], manual: bool = False, first_table: int = 1
) -> None:
    """Tables in order from ``first_table``, by player id; (player, None) is a bye, reported automatically as a
    confirmed win. One statement for the round (the ids are the pairing's: players of the event)."""
    rows = []
    for number, (a, b) in enumerate(tables, start=first_table):
        if b is None:
            rows.append(bye(rnd, number, a, manual=manual))
        else:
            rows.append(Match(round=rnd, table=number, player_a_id=a, player_b_id=b, manual=manual))
    Match.objects.bulk_create(rows)


def _cut_eligible(event: Event) -> list[int]:
    """The standings, best first, without dropped players and those who declined their place."""
    from taikai.events.services.standings import standings_for

    ineligible = set(event.players.exclude(ineligible_reason="").values_list("pk", flat=True))  # REG-2
    declined = set(event.players.filter(declined_top_cut=True).values_list("pk", flat=True))
    barred = ineligible | declined
    return [row.player_id for row in standings_for(event) if not row.dropped and row.player_id not in barred]


def _top_cut(event: Event, by: Actor, cut: int, seed: int | None = None) -> Round:
    eligible = _cut_eligible(event)
    try:
        bracket = elimination.top_cut(eligible, event.ruleset, size=cut)
    except PairingError as exc:
        raise ServiceError(exc.problem.code, **exc.problem.params) from exc
    seeds = eligible[:cut]  # the bracket's players, best first (as stored for an appeal)
    seed = secrets.randbits(62) if seed is None else seed
    rnd = _elimination_round(
        event, {"seeds": seeds, "seed": seed, "random": False}, seed, elimination.first_round(bracket)
    )
    record(actions.TOP_CUT_MADE, actor=by, obj=rnd, announce=[for_round(round_paired, rnd, by)], seeds=seeds)
    return rnd


def _elimination_round(event: Event, request: dict[str, Any], seed: int, paired: BracketRound) -> Round:
    """Store the bracket round core paired: its tables in bracket order, byes in place."""
    rnd = create_round(
        event=event,
        number=event.rounds.count() + 1,
        stage=Round.Stage.ELIMINATION,
        seed=seed,
        pairing_input=request,
        time_limit_seconds=event.ruleset.time.match_minutes * 60,
    )
    _create_matches(rnd, [(int(a), int(b) if b is not None else None) for a, b in paired.tables])
    return rnd


def _pair_elimination(event: Event, by: Actor, seed: int | None = None) -> Round:
    last = event.rounds.filter(stage=Round.Stage.ELIMINATION).last()
    seed = secrets.randbits(62) if seed is None else seed
    if last is None:  # a pure single-elimination event: the bracket is drawn from the stored seed
        seeds = [p.pk for p in _active_players(event)]
        if len(seeds) < 2:
            raise ServiceError("no-players")
        paired = engine.first_bracket_round(seeds, seed, randomly=True)
        rnd = _elimination_round(event, {"seeds": seeds, "seed": seed, "random": True}, seed, paired)
    else:
        winners = [int(p) for p in core_sheet.advancing(round_facts(last))]
        rnd = _elimination_round(event, {"advancing": winners}, seed, engine.next_bracket_round(winners))
    record(actions.ROUND_PAIRED, actor=by, obj=rnd, announce=[for_round(round_paired, rnd, by)], stage="elimination")
    return rnd


def undo_round(rnd: Round, *, by: Actor) -> Event:
    """Take back the latest round while no result is in (a wrong pairing that was already announced): its
    tables go, the event is as it was before it was paired (round 1 undone: registration again)."""
    require_organizer(by, rnd.event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=rnd.event_id)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        last = event.rounds.order_by("-number").first()
        if last is None or last.pk != rnd.pk:
            raise ServiceError("undo-not-latest")
        played = rnd.matches.filter(is_bye=False).exclude(status=Match.Status.PENDING, record__isnull=True)
        reported = rnd.matches.filter(reports__isnull=False).exists()
        if played.exists() or reported or rnd.team_matches.exclude(result="").exclude(result="bye").exists():
            raise ServiceError("undo-result-in")
        before = {
            "number": rnd.number,
            "stage": rnd.stage,
            "seed": rnd.seed,
            "started_at": rnd.started_at.isoformat() if rnd.started_at else None,
            "tables": [list(t) for t in rnd.matches.values_list("table", "player_a_id", "player_b_id")],
        }
        number = rnd.number
        rnd.matches.all().delete()
        rnd.team_matches.all().delete()
        rnd.delete()
        # A late entry registered for the round after this one now simply joins this one.
        for player in event.players.filter(late_entry_round=number + 1):
            player.late_entry_round = number if number > 1 else None
            player.version += 1
            player.save(update_fields=["late_entry_round", "version"])
        released = {} if event.rounds.exists() else round_plan.release_at_undo(event)
        if not event.rounds.exists() and event.status == Event.Status.RUNNING:
            event.status = Event.Status.REGISTRATION
        event.version += 1
        event.save(update_fields=["status", "version", *round_plan.PLAN_FIELDS])
        after = {"status": event.status, **({"round_plan_released": released} if released else {})}
        record(actions.ROUND_UNDONE, actor=by, obj=event, before=before, after=after)
    return event


@dataclass(frozen=True)
class CutSeat:
    seed: int
    player_id: int
    name: str
    rank: int


@dataclass(frozen=True)
class CutPreview:
    """Who the top cut would take now, by seed (1 v N, ...), and who declined their place."""

    size: int
    seats: tuple[CutSeat, ...]
    declined: tuple[str, ...]


def top_cut_preview(event: Event) -> CutPreview:
    from taikai.events.services.standings import standings_for

    size = planned_top_cut(event)
    rows = {row.player_id: row for row in standings_for(event)}
    eligible = _cut_eligible(event)[:size]
    seats = tuple(CutSeat(k, pid, rows[pid].name, rows[pid].rank) for k, pid in enumerate(eligible, start=1))
    declined = tuple(
        p.name
        for p in sorted(event.players.filter(declined_top_cut=True), key=lambda p: name_order(p.name, p.name_kana))
    )
    return CutPreview(size, seats, declined)


def decline_top_cut(player: Player, *, by: Actor) -> Player:
    """A qualified player declines their top-cut place before the cut is made; the next in the standings
    moves up (the decline is recorded)."""
    require_organizer(by, player.event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=player.event_id)
        player = Player.objects.select_for_update().get(pk=player.pk)
        if plan(event).next_action != NextAction.TOP_CUT:
            raise ServiceError("cut-not-next")
        qualified = _cut_eligible(event)[: planned_top_cut(event)]
        if player.pk not in qualified:
            raise ServiceError("not-qualified", name=player.name)
        player.declined_top_cut = True
        save_and_log(
            player,
            actions.TOP_CUT_DECLINED,
            actor=by,
            fields=["declined_top_cut"],
            seed=qualified.index(player.pk) + 1,
            moved_up=next(iter(_cut_eligible(event)[: planned_top_cut(event)][-1:]), None),
        )
    return player
