"""A round's seed over the API (issue 23, finding 11): the organizer may give the seed of a round's draw, the
round stores it and says it, and the same seed on the same facts pairs the same tables, so an event can be
replayed identically (STYLE 3: the seed is stored with each round)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event, Round
from taikai.tokens.services import create_token
from tests.factories import Api, make_event

pytestmark = pytest.mark.django_db

SEED = "4611686018427387903"  # 2^62 - 1, the largest seed


def _api(client: Client, organizer: User, event: Event) -> Api:
    _row, token = create_token(event, by=Staff(organizer), username=organizer.username, role="organizer")
    return Api(client, token=token)


def _tables(api: Api, event: Event, number: int) -> list[tuple[str, str | None]]:
    """The round's tables by Card Game ID (the same players in another event have other IDs)."""
    cgid = {str(p.pk): p.card_game_id for p in event.players.all()}
    items = api.get(f"/events/{event.pk}/rounds/{number}/matches").json()["items"]
    return [(cgid[m["player_a"]["id"]], cgid[m["player_b"]["id"]] if m["player_b"] else None) for m in items]


def _play(api: Api, event: Event, number: int) -> None:
    """Every table of the round: the player with the smaller Card Game ID wins, the same in every replay."""
    cgid = {str(p.pk): p.card_game_id for p in event.players.all()}
    for m in api.get(f"/events/{event.pk}/rounds/{number}/matches").json()["items"]:
        if m["is_bye"]:
            continue
        a_wins = cgid[m["player_a"]["id"]] < cgid[m["player_b"]["id"]]
        duels = [{"winner": "A" if a_wins else "B"}] * 2
        assert api.post(f"/events/{event.pk}/matches/{m['id']}/result", {"duels": duels}).status_code == 200


def _run(client: Client, organizer: User, name: str, seeds: list[str]) -> list[list[tuple[str, str | None]]]:
    event = make_event(organizer, 9, name=name, swiss_rounds=3)
    api = _api(client, organizer, event)
    rounds = []
    for number, seed in enumerate(seeds, start=1):
        r = api.post(f"/events/{event.pk}/rounds", {"seed": seed})
        assert r.status_code == 201, r.content
        assert r.json()["seed"] == seed  # said back, and stored with the round
        assert str(Round.objects.get(event=event, number=number).seed) == seed
        rounds.append(_tables(api, event, number))
        _play(api, event, number)
    return rounds


def test_the_same_seeds_replay_an_event_with_the_same_pairings(client: Client, organizer: User) -> None:
    seeds = ["7", SEED, "20261206"]
    first = _run(client, organizer, "本番", seeds)
    replay = _run(client, organizer, "再現", seeds)
    assert replay == first
    assert any(b is None for _a, b in first[0])  # 9 players: a bye, drawn from the seed too


def test_another_seed_draws_another_round_one(client: Client, organizer: User) -> None:
    draws = {tuple(_run(client, organizer, f"大会{seed}", [seed])[0]) for seed in ("1", "2", "3", "4")}
    assert len(draws) > 1  # the seed decides the draw: four seeds do not all give one pairing


def test_without_a_seed_taikai_draws_one_and_says_it(client: Client, organizer: User) -> None:
    event = make_event(organizer, 4, name="自動")
    api = _api(client, organizer, event)
    r = api.client.post(  # no body at all, as before seeds could be given
        f"/api/v1/events/{event.pk}/rounds", content_type="application/json", headers=api.headers()
    )
    assert r.status_code == 201, r.content
    assert r.json()["seed"] == str(Round.objects.get(event=event, number=1).seed)


@pytest.mark.parametrize("seed", ["4611686018427387904", "-1", "1e3", ""])
def test_a_seed_out_of_range_is_refused_in_words(client: Client, organizer: User, seed: str) -> None:
    event = make_event(organizer, 4, name="範囲外")
    api = _api(client, organizer, event)
    api.lang = "ja"
    r = api.post(f"/events/{event.pk}/rounds", {"seed": seed})
    assert r.status_code in (400, 422), r.content
    assert not event.rounds.exists()
    if r.status_code == 400:
        assert r.json()["error"]["code"] == "bad-seed" and "シード" in r.json()["error"]["message"]
