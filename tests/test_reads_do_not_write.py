"""Reads never write (STYLE 13): every page and every API read, as every role, leaves the database as it was.

The event is built to tempt a read into writing: a disputed match, a result changed after confirmation, a
match with time called and its procedure under way, deck lists past their deadline but never stamped, a
penalty, a judge call and an appeal. Each GET is followed by a comparison of every table (row count and a
hash of every row), so a failure names the URL, the role and the tables it wrote.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from taikai.decks import lock as deck_lock
from taikai.decks import services as deck_services
from taikai.decks.demo import LEGAL_SHEET, load_demo_cards
from taikai.decks.models import DeckRegistration
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.models import Event, Match, StaffRole
from taikai.events.services import clock as clock_services
from taikai.events.services import links
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import Appeal, JudgeCall, Penalty, TimeProcedureRun
from taikai.judging.services import appeals, calls, penalties
from taikai.judging.services import time_procedure as tps
from taikai.tokens.services import create_token
from tests.factories import make_event, staff
from tests.security.routes import all_routes

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "judge", "head_judge", "organizer")
# Server-sent events never end, so they cannot be fetched here; the stream only reads (tests/api/test_stream.py).
SKIPPED = {"api_event_stream", "logout"}

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
B_WINS = ResultInput(({"winner": "B"}, {"winner": "B"}))


@dataclass
class Tempting:
    """An event in the middle of round 1 with everything a judge's or a deck page might want to 'tidy up'."""

    event: Event
    users: dict[str, Any]
    player_tokens: list[str]
    api_tokens: dict[str, str] = field(default_factory=dict)
    values: dict[str, list[Any]] = field(default_factory=dict)


def build(organizer: User) -> Tempting:
    load_demo_cards()
    event = make_event(organizer, 10, banlist_name="OCG 2026.7 (demo excerpt)")
    users = {
        "organizer": organizer,
        "judge": staff(event, "floor", StaffRole.Role.JUDGE),
        "head_judge": staff(event, "head", StaffRole.Role.HEAD_JUDGE),
    }
    Event.objects.filter(pk=event.pk).update(deck_deadline=timezone.now() + dt.timedelta(hours=1))
    event.refresh_from_db()
    players = list(event.players.order_by("id"))
    for p in players[:4]:
        deck_services.submit_deck(p, deck_services.DeckInput(text=LEGAL_SHEET), by=PlayerSelf(p))
    tokens = {p.pk: links.issue_access(p, by=Staff(organizer)) for p in players}
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    disputed, reported, timed, corrected, penalized = rnd.matches.filter(is_bye=False).order_by("table")[:5]

    result_services.report_result(disputed, player=disputed.player_a, result=A_WINS)
    result_services.report_result(disputed, player=disputed.player_b, result=B_WINS)
    result_services.report_result(reported, player=reported.player_a, result=A_WINS)
    tps.start(timed, by=Staff(users["judge"]), between=False, turn_player="A", duels=[{"winner": "A"}])  # TIME-S-1
    result_services.enter_result(corrected, by=Staff(organizer), result=A_WINS)
    result_services.correct_result(corrected, by=Staff(organizer), result=B_WINS, reason="slip misread")
    call = calls.raise_call(event, table=penalized.table, by=Staff(users["judge"]), description="missed trigger")
    penalty = penalties.issue_penalty(event, by=Staff(users["judge"]), player=penalized.player_a, infraction="INF-2")
    appeal = appeals.file_appeal(
        penalized.player_a, reason="I did resolve it", penalty=penalty, by=PlayerSelf(penalized.player_a)
    )
    # Time passes: the deck deadline is behind us, and nothing has stamped the lists yet.
    Event.objects.filter(pk=event.pk).update(deck_deadline=timezone.now() - dt.timedelta(minutes=5))

    readers = {disputed.player_a_id, timed.player_a_id, penalized.player_a_id, players[0].pk}  # one has a deck
    world = Tempting(event, users, [tokens[pk] for pk in sorted(readers)])
    for role in ("judge", "head_judge", "organizer"):
        world.api_tokens[role] = create_token(event, by=Staff(organizer), username=users[role].username, role=role)[1]
    matches = [disputed, reported, timed, corrected, penalized]
    world.values = {
        "event_id": [event.pk],
        "number": [1],
        "match_id": [m.pk for m in matches],
        "player_id": [players[0].pk, penalized.player_a_id],
        "table": [m.table for m in matches],
        "call_id": [call.pk],
        "penalty_id": [penalty.pk],
        "appeal_id": [appeal.pk],
        "action": ["start", "pause"],
        "name": ["metagame"],
    }
    return world


def snapshot() -> dict[str, tuple[int, str]]:
    """Every model's table (many-to-many tables, sessions and API tokens too): row count and a hash of the rows."""
    out = {}
    for model in apps.get_models(include_auto_created=True):
        names = [f.attname for f in model._meta.concrete_fields]
        rows = [repr(r) for r in model._default_manager.order_by("pk").values_list(*names)]
        out[model._meta.label_lower] = (len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest())
    return out


def changed(before: dict[str, tuple[int, str]], after: dict[str, tuple[int, str]]) -> list[str]:
    return [f"{t} rows {before[t][0]}->{after[t][0]}" for t in before if before[t] != after[t]]


def client_for(world: Tempting, role: str) -> Client:
    client = Client(raise_request_exception=False)
    if role in world.users:
        client.force_login(world.users[role])
    return client


def urls(world: Tempting, role: str, route: Any) -> list[tuple[str, dict[str, str]]]:
    values = {**world.values, "token": world.player_tokens}
    choices = [values.get(p, ["x"]) for p in route.params]
    out = []
    for combo in itertools.product(*choices):
        url = route.url(dict(zip(route.params, combo, strict=True)))
        headers: dict[str, str] = {}
        if route.kind == "api" and role in world.api_tokens:
            headers["Authorization"] = f"Bearer {world.api_tokens[role]}"
        out.append((url, headers))
    if route.kind == "api" and role == "player":  # a player's API reads carry their token in a header
        out = [(url, {"X-Player-Token": token}) for url, _ in out for token in world.player_tokens]
    return out


def test_the_fixture_holds_what_a_read_might_want_to_write(organizer: User) -> None:
    world = build(organizer)
    event = Event.objects.get(pk=world.event.pk)
    assert Match.objects.filter(round__event=event, status=Match.Status.DISPUTED).exists()
    assert Match.objects.filter(round__event=event, status=Match.Status.REPORTED).exists()
    assert TimeProcedureRun.objects.filter(match__round__event=event, result_entered=False).exists()
    assert deck_lock.is_locked(event)
    assert DeckRegistration.objects.filter(event=event, locked_at__isnull=True).count() == 4
    assert Penalty.objects.filter(event=event).exists() and Appeal.objects.filter(event=event).exists()
    assert JudgeCall.objects.filter(event=event, source=JudgeCall.Source.STAFF).exists()
    assert {m._meta.label_lower for m in apps.get_models()} <= set(snapshot())  # every model is compared


@pytest.mark.parametrize("role", ROLES)
def test_no_page_and_no_api_read_changes_the_database(organizer: User, role: str) -> None:
    world = build(organizer)
    client = client_for(world, role)
    wrote, fetched = [], 0
    for route in all_routes():
        if route.name in SKIPPED:
            continue
        for url, headers in urls(world, role, route):
            before = snapshot()
            response = client.get(url, headers=headers)
            fetched += 1
            assert response.status_code < 500, (url, role, response.status_code)
            after = snapshot()
            if after != before:
                wrote.append((url, changed(before, after)))
    assert fetched > 100
    assert wrote == [], f"reads that wrote as {role}: {wrote}"


# The log (issue 22) with its filters and a later page: the routes above open it unfiltered only.
LOG_READS = (
    "/events/{event}/log/?round=1&table={table}&player={player}&page=2",
    "/events/{event}/log/?table=abc",
    "/p/{token}/log/?round=1&table={table}",
    "/api/v1/events/{event}/log?round=1&table={table}&player={player}&offset=1",
)


@pytest.mark.parametrize("role", ROLES)
def test_reading_the_log_with_filters_changes_nothing(organizer: User, role: str) -> None:
    world = build(organizer)
    client = client_for(world, role)
    values = {"event": world.event.pk, "table": world.values["table"][0], "player": world.values["player_id"][1]}
    wrote = []
    for pattern in LOG_READS:
        for token in world.player_tokens:
            url = pattern.format(**values, token=token)
            headers = {"Authorization": f"Bearer {world.api_tokens[role]}"} if role in world.api_tokens else {}
            if role == "player" and url.startswith("/api/"):
                headers = {"X-Player-Token": token}
            before = snapshot()
            response = client.get(url, headers=headers)
            assert response.status_code < 500, (url, role, response.status_code)
            if changed(before, after := snapshot()):
                wrote.append((url, changed(before, after)))
    assert wrote == [], f"log reads that wrote as {role}: {wrote}"
