"""Users with each site role, and a small world of two events with every role: what the permission tests act as."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player, Round
from taikai.events.services import clock as clock_services
from taikai.events.services import events as event_services
from taikai.events.services import links, registration
from taikai.events.services import rounds as round_services
from taikai.events.site_roles import ORGANIZERS


def make_user(username: str, *, organizer: bool = False, superuser: bool = False, password: str | None = None) -> User:
    User = get_user_model()
    if superuser:
        user = User.objects.create_superuser(username=username, password=password, email="")
    else:
        user = User.objects.create_user(username=username, password=password)
    if organizer or superuser:
        user.groups.add(Group.objects.get_or_create(name=ORGANIZERS)[0])
    return user


def new_event(by: User, players: int, name: str = "権限テスト大会", **kwargs: Any) -> Event:
    event = event_services.create_event(
        by=Staff(by), name=name, date=dt.date(2026, 12, 6), ruleset_name="harajuku-cs-1.2", **kwargs
    )
    for i in range(players):
        player = registration.register_player(
            event, by=Staff(by), name=f"選手{i:04d}", card_game_id=f"{event.pk:03d}{i:07d}"
        )
        registration.check_in(player, by=Staff(by))  # REG-3: only checked-in players are paired
    return event


@dataclass
class World:
    """Event A (organizer, head judge, judge, 8 checked-in players, round 1 paired and started) and event B
    (another organizer, 4 players): everyone the permission tests act as."""

    admin: User
    organizer: User
    head_judge: User
    judge: User
    other_staff: User
    event: Event
    other_event: Event
    tokens: dict[int, str] = field(default_factory=dict)  # player id -> personal link token
    round: Round | None = None

    def match(self) -> Match:
        assert self.round is not None
        return self.round.matches.filter(is_bye=False).order_by("table").first()

    def token_of(self, player: Player) -> str:
        return self.tokens[player.pk]


def build_world(players: int = 8) -> World:
    admin = make_user("siteadmin", superuser=True)
    organizer = make_user("org_a", organizer=True)
    head_judge = make_user("head_a")
    judge = make_user("judge_a")
    other_staff = make_user("org_b", organizer=True)
    event = new_event(organizer, players)
    event_services.assign_staff(event, by=Staff(organizer), username="head_a", role="head_judge")
    event_services.assign_staff(event, by=Staff(organizer), username="judge_a", role="judge")
    other = new_event(other_staff, 4, name="別の大会")
    world = World(admin, organizer, head_judge, judge, other_staff, event, other)
    for p in event.players.all():
        token = links.issue_access(p, by=Staff(organizer))
        world.tokens[p.pk] = token
    world.round = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(world.round, by=Staff(organizer))
    return world
