"""Changing a round's pairings before it starts: by hand, or paired again from a new seed.

Every change is made on the version of the round and its tables the organizer saw (``pairing_state``): a
stale one is refused with the current state, never applied. A table with a result in (a player reported,
the reports disagree, or the desk entered the slip) is a match that was played: an edit keeps it as it is and
changes only the tables without one; a re-pair, which replaces every table, is refused while any has one.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from django.db import transaction

from taikai.audit.services import record, save_and_log
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Match, Player, ResultReport, Round
from taikai.events.permissions import require_organizer
from taikai.events.services import notices
from taikai.events.services.history import event_sheet
from taikai.events.services.rounds import _create_matches, _pair_swiss

Pair = tuple[int, int | None]


@dataclass(frozen=True)
class PairingState:
    """A round's tables as the organizer sees them before changing them.

    ``version`` is what a change is made on: the round's version and every table's (its version, status and
    reports), so a result reported meanwhile makes the page stale as much as another organizer's edit does.
    """

    version: str
    tables: tuple[Match, ...]  # in table order
    kept: tuple[Match, ...]  # the tables with a result: an edit leaves them as they are


def _report_counts(rnd: Round) -> Counter[int]:
    return Counter(ResultReport.objects.filter(match__round=rnd).values_list("match_id", flat=True))


def has_result(match: Match, reported: Collection[int]) -> bool:
    """Reported, disputed or confirmed, or a record or report stored: a played table (END-4). A bye is not."""
    if match.is_bye:
        return False
    return match.status != Match.Status.PENDING or match.record is not None or match.pk in reported


def _state(rnd: Round, tables: list[Match]) -> PairingState:
    reports = _report_counts(rnd)
    seen = ";".join(f"{m.pk}:{m.version}:{m.status}:{reports[m.pk]}" for m in sorted(tables, key=_pk))
    digest = hashlib.sha256(seen.encode()).hexdigest()[:12]
    kept = tuple(m for m in tables if has_result(m, reports))
    return PairingState(f"{rnd.version}-{digest}", tuple(tables), kept)


def _pk(match: Match) -> int:
    return match.pk


def pairing_state(rnd: Round) -> PairingState:
    """What the edit page and the re-pair confirmation show, and the version their form carries (a read)."""
    tables = list(Match.objects.filter(round=rnd).select_related("player_a", "player_b").order_by("table", "seat"))
    return _state(Round.objects.get(pk=rnd.pk), tables)


def _locked(rnd: Round) -> tuple[Round, PairingState]:
    """The round and its tables under lock: a report waits for its table's row (results._lock), so none lands
    between the check and the change."""
    locked = Round.objects.select_for_update().get(pk=rnd.pk)
    tables = list(Match.objects.select_for_update().filter(round=locked).order_by("table", "seat"))
    return locked, _state(locked, tables)


def _table_numbers(matches: tuple[Match, ...]) -> str:
    return ", ".join(str(m.table) for m in matches)


def stale_refusal(state: PairingState, version: str | None) -> Conflict | None:
    """A change made on another version than the current one: refused, naming the tables that have a result
    now, with the current version (the API answers 409 with it)."""
    if version is None or version == state.version:
        return None
    if state.kept:
        return Conflict("pairings-changed-results", version=state.version, tables=_table_numbers(state.kept))
    return Conflict("pairings-changed", version=state.version)


def repair_refusal(rnd: Round, state: PairingState | None = None) -> ServiceError | None:
    """Why this round cannot be paired again, or None: the confirmation page asks only when the re-pair can
    happen, and the service refuses for the same reason."""
    state = pairing_state(rnd) if state is None else state
    if rnd.started_at is not None:
        return ServiceError("round-started")
    if rnd.stage != Round.Stage.SWISS:
        return ServiceError("repair-not-swiss")
    if state.kept:
        return ServiceError("repair-result-in", tables=_table_numbers(state.kept))
    return None


def repair_round(rnd: Round, *, by: Actor, version: str | None = None) -> Round:
    """Pair a round again (e.g. after a late drop) while it has not started and no table has a result; a new
    seed is stored. ``version``: the pairing state the organizer confirmed on."""
    require_organizer(by, rnd.event)
    with transaction.atomic():
        rnd, state = _locked(rnd)
        refusal = stale_refusal(state, version) or repair_refusal(rnd, state)
        if refusal is not None:
            raise refusal
        event, number = rnd.event, rnd.number
        before = {"seed": rnd.seed, "pairings": [[m.player_a_id, m.player_b_id] for m in state.tables]}
        rnd.matches.all().delete()
        rnd.delete()
        new = _pair_swiss(event, by, number=number)  # its entry announces the round paired
        new.version = rnd.version + 1  # the round's versions keep rising across a re-pair
        new.save(update_fields=["version"])
        record(actions.ROUND_REPAIRED, actor=by, obj=new, before=before, seed=new.seed)
    return new


def edit_pairing(
    rnd: Round, *, by: Actor, pairs: list[Pair], allow_rematch: bool = False, version: str | None = None
) -> Round:
    """Replace the pairings by hand before the round starts: checked, logged (no rematch unless confirmed).

    ``pairs`` are every table in order; a table with a result must be given as it is and stays untouched
    (its row, its result and its reports); a table whose pair is unchanged keeps its row too.
    """
    require_organizer(by, rnd.event)
    with transaction.atomic():
        rnd, state = _locked(rnd)
        if rnd.started_at is not None:
            raise ServiceError("round-started")
        stale = stale_refusal(state, version)
        if stale is not None:
            raise stale
        by_id = {p.pk: p for p in rnd.event.players.all()}
        kept = _check_kept(state, pairs, by_id)
        _check_pairs(rnd, pairs, by_id, kept, allow_rematch)
        changed = _replace_tables(rnd, state, pairs, by_id)
        _tell_the_moved(rnd, changed)
        save_and_log(
            rnd,
            actions.PAIRING_EDITED,
            actor=by,
            fields=[],
            before=[[m.table, m.player_a_id, m.player_b_id] for m in state.tables],
            after=[list(p) for p in pairs],
            rematch_confirmed=allow_rematch,
            kept=[m.table for m in state.kept],
            changed=changed,
        )
    return rnd


def _tell_the_moved(rnd: Round, tables: list[int]) -> None:
    """Each player of a table the edit changed is told their table now, in words (issue 22)."""
    moved = rnd.matches.filter(table__in=tables).select_related("round", "player_a", "player_b")
    for m in moved:
        if m.is_bye or m.player_b is None:
            notices.tell(m.player_a, m, "pairing-changed-bye")
            continue
        notices.tell(m.player_a, m, "pairing-changed", opponent=m.player_b.name)
        notices.tell(m.player_b, m, "pairing-changed", opponent=m.player_a.name)


def _check_kept(state: PairingState, pairs: list[Pair], by_id: dict[int, Player]) -> set[int]:
    """Each table with a result is given exactly as it is; the positions (0-based) of those tables."""
    positions = {m.pk: i for i, m in enumerate(state.tables)}
    for m in state.kept:
        i = positions[m.pk]
        if i >= len(pairs) or pairs[i] != (m.player_a_id, m.player_b_id):
            names = {"a": by_id[m.player_a_id].name, "b": by_id[m.player_b_id].name if m.player_b_id else ""}
            raise ServiceError("table-has-result", table=m.table, **names)
    return {positions[m.pk] for m in state.kept}


def _check_pairs(rnd: Round, pairs: list[Pair], by_id: dict[int, Player], kept: set[int], rematch: bool) -> None:
    """The tables that change: known, checked-in (REG-3), not dropped players, each once, no rematch unless
    confirmed. A kept table's players count as seated."""
    seen = {pid for i in kept for pid in pairs[i] if pid is not None}
    met = event_sheet(rnd.event, before_round=rnd.number)
    for i, (a, b) in enumerate(pairs):
        if i in kept:
            continue
        for pid in (a, b):
            if pid is None:
                continue
            if pid not in by_id:
                raise ServiceError("bad-choice", field="player", value=pid)
            if by_id[pid].checked_in_at is None:
                raise ServiceError("not-checked-in", name=by_id[pid].name)
            if pid in seen:
                raise ServiceError("player-twice", name=by_id[pid].name)
            if by_id[pid].dropped:
                raise ServiceError("already-dropped")
            seen.add(pid)
        if b is not None and b in met.line(a).opponents and not rematch:
            raise ServiceError("rematch", a=by_id[a].name, b=by_id[b].name)


def _replace_tables(rnd: Round, state: PairingState, pairs: list[Pair], by_id: dict[int, Player]) -> list[int]:
    """Rows whose pair changed (or that are no longer needed) go, new rows take their table numbers; the
    numbers of the tables that changed."""
    old = list(state.tables)
    same = {i for i, pair in enumerate(pairs) if i < len(old) and (old[i].player_a_id, old[i].player_b_id) == pair}
    Match.objects.filter(pk__in=[m.pk for i, m in enumerate(old) if i not in same]).delete()
    new = [(i + 1, pair) for i, pair in enumerate(pairs) if i not in same]
    for table, (a, b) in new:
        _create_matches(rnd, [(a, b)], manual=True, first_table=table)
    return [table for table, _pair in new]
