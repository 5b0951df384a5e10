"""The event's log over the API (issue 22): the role matrix, the filters, a correction in words, the schema."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.services import links, registration
from taikai.tokens.services import create_token
from tests.factories import Api, make_event
from tests.web.log_world import World, world_fixture  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def _api(client: Client, world: World, role: str, lang: str = "ja") -> Api:
    if role in ("me", "other"):
        player = world.me if role == "me" else world.other
        return Api(client, player=links.issue_access(player, by=Staff(world.organizer)), lang=lang)
    if role == "visitor":
        return Api(client, lang=lang)
    user, role_name = {
        "organizer": (world.organizer, "organizer"),
        "head": (world.head, "head_judge"),
        "floor": (world.floor, "judge"),
    }[role]
    _row, token = create_token(world.event, by=Staff(world.organizer), username=user.username, role=role_name)
    return Api(client, token=token, lang=lang)


@pytest.mark.parametrize(
    ("role", "status"),
    [("organizer", 200), ("head", 200), ("floor", 403), ("me", 200), ("other", 200), ("visitor", 401)],
)
def test_who_reads_the_log(client: Client, world: World, role: str, status: int) -> None:
    response = _api(client, world, role).get(f"/events/{world.event.pk}/log?limit=200")
    assert response.status_code == status, response.content
    body = response.json()
    if status == 403:
        assert body["error"]["code"] == "not-log-reader"
        assert "主催者とヘッドジャッジ" in body["error"]["message"]
    if status != 200:
        return
    tables = {item["object_id"] for item in body["items"] if item["object_type"] == "events.match"}
    if role in ("organizer", "head"):
        assert body["count"] > len(tables) and {item["object_type"] for item in body["items"]} > {"events.match"}
    if role == "me":  # the player's own table only
        assert tables == {str(world.corrected.pk)} and {i["object_type"] for i in body["items"]} == {"events.match"}
    if role == "other":
        assert tables == {str(world.reported.pk)}
    ids = [int(item["id"]) for item in body["items"]]
    assert ids == sorted(ids, reverse=True)


def test_a_player_token_of_another_event_is_refused(client: Client, world: World, organizer: User) -> None:
    elsewhere = make_event(organizer, 2, name="別の大会")
    token = links.issue_access(elsewhere.players.first(), by=Staff(organizer))
    response = Api(client, player=token).get(f"/events/{world.event.pk}/log")
    assert response.status_code == 403


def test_the_correction_in_words_and_as_stored(client: Client, world: World) -> None:
    # END-3: the old result stays in the log, with the organizer's reason.
    api = _api(client, world, "head")
    body = api.get(f"/events/{world.event.pk}/log?table={world.corrected.table}&round=1").json()
    (item,) = [i for i in body["items"] if i["action"] == "taikai.match.result_corrected"]
    a, b = world.corrected.player_a.name, world.corrected.player_b.name
    result = next(c for c in item["changes"] if c["field"] == "result")
    assert (result["label"], result["before"], result["after"]) == ("結果", f"{a} の勝ち 2–1", f"{b} の勝ち 2–0")
    assert item["reason"] == "伝票の読み違い" and item["text"] == "結果を訂正" and item["actor"] == "organizer"
    assert item["before"]["result"] == "a" and item["after"]["result"] == "b"
    english = _api(client, world, "head", lang="en").get(f"/events/{world.event.pk}/log?round=1").json()
    (item,) = [i for i in english["items"] if i["action"] == "taikai.match.result_corrected"]
    assert item["text"] == "Result corrected"
    assert next(c for c in item["changes"] if c["field"] == "result")["after"] == f"{b} wins 2–0"


def test_the_player_filter_and_paging(client: Client, world: World) -> None:
    api = _api(client, world, "organizer")
    target = world.reported.player_b
    body = api.get(f"/events/{world.event.pk}/log?player={target.pk}").json()
    assert {i["object_type"] for i in body["items"]} == {
        "events.player",
        "events.match",
        "judging.penalty",
        "judging.judgecall",
    }
    first = api.get(f"/events/{world.event.pk}/log?player={target.pk}&limit=2").json()
    second = api.get(f"/events/{world.event.pk}/log?player={target.pk}&limit=2&offset=2").json()
    assert [i["id"] for i in first["items"] + second["items"]] == [i["id"] for i in body["items"][:4]]
    assert first["count"] == body["count"]
    assert api.get(f"/events/{world.event.pk}/log?player=abc").status_code == 422


def test_contact_details_are_hidden_from_the_head_judge_even_as_stored(client: Client, world: World) -> None:
    registration.update_player(world.me, by=Staff(world.organizer), contact="090-1234-5678")
    url = f"/events/{world.event.pk}/log?player={world.me.pk}&limit=1"
    head = _api(client, world, "head").get(url).content.decode()
    boss = _api(client, world, "organizer").get(url).content.decode()
    assert "090-1234-5678" not in head and "090-1234-5678" in boss


def test_the_log_read_is_in_the_openapi_schema(client: Client) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    operation = schema["paths"]["/api/v1/events/{event_id}/log"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"event_id", "table", "player", "round", "limit", "offset"}
    assert {"200", "401", "403", "404", "422"} <= set(operation["responses"])
