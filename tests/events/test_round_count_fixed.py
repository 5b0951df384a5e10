"""The Swiss-round count and the top-cut size are decided when round 1 is paired (issue 22, finding 6).

Left blank, they come from the ruleset's attendance table (`[[tournament.swiss_rounds]]`,
`[[tournament.top_cut]]`) for the players checked in at that moment, and stay: a no-show, a drop or a late
entry later changes nothing unless the organizer decides again.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from taikai.audit.models import AuditEntry
from taikai.core.progress import NextAction
from taikai.events.actors import Staff
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Round
from taikai.events.services import events as event_services
from taikai.events.services import participation, progress, registration, round_plan, transfer, transfer_import
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from tests.factories import make_event

pytestmark = pytest.mark.django_db

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))


def _play(organizer: User, rnd: Round) -> None:
    for m in rnd.matches.filter(is_bye=False).order_by("table"):
        result_services.enter_result(m, by=Staff(organizer), result=A_WINS)


def _event_with_no_shows(organizer: User, registered: int, no_shows: int, **kwargs: Any) -> Event:
    event = make_event(organizer, registered, checked_in=False, **kwargs)
    for player in event.players.order_by("id")[no_shows:]:  # REG-3: only players who checked in are paired
        registration.check_in(player, by=Staff(organizer))
    return event


def test_a_no_show_does_not_add_a_round(organizer: User) -> None:
    # 17 registered, 16 checked in: the table's 16-player line is 4 rounds (17 would be 5).
    event = _event_with_no_shows(organizer, 17, 1)
    round_services.pair_next_round(event, by=Staff(organizer))
    event.refresh_from_db()
    assert progress.plan(event).swiss_rounds == 4
    assert event.swiss_rounds == 4


def test_a_drop_after_round_one_does_not_take_a_round_away(organizer: User) -> None:
    # A 9-player side event is 4 rounds; one player dropping after round 1 leaves 8, still 4 rounds.
    event = make_event(organizer, 9)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    _play(organizer, rnd)
    participation.drop_player(event.players.order_by("id").first(), by=Staff(organizer))
    plan = progress.plan(event)
    assert (plan.swiss_rounds, plan.next_action) == (4, "pair-swiss")
    for _ in range(3):
        _play(organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    assert progress.plan(event).next_action == "finished"
    assert event.rounds.count() == 4


def test_the_top_cut_is_fixed_from_the_checked_in_count(organizer: User) -> None:
    # 9 registered, 8 checked in: the table gives no cut for 8 (4 for 9); a late entry after round 1 keeps it.
    event = _event_with_no_shows(organizer, 9, 1, format=Event.Format.SWISS_CUT)
    round_services.pair_next_round(event, by=Staff(organizer))
    event.refresh_from_db()
    assert (event.swiss_rounds, event.top_cut) == (3, 0)
    late = event.players.order_by("id").first()
    registration.check_in(late, by=Staff(organizer))
    plan = progress.plan(event)
    assert (plan.swiss_rounds, plan.top_cut) == (3, 0)


def test_before_round_one_the_numbers_are_provisional_for_todays_check_ins(organizer: User) -> None:
    event = _event_with_no_shows(organizer, 17, 2, format=Event.Format.SWISS_CUT)
    shown = round_plan.shown(event)
    assert (shown.swiss_rounds, shown.top_cut, shown.provisional, shown.attendance) == (4, 4, True, 15)
    registration.check_in(event.players.order_by("id")[0], by=Staff(organizer))
    registration.check_in(event.players.order_by("id")[1], by=Staff(organizer))
    assert (round_plan.shown(event).swiss_rounds, round_plan.shown(event).attendance) == (5, 17)
    round_services.pair_next_round(event, by=Staff(organizer))
    event.refresh_from_db()
    shown = round_plan.shown(event)
    assert (shown.swiss_rounds, shown.top_cut, shown.provisional, shown.attendance) == (5, 4, False, 17)
    entry = AuditEntry.objects.get(event_id=event.pk, action="taikai.event.round_plan_fixed")
    assert entry.after["swiss_rounds"] == 5 and entry.after["swiss_rounds_attendance"] == 17


def test_the_organizers_own_numbers_are_kept_at_round_one(organizer: User) -> None:
    event = make_event(organizer, 9, format=Event.Format.SWISS_CUT, swiss_rounds=5)
    round_services.pair_next_round(event, by=Staff(organizer))
    event.refresh_from_db()
    assert (event.swiss_rounds, event.swiss_rounds_attendance) == (5, None)
    assert (event.top_cut, event.top_cut_attendance) == (4, 9)  # the blank one is read from the table


def test_the_organizer_changes_them_on_the_version_they_saw(organizer: User) -> None:
    event = make_event(organizer, 9)
    round_services.pair_next_round(event, by=Staff(organizer))
    event.refresh_from_db()
    seen = event.version
    changed = round_plan.set_event_format(event, by=Staff(organizer), version=seen, swiss_rounds=5)
    assert (changed.swiss_rounds, changed.swiss_rounds_attendance, changed.version) == (5, None, seen + 1)
    assert progress.plan(changed).swiss_rounds == 5
    entry = AuditEntry.objects.get(event_id=event.pk, action="taikai.event.round_plan_set")
    assert (entry.before["swiss_rounds"], entry.after["swiss_rounds"]) == (4, 5)
    with pytest.raises(Conflict) as stale:  # a second organizer who saw the page before the change
        round_plan.set_event_format(event, by=Staff(organizer), version=seen, swiss_rounds=3)
    assert stale.value.problem.as_dict() == {"code": "round-plan-conflict", "swiss_rounds": 5, "top_cut": 0}
    assert Event.objects.get(pk=event.pk).swiss_rounds == 5


def test_a_change_that_contradicts_rounds_paired_is_refused(organizer: User) -> None:
    event = make_event(organizer, 8)
    for _ in range(2):
        _play(organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    event.refresh_from_db()
    for rounds, code in ((1, "plan-rounds-paired"), (None, "round-plan-required"), (31, "swiss-rounds-range")):
        with pytest.raises(ServiceError) as refused:
            round_plan.set_event_format(event, by=Staff(organizer), version=event.version, swiss_rounds=rounds)
        assert refused.value.problem.code == code
    assert Event.objects.get(pk=event.pk).swiss_rounds == 3
    event = round_plan.set_event_format(event, by=Staff(organizer), version=event.version, swiss_rounds=2)
    assert progress.plan(event).next_action is NextAction.FINISHED  # round 2 was the last


def test_nothing_changes_once_the_top_cut_is_made(organizer: User) -> None:
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, top_cut=4)
    for _ in range(3):
        _play(organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    round_services.pair_next_round(event, by=Staff(organizer))  # the top cut
    event.refresh_from_db()
    for rounds, cut in ((4, 4), (3, 8), (3, 2)):
        with pytest.raises(ServiceError) as refused:
            round_plan.set_event_format(
                event, by=Staff(organizer), version=event.version, swiss_rounds=rounds, top_cut=cut
            )
        assert refused.value.problem.code == "plan-cut-made"


def test_undoing_round_one_reads_the_table_again_when_it_is_paired_again(organizer: User) -> None:
    event = make_event(organizer, 17)  # 17 checked in: 5 rounds
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    assert Event.objects.get(pk=event.pk).swiss_rounds == 5
    round_services.undo_round(rnd, by=Staff(organizer))  # one of them had gone home
    event.refresh_from_db()
    assert (event.swiss_rounds, event.swiss_rounds_attendance) == (None, None)
    assert round_plan.shown(event).provisional
    participation.drop_player(event.players.order_by("id").first(), by=Staff(organizer))
    round_services.pair_next_round(event, by=Staff(organizer))
    event.refresh_from_db()
    assert (event.swiss_rounds, event.swiss_rounds_attendance) == (4, 16)


def test_the_event_form_cannot_change_them_after_round_one(organizer: User) -> None:
    event = make_event(organizer, 9, format=Event.Format.SWISS_CUT)
    round_services.pair_next_round(event, by=Staff(organizer))
    for change in ({"swiss_rounds": 3}, {"top_cut": 8}, {"format": Event.Format.SWISS}):
        with pytest.raises(ServiceError) as refused:
            event_services.update_event(event, by=Staff(organizer), **change)
        assert refused.value.problem.code in ("round-plan-fixed", "event-started-fixed")
    event_services.update_event(event, by=Staff(organizer), swiss_rounds=4, venue="会場")  # unchanged: fine
    assert (Event.objects.get(pk=event.pk).swiss_rounds, Event.objects.get(pk=event.pk).top_cut) == (4, 4)


def test_an_exported_event_keeps_the_numbers_fixed_at_round_one(organizer: User) -> None:
    event = _event_with_no_shows(organizer, 17, 1)
    _play(organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    event.refresh_from_db()
    exported = transfer.export_event(event, by=Staff(organizer))
    assert (exported["event"]["swiss_rounds"], exported["event"]["swiss_rounds_attendance"]) == (4, 16)
    copy = transfer_import.import_event(exported, by=Staff(organizer))
    for player in copy.players.order_by("id")[:3]:
        participation.drop_player(player, by=Staff(organizer))
    assert progress.plan(copy).swiss_rounds == 4
    assert (copy.swiss_rounds, copy.swiss_rounds_attendance) == (4, 16)


def test_an_older_file_of_a_running_event_reads_the_table_for_its_round_one(organizer: User) -> None:
    event = _event_with_no_shows(organizer, 17, 1)
    _play(organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    event.refresh_from_db()
    exported = transfer.export_event(event, by=Staff(organizer))
    for key in ("swiss_rounds_attendance", "top_cut_attendance"):
        del exported["event"][key]
    exported["event"]["swiss_rounds"] = None  # a file from before the numbers were fixed at round 1
    copy = transfer_import.import_event(exported, by=Staff(organizer))
    registration.check_in(copy.players.order_by("id").first(), by=Staff(organizer))  # a late entry
    assert progress.plan(copy).swiss_rounds == 4  # the 16 round 1 seated, not the 17 now
