"""Events, players and staff made through the services, as an organizer would make them."""

from __future__ import annotations

import datetime as dt
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Model

from taikai.events.actors import Staff
from taikai.events.models import Event, Player, StaffRole
from taikai.events.services import events as event_services
from taikai.events.services import registration

M = TypeVar("M", bound=Model)

NAMES = [
    ("山田 太郎", "やまだ たろう"),
    ("佐藤 花子", "さとう はなこ"),
    ("鈴木 一郎", "すずき いちろう"),
    ("高橋 美咲", "たかはし みさき"),
    ("Alice Smith", ""),
    ("Bob Jones", ""),
    ("田中 健", "たなか けん"),
    ("伊藤 さくら", "いとう さくら"),
    ("渡辺 翔", "わたなべ しょう"),
    ("Carol White", ""),
    ("中村 優", "なかむら ゆう"),
    ("小林 蓮", "こばやし れん"),
    ("加藤 陽菜", "かとう ひな"),
    ("David Brown", ""),
    ("吉田 大輝", "よしだ だいき"),
    ("山本 結衣", "やまもと ゆい"),
]
PASSWORD = "judge-pass-2026"


def make_event(organizer: User, players: int = 8, checked_in: bool = True, **kwargs: Any) -> Event:
    defaults: dict[str, Any] = {"name": "テスト大会", "date": dt.date(2026, 12, 6), "ruleset_name": "harajuku-cs-1.2"}
    event = event_services.create_event(by=Staff(organizer), **{**defaults, **kwargs})
    for i in range(players):
        name, kana = NAMES[i % len(NAMES)]
        player = registration.register_player(
            event,
            by=Staff(organizer),
            name=f"{name}{'' if i < len(NAMES) else i}",
            name_kana=kana,
            card_game_id=f"{1000000000 + i}",
        )
        if checked_in:  # REG-3: only players who checked in are paired
            registration.check_in(player, by=Staff(organizer))
    return event


def staff(event: Event, username: str, role: str) -> User:
    """A user with ``role`` on ``event`` (made once, given the role again if it exists), password PASSWORD."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    StaffRole.objects.update_or_create(event=event, user=user, defaults={"role": role})
    return user


def player(event: Event, i: int) -> Player:
    """The ``i``-th player registered for ``event``."""
    return Player.objects.filter(event=event).order_by("id")[i]


def fresh(obj: M) -> M:
    """``obj`` read again from the database."""
    return type(obj)._default_manager.get(pk=obj.pk)
