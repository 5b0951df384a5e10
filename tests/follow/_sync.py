"""The venue and its follower in one process, for test_follow_sync.py, test_follow_actions.py and
test_follow_pages.py: the venue's pusher, each message received by taikai.follow.follower as over HTTP (signed
both ways); the follower's pages read as a phone reads them; a player's action queued on the follower."""

from __future__ import annotations

from typing import Any

import httpx

from taikai.events.models import Player
from taikai.follow import copies, follower, protocol
from taikai.follow.models import QueuedAction
from taikai.follow.venue import Pusher
from tests.factories import World


def _transport() -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        try:
            answer = follower.receive(
                request.headers.get(protocol.PREFIX_HEADER, ""),
                request.content,
                request.headers.get(protocol.SIGNATURE_HEADER, ""),
            )
        except protocol.BadMessage as exc:
            return httpx.Response(401, text=exc.code)
        return httpx.Response(200, content=answer.body, headers={protocol.SIGNATURE_HEADER: answer.signature})

    return httpx.MockTransport(handle)


def venue_pusher() -> Pusher:
    _row, token = follower.create_token("会場")
    lines: list[str] = []
    return Pusher(
        url="http://follower.test", token=token, say=lines.append, client=httpx.Client(transport=_transport())
    )


def caught_up(pusher: Pusher) -> None:
    for _ in range(4):
        pusher.turn()


def follower_get(url: str) -> Any:
    from django.test import RequestFactory
    from django.urls import URLResolver, get_resolver

    from taikai.follow import urls_copy

    resolver = URLResolver(get_resolver().pattern, urls_copy)  # the follower's routes, as TAIKAI_ROLE=follower
    request = RequestFactory().get(url)
    match = resolver.resolve(request.path)
    return match.func(request, *match.args, **match.kwargs)


def follower_page(token: str, lang: str = "ja") -> str:
    from django.test import RequestFactory

    from taikai.follow import pages

    request = RequestFactory().get(f"/p/{token}/", HTTP_ACCEPT_LANGUAGE=lang)
    from django.utils import translation

    with translation.override(lang):
        request.LANGUAGE_CODE = lang
        return str(pages.player_page(request, token).content.decode())


def queued(world: World, player: Player, kind: str, key: str, **payload: Any) -> QueuedAction:
    me = copies.player_for_token(world.token_of(player))
    assert me is not None and me.player_id == player.pk
    m = world.match()
    return follower.queue_action(
        me.followed,
        player_id=player.pk,
        token_hash=me.token_hash,
        kind=kind,
        match_id=m.pk,
        seen_version=m.version,
        payload=payload,
        key=key,
    )


A_WINS = {"duels": [{"winner": "A"}, {"winner": "A"}], "time_called_between_duels": False, "basis": "played"}
