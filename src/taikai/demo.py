"""`taikai demo`: a realistic event so a new user sees everything in a minute (offline)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.contrib.auth import get_user_model

from taikai.core.progress import NextAction
from taikai.events.actors import Actor, Staff
from taikai.events.models import Event, Match
from taikai.events.services import clock as clock_services
from taikai.events.services import events as event_services
from taikai.events.services import participation, progress, registration
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput

FAMILY = [
    "佐藤",
    "鈴木",
    "高橋",
    "田中",
    "伊藤",
    "渡辺",
    "山本",
    "中村",
    "小林",
    "加藤",
    "吉田",
    "山田",
    "佐々木",
    "山口",
    "松本",
    "井上",
]
FAMILY_KANA = [
    "さとう",
    "すずき",
    "たかはし",
    "たなか",
    "いとう",
    "わたなべ",
    "やまもと",
    "なかむら",
    "こばやし",
    "かとう",
    "よしだ",
    "やまだ",
    "ささき",
    "やまぐち",
    "まつもと",
    "いのうえ",
]
GIVEN = ["翔", "蓮", "陽菜", "結衣", "大輝", "美咲", "健", "さくら", "優", "悠真"]
GIVEN_KANA = ["しょう", "れん", "ひな", "ゆい", "だいき", "みさき", "けん", "さくら", "ゆう", "ゆうま"]
ENGLISH = [
    "Alice Smith",
    "Bob Jones",
    "Carol White",
    "David Brown",
    "Emma Wilson",
    "Frank Miller",
    "Grace Lee",
    "Henry Clark",
    "Ivy Walker",
    "Jack Young",
    "Kate Hall",
    "Liam King",
]
RESULTS = [
    ({"winner": "A"}, {"winner": "A"}),
    ({"winner": "A"}, {"winner": "B"}, {"winner": "A"}),
    ({"winner": "B"}, {"winner": "B"}),
    ({"winner": "A"}, {"winner": "B"}, {"winner": "B"}),
]


def create_demo(players: int = 64, swiss_rounds: int = 6, top_cut: int = 8, seed: int = 2026) -> Event:
    rng = random.Random(seed)
    User = get_user_model()
    organizer = User.objects.filter(is_superuser=True).order_by("id").first()
    if organizer is None:
        from taikai.events.services.accounts import ensure_first_organizer

        ensure_first_organizer()
        organizer = User.objects.filter(is_superuser=True).order_by("id").first()
    by = Staff(organizer)  # the demo acts as the site's first organizer: events always have a person behind them
    event = event_services.create_event(
        by=by,
        name="taikai デモ大会 / Demo CS",
        date=dt.date.today(),
        venue="東京・秋葉原",
        ruleset_name="harajuku-cs-1.2",
        format=Event.Format.SWISS_CUT,
        swiss_rounds=swiss_rounds,
        top_cut=top_cut,
    )
    for i in range(players):
        if i % 5 == 4:
            name, kana = ENGLISH[i % len(ENGLISH)] + (f" {i}" if i >= len(ENGLISH) * 5 else ""), ""
        else:
            f, g = i % len(FAMILY), (i * 7) % len(GIVEN)
            name, kana = f"{FAMILY[f]} {GIVEN[g]}", f"{FAMILY_KANA[f]} {GIVEN_KANA[g]}"
        p = registration.register_player(
            event,
            by=by,
            name=f"{name}" if i < 40 else f"{name}{i}",
            name_kana=kana,
            card_game_id=f"{4000000000 + i * 7919:010d}",
        )
        registration.check_in(p, by=by)
    from taikai.decks.demo import add_demo_decks

    add_demo_decks(event, by=by)
    for _ in range(swiss_rounds + 3):
        if progress.plan(event).next_action == NextAction.FINISHED:
            break
        rnd = round_services.pair_next_round(event, by=by)
        clock_services.start_round(rnd, by=by)
        _play(rnd, by, rng)
        if rnd.number == 2:
            victim = event.players.filter(dropped_after_round__isnull=True).order_by("?").first()
            if victim is not None:
                participation.drop_player(victim, by=by)
    return event


def _play(rnd: Any, by: Actor, rng: random.Random) -> None:
    for m in rnd.matches.filter(is_bye=False):
        if rnd.stage == "swiss" and rng.random() < 0.05:
            data = ResultInput(({"winner": "A"}, {"winner": "B"}, {"time": {"A": 3000, "B": 3000}}))
        else:
            data = ResultInput(rng.choice(RESULTS))
        result_services.enter_result(Match.objects.get(pk=m.pk), by=by, result=data)
