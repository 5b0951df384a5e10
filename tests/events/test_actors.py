"""The actor is a value (STYLE 14): every public service takes ``by: Actor`` and checks it in
``taikai.events.permissions``. A matrix of roles x services, token caps, and the player acting for themself (the
services' signatures: test_actor_signatures.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from taikai.audit.models import AuditEntry
from taikai.decks import archetypes
from taikai.decks import lock as deck_lock
from taikai.decks import services as deck_services
from taikai.decks.models import DeckRegistration
from taikai.events.actors import Actor, PlayerSelf, Staff, System, Visitor
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Match, Player, StaffRole
from taikai.events.permissions import role_of
from taikai.events.services import clock as clock_services
from taikai.events.services import (
    csv_import,
    links,
    pairing_edits,
    participation,
    registration,
    round_plan,
    rulings,
    team_play,
    transfer,
    transfer_import,
)
from taikai.events.services import events as event_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services import teams as team_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import Appeal, JudgeCall, Penalty
from taikai.judging.services import (
    appeals,
    calls,
    database,
    penalties,
    penalty_effects,
    penalty_reversal,
    prizes,
    tools,
)
from taikai.judging.services import time_procedure as tps
from taikai.tokens import services as api_services
from taikai.tokens.models import ApiToken
from tests.factories import accepted, make_event

pytestmark = pytest.mark.django_db

REFUSALS = {"not-organizer", "not-staff", "not-judge", "not-head-judge", "registration-closed"}
WIN_A = ResultInput(({"winner": "A"}, {"winner": "A"}))


@dataclass
class World:
    event: Event
    other_event: Event
    match: Match
    own: Player  # the player the player-facing services act on
    other: Player  # another player of the same event
    admin: User
    actors: dict[str, Actor]


def _user(name: str) -> User:
    return get_user_model().objects.create_user(username=name)  # no password: hashing is slow and unused here


def _role(event: Event, user: User, role: str) -> None:
    StaffRole.objects.update_or_create(event=event, user=user, defaults={"role": role})


@pytest.fixture
def world(organizer: User) -> World:
    admin = Staff(organizer)  # the site's first organizer is a superuser
    event = make_event(organizer, 4)
    other_event = make_event(organizer, 2, name="別の大会")
    org, head, judge, stranger = (_user(n) for n in ("org", "head", "judge", "stranger"))
    for e in (event, other_event):
        _role(e, org, StaffRole.Role.ORGANIZER)
    _role(event, head, StaffRole.Role.HEAD_JUDGE)
    _role(event, judge, StaffRole.Role.JUDGE)
    rnd = round_services.pair_next_round(event, by=admin)
    match = rnd.matches.filter(is_bye=False).select_related("round__event", "player_a", "player_b").first()
    assert match is not None and match.player_b is not None
    actors: dict[str, Actor] = {
        "organizer": Staff(org),
        "head_judge": Staff(head),
        "judge": Staff(judge),
        "stranger": Staff(stranger),
        "admin": admin,
        "own_player": PlayerSelf(match.player_a),
        "other_player": PlayerSelf(match.player_b),
        "visitor": Visitor(),
        "system": System("test"),
        "judge_token": Staff(org, token_event_id=event.pk, cap=StaffRole.Role.JUDGE),
        "other_event_token": Staff(org, token_event_id=other_event.pk, cap=StaffRole.Role.ORGANIZER),
    }
    return World(event, other_event, match, match.player_a, match.player_b, organizer, actors)


# Who passes each kind of check. A site administrator counts as organizer but not as head judge (CS 3: the
# one head judge is named on the staff page); an organizer is not the head judge; a token is worth its capped
# role in its own event only.
STAFF = {"organizer", "head_judge", "judge", "admin", "system", "judge_token"}
PASSES = {
    "organizer": {"organizer", "admin", "system"},
    "head_judge": {"head_judge", "system"},
    "judge": STAFF,
    "staff": STAFF,
    "player_or_staff": STAFF | {"own_player"},
    "player_or_organizer": {"organizer", "admin", "system", "own_player"},
    "player_or_judge": STAFF | {"own_player"},
    "site_organizer": {"admin"},
}


def _penalty(w: World) -> Penalty:
    return penalties.issue_penalty(
        w.event, by=Staff(w.admin), player=w.own, infraction="INF-1", rung="caution", reason="test"
    )


def _call(w: World) -> JudgeCall:
    return calls.raise_call(w.event, table=w.match.table, by=Staff(w.admin), description="ruling")


def _appeal(w: World) -> Appeal:
    return appeals.file_appeal(w.own, reason="appeal", penalty=_penalty(w), by=Staff(w.admin))


def _registration(w: World) -> DeckRegistration:
    from taikai.decks.demo import LEGAL_SHEET, load_demo_cards

    load_demo_cards()
    return accepted(deck_services.submit_deck(w.own, deck_services.DeckInput(text=LEGAL_SHEET), by=Staff(w.admin)))


def _token(w: World) -> ApiToken:
    row, _raw = api_services.create_token(w.event, by=Staff(w.admin), username="judge", role=StaffRole.Role.JUDGE)
    return row


Call = Callable[[World, Actor], Any]
# (service, what it needs, whether it must name a person: ``issued_by`` and the like refuse ``System``)
SERVICES: list[tuple[str, str, bool, Call]] = [
    (
        "create_event",
        "site_organizer",
        True,
        lambda w, a: event_services.create_event(by=a, name="x", date=dt.date(2026, 12, 6), ruleset_name="x"),
    ),
    (
        "create_staff_user",
        "site_organizer",
        True,
        lambda w, a: event_services.create_staff_user(by=a, username="", password=""),
    ),
    ("import_event", "site_organizer", True, lambda w, a: transfer_import.import_event({}, by=a)),
    ("update_event", "organizer", False, lambda w, a: event_services.update_event(w.event, by=a, venue="会場")),
    (
        "set_event_format",
        "organizer",
        False,
        lambda w, a: round_plan.set_event_format(w.event, by=a, version=w.event.version, swiss_rounds=3),
    ),
    ("publish_archetypes", "organizer", False, lambda w, a: event_services.publish_archetypes(w.event, by=a)),
    (
        "unpublish_archetypes",
        "organizer",
        False,
        lambda w, a: event_services.unpublish_archetypes(
            event_services.publish_archetypes(w.event, by=System("test")), by=a
        ),
    ),
    (
        "assign_staff",
        "organizer",
        False,
        lambda w, a: event_services.assign_staff(w.event, by=a, username="stranger", role="judge"),
    ),
    (
        "register_player",
        "organizer",
        False,
        lambda w, a: registration.register_player(w.event, by=a, name="新人", card_game_id="1999999999"),
    ),
    (
        "import_players_csv",
        "organizer",
        False,
        lambda w, a: csv_import.import_players_csv(w.event, by=a, data=b"name\n"),
    ),
    ("check_in", "organizer", False, lambda w, a: registration.check_in(w.own, by=a)),
    ("issue_access", "organizer", False, lambda w, a: links.issue_access(w.own, by=a)),
    ("revoke_access", "organizer", False, lambda w, a: links.revoke_access(w.own, by=a)),
    ("mark_ineligible", "organizer", False, lambda w, a: participation.mark_ineligible(w.own, by=a, reason="REG-2")),
    ("drop_player", "player_or_organizer", False, lambda w, a: participation.drop_player(w.own, by=a)),
    ("pair_next_round", "organizer", False, lambda w, a: round_services.pair_next_round(w.event, by=a)),
    ("repair_round", "organizer", False, lambda w, a: pairing_edits.repair_round(w.match.round, by=a)),
    ("edit_pairing", "organizer", False, lambda w, a: pairing_edits.edit_pairing(w.match.round, by=a, pairs=[])),
    ("pair_team_round", "organizer", False, lambda w, a: team_play.pair_team_round(w.event, a, 2)),
    ("register_team", "staff", False, lambda w, a: team_services.register_team(w.event, by=a, name="", members=[])),
    ("start_round", "organizer", False, lambda w, a: clock_services.start_round(w.match.round, by=a)),
    ("pause_round", "organizer", False, lambda w, a: clock_services.pause_round(w.match.round, by=a)),
    ("resume_round", "organizer", False, lambda w, a: clock_services.resume_round(w.match.round, by=a)),
    (
        "extend_time",
        "judge",
        False,
        lambda w, a: clock_services.extend_time(w.match, by=a, seconds=60, reason="TIME-4", ruling_seconds=60),
    ),
    ("enter_result", "organizer", False, lambda w, a: result_services.enter_result(w.match, by=a, result=WIN_A)),
    (
        "correct_result",
        "organizer",
        False,
        lambda w, a: result_services.correct_result(w.match, by=a, result=WIN_A, reason="END-3"),
    ),
    (
        "enter_ruled_result",
        "judge",
        False,
        lambda w, a: result_services.enter_ruled_result(w.match, by=a, result=WIN_A),
    ),
    (
        "rule_result",
        "judge",
        False,
        lambda w, a: result_services.rule_result(w.match, by=a, result=WIN_A, reason="PEN-1"),
    ),
    ("disqualify_player", "head_judge", False, lambda w, a: rulings.disqualify_player(w.own, by=a)),
    ("export_event", "organizer", False, lambda w, a: transfer.export_event(w.event, by=a)),
    (
        "issue_penalty",
        "judge",
        True,
        lambda w, a: penalties.issue_penalty(
            w.event, by=a, player=w.own, infraction="INF-1", rung="caution", reason="test"
        ),
    ),
    ("apply_pending_penalty", "judge", False, lambda w, a: penalty_effects.apply_pending_penalty(_penalty(w), by=a)),
    ("reverse_penalty", "head_judge", False, lambda w, a: penalty_reversal.reverse_penalty(_penalty(w), by=a)),
    ("file_appeal", "player_or_judge", False, lambda w, a: appeals.file_appeal(w.own, reason="PEN-6", by=a)),
    ("decide_appeal", "head_judge", True, lambda w, a: appeals.decide_appeal(_appeal(w), by=a, decision="uphold")),
    ("raise_call (staff)", "judge", False, lambda w, a: calls.raise_call(w.event, table=w.match.table, by=a)),
    ("raise_call (player)", "player_or_staff", False, lambda w, a: calls.raise_call(w.event, player=w.own, by=a)),
    ("take_call", "judge", True, lambda w, a: calls.take_call(_call(w), by=a)),
    ("rule_call", "judge", True, lambda w, a: calls.rule_call(_call(w), by=a, ruling="ok")),
    ("flip_coin (staff)", "judge", False, lambda w, a: tools.flip_coin(w.event, w.match.table, by=a)),
    (
        "roll_die (player)",
        "player_or_staff",
        False,
        lambda w, a: tools.roll_die(w.event, w.match.table, by=a, player=w.own),
    ),
    ("loop_repeat", "judge", False, lambda w, a: tools.loop_repeat(w.event, w.match.table, by=a)),
    ("loop_reset", "judge", False, lambda w, a: tools.loop_reset(w.event, w.match.table, by=a)),
    ("search", "judge", False, lambda w, a: database.search(w.event, by=a, query="1000000000")),
    ("export_database", "judge", False, lambda w, a: database.export_database(w.event, by=a, source="here")),
    ("import_database", "head_judge", False, lambda w, a: database.import_database(w.event, by=a, data={})),
    ("set_prize_ranks", "organizer", False, lambda w, a: prizes.set_prize_ranks(w.event, by=a, ranks=[])),
    ("pair_playoffs", "judge", False, lambda w, a: prizes.pair_playoffs(w.event, by=a)),
    ("time_procedure.start", "judge", True, lambda w, a: tps.start(w.match, by=a, between=True, duels=[])),
    ("choose_banlist", "organizer", False, lambda w, a: deck_services.choose_banlist(w.event, "no such list", by=a)),
    (
        "submit_deck",
        "player_or_staff",
        False,
        lambda w, a: deck_services.submit_deck(w.own, deck_services.DeckInput(text=""), by=a),
    ),
    (
        "judge_change_deck",
        "judge",
        False,
        lambda w, a: deck_services.judge_change_deck(_registration(w), by=a, deck=deck_services.DeckInput(), reason=""),
    ),
    ("lock_decks", "staff", False, lambda w, a: deck_lock.lock_decks(w.event, by=a)),
    (
        # `taikai token create --event` makes tokens as System (the token names its user, not its maker).
        "create_token",
        "organizer",
        False,
        lambda w, a: api_services.create_token(w.event, by=a, username="judge", role="judge"),
    ),
    ("revoke_token", "organizer", False, lambda w, a: api_services.revoke_token(_token(w), by=a)),
    ("set_archetype", "player_or_staff", False, lambda w, a: archetypes.set_archetype(w.own, name="", by=a)),
]


class _Undo(Exception):
    pass


def _attempt(w: World, call: Call, actor: Actor) -> str:
    """Run the call in a savepoint that is always rolled back: "ok", or the error code."""
    try:
        with transaction.atomic():
            call(w, actor)
            raise _Undo
    except _Undo:
        return "ok"
    except ServiceError as exc:
        return exc.problem.code


@pytest.mark.parametrize(("name", "needs", "person", "call"), SERVICES, ids=[s[0] for s in SERVICES])
def test_each_role_may_do_exactly_what_its_check_allows(
    world: World, name: str, needs: str, person: bool, call: Call
) -> None:
    allowed = PASSES[needs] - ({"system"} if person else set())
    outcome = {who: _attempt(world, call, actor) for who, actor in world.actors.items()}
    refused = {who for who, code in outcome.items() if code in REFUSALS}
    assert refused == set(world.actors) - allowed, outcome


def test_a_token_capped_at_judge_cannot_do_organizer_things(world: World) -> None:
    token = world.actors["judge_token"]
    assert role_of(Staff(token.audit_user()), world.event) == StaffRole.Role.ORGANIZER  # the account is organizer
    assert role_of(token, world.event) == StaffRole.Role.JUDGE
    with pytest.raises(PermissionDenied) as err:
        round_services.pair_next_round(world.event, by=token)
    assert err.value.problem.code == "not-organizer"


def test_a_superusers_token_is_worth_its_role_only(world: World) -> None:
    token = Staff(world.admin, token_event_id=world.event.pk, cap=StaffRole.Role.JUDGE)
    assert role_of(token, world.event) == StaffRole.Role.JUDGE
    with pytest.raises(PermissionDenied):  # PEN-6: not the head judge through a judge token
        penalty_reversal.reverse_penalty(_penalty(world), by=token)


def test_a_token_for_one_event_cannot_act_on_another(world: World) -> None:
    token = world.actors["other_event_token"]
    assert role_of(token, world.other_event) == StaffRole.Role.ORGANIZER
    assert role_of(token, world.event) is None
    with pytest.raises(PermissionDenied):
        registration.check_in(world.own, by=token)


def test_a_player_cannot_act_for_another_player(world: World) -> None:
    for service in (
        lambda: participation.drop_player(world.own, by=PlayerSelf(world.other)),
        lambda: archetypes.set_archetype(world.own, name="青眼", by=PlayerSelf(world.other)),
        lambda: appeals.file_appeal(world.own, reason="not mine", by=PlayerSelf(world.other)),
    ):
        with pytest.raises(PermissionDenied):
            service()
    assert Player.objects.get(pk=world.own.pk).dropped_after_round is None
    participation.drop_player(world.own, by=PlayerSelf(world.own))
    entry = AuditEntry.objects.filter(action="taikai.player.dropped").latest("id")
    assert entry.actor is None and entry.actor_label == f"player:{world.own.pk}"


def test_reverse_penalty_refuses_anyone_but_the_head_judge(world: World) -> None:  # PEN-6
    penalty = _penalty(world)
    for who in ("judge", "organizer", "own_player", "judge_token"):
        with pytest.raises(PermissionDenied) as err:
            penalty_reversal.reverse_penalty(penalty, by=world.actors[who])
        assert err.value.problem.code in ("not-head-judge", "not-staff")
    assert penalty_reversal.reverse_penalty(penalty, by=world.actors["head_judge"]).overturned


def test_a_visitor_registers_themself_only_before_the_first_round(organizer: User) -> None:
    event = make_event(organizer, 2)
    player = registration.register_player(event, by=Visitor(), name="当日 参加", card_game_id="1234567890")
    entry = AuditEntry.objects.filter(action="taikai.player.registered").latest("id")
    assert player.pk and entry.actor is None and entry.actor_label == "self-service"
    round_services.pair_next_round(event, by=Staff(organizer))
    with pytest.raises(ServiceError) as err:
        registration.register_player(event, by=Visitor(), name="遅刻", card_game_id="1234567891")
    assert err.value.problem.code == "registration-closed"


def test_the_audit_entry_names_the_staff_account(world: World) -> None:
    registration.check_in(world.own, by=world.actors["organizer"])
    entry = AuditEntry.objects.filter(action="taikai.player.checked_in").latest("id")
    assert entry.actor is not None and entry.actor.get_username() == "org" and entry.actor_label == "org"
