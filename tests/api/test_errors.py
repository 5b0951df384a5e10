"""Refusals, error JSON in the caller's language, pagination and ETags."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.tokens.services import create_token, revoke_token
from tests.factories import Api, make_event, staff_user


def test_writing_without_a_token_is_refused_in_json(public_api: Api, api_event: Event) -> None:
    r = public_api.post(f"/events/{api_event.pk}/players", {"name": "X", "card_game_id": "1234567890"})
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "unauthorized"


def test_errors_speak_the_callers_language(client: Client, api_event: Event) -> None:
    path = f"/events/{api_event.pk}/rounds"
    ja = Api(client, token="tk_nonsense", lang="ja").post(path).json()["error"]
    en = Api(client, token="tk_nonsense", lang="en").post(path).json()["error"]
    assert ja["code"] == en["code"] == "bad-token"
    assert ja["message"] == "API トークンが無効か、取り消されています。"
    assert en["message"] == "The API token is invalid or revoked."
    missing = Api(client, lang="ja").get("/events/999999").json()["error"]
    assert missing == {"code": "not-found", "message": "見つかりません。", "params": {}}


def test_service_errors_keep_their_code_and_parameters(organizer_api: Api, api_event: Event) -> None:
    r = organizer_api.post(f"/events/{api_event.pk}/players", {"name": "山田", "card_game_id": "12345"})
    assert r.status_code == 400
    assert r.json()["error"] == {
        "code": "bad-card-game-id",
        "message": "A Konami Card Game ID is 10 digits (got '12345').",
        "params": {"value": "12345"},
    }
    organizer_api.lang = "ja"
    r = organizer_api.post(f"/events/{api_event.pk}/rounds")
    assert r.json()["error"]["code"] == "no-players"
    assert r.json()["error"]["message"] == "対戦できるプレイヤーが2人以上必要です。"


def test_malformed_input_is_422_not_500(organizer_api: Api, api_event: Event) -> None:
    r = organizer_api.post(f"/events/{api_event.pk}/players", {"name": 5})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid-input"


def test_a_judge_token_cannot_pair_a_round(client: Client, organizer: User) -> None:
    event = make_event(organizer, 4)
    judge = staff_user(organizer, event, "judge1", "judge")
    _row, token = create_token(event, by=Staff(organizer), username=judge.username, role="judge")
    api = Api(client, token=token)
    r = api.post(f"/events/{event.pk}/rounds")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not-organizer"
    # Registration is the organizer's, as on the pages (PRODUCT.md: floor judges answer calls).
    r = api.post(f"/events/{event.pk}/players", {"name": "Late Comer", "card_game_id": "3000000001"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not-organizer"


def test_a_token_never_allows_more_than_its_role(client: Client, organizer: User) -> None:
    event = make_event(organizer, 4)
    _row, token = create_token(event, by=Staff(organizer), username=organizer.username, role="judge")
    r = Api(client, token=token).post(f"/events/{event.pk}/rounds")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not-organizer"


def test_a_token_works_for_its_own_event_only(client: Client, organizer: User) -> None:
    first, second = make_event(organizer, 2, name="A"), make_event(organizer, 2, name="B")
    _row, token = create_token(first, by=Staff(organizer), username=organizer.username, role="organizer")
    r = Api(client, token=token).post(f"/events/{second.pk}/rounds")
    assert r.status_code == 403 and r.json()["error"]["code"] == "token-wrong-event"


def test_a_revoked_token_stops_working(client: Client, organizer: User) -> None:
    event = make_event(organizer, 2)
    row, token = create_token(event, by=Staff(organizer), username=organizer.username, role="organizer")
    revoke_token(row, by=Staff(organizer))
    r = Api(client, token=token).post(f"/events/{event.pk}/rounds")
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad-token"


def test_a_player_cannot_report_someone_elses_match(organizer_api: Api, api_event: Event) -> None:
    eid = api_event.pk
    tokens = []
    for i in range(4):
        p = organizer_api.post(f"/events/{eid}/players", {"name": f"P{i}", "card_game_id": f"400000000{i}"}).json()
        tokens.append((p["id"], organizer_api.post(f"/events/{eid}/players/{p['id']}/check-in", {}).json()))
    organizer_api.post(f"/events/{eid}/rounds")
    first = organizer_api.get(f"/events/{eid}/rounds/1/matches").json()["items"][0]
    seated = {first["player_a"]["id"], first["player_b"]["id"]}
    outsider = next(t["player_token"] for pid, t in tokens if pid not in seated)
    r = organizer_api.as_player(outsider).post(f"/events/{eid}/matches/{first['id']}/result", {"duels": []})
    assert r.status_code == 400 and r.json()["error"]["code"] == "not-your-match"
    # Only players confirm; a staff token is not a player.
    r = organizer_api.post(f"/events/{eid}/matches/{first['id']}/confirm", {})
    assert r.status_code == 401


def test_lists_paginate(client: Client, organizer: User) -> None:
    event = make_event(organizer, 7)
    api = Api(client)
    page = api.get(f"/events/{event.pk}/players?limit=3&offset=0").json()
    assert page["count"] == 7 and page["limit"] == 3 and len(page["items"]) == 3
    rest = api.get(f"/events/{event.pk}/players?limit=3&offset=6").json()
    assert len(rest["items"]) == 1
    ids = [p["id"] for p in page["items"]] + [p["id"] for p in rest["items"]]
    assert len(set(ids)) == 4
    assert api.get(f"/events/{event.pk}/players?limit=1000").status_code == 422


def test_etags_answer_304_until_something_changes(client: Client, organizer: User) -> None:
    event = make_event(organizer, 2)
    api = Api(client)
    first = api.get(f"/events/{event.pk}/players")
    etag = first["ETag"]
    assert etag and first["Cache-Control"] == "no-cache"
    again = api.get(f"/events/{event.pk}/players", **{"If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    from taikai.events.services.registration import register_player

    register_player(event, by=Staff(organizer), name="New", card_game_id="5000000000")
    changed = api.get(f"/events/{event.pk}/players", **{"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_schema_and_docs_are_served_offline(client: Client) -> None:
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["info"]["version"] == "1"
    assert "/api/v1/events/{event_id}/standings" in schema["paths"]
    docs = client.get("/api/v1/docs").content.decode()
    assert "/api/v1/docs/assets/swagger-ui-bundle.js" in docs and "cdn" not in docs.lower()
    asset = client.get("/api/v1/docs/assets/swagger-ui-bundle.js")
    assert asset.status_code == 200 and asset["Content-Type"] == "text/javascript"
    assert b"SwaggerUI" in asset.content
    assert client.get("/api/v1/docs/assets/..%2Fsettings.py").status_code == 404


def test_organizers_create_and_revoke_tokens_on_a_page(client: Client, organizer: User, api_event: Event) -> None:
    from taikai.tokens.models import ApiToken

    staff_user(organizer, api_event, "judge2", "judge")
    client.force_login(organizer)
    page = f"/events/{api_event.pk}/api-tokens/"
    r = client.post(page, {"username": "judge2", "role": "judge", "label": "Discord bot"})
    token = r.context["new_token"]
    assert token.startswith("tk_") and token in r.content.decode()
    row = ApiToken.objects.get(label="Discord bot")
    assert row.token_hash != token and row.role == "judge"  # only a hash is kept
    assert Api(client, token=token).post(f"/events/{api_event.pk}/rounds").json()["error"]["code"] == "not-organizer"
    client.post(page, {"revoke": row.pk})
    assert Api(client, token=token).post(f"/events/{api_event.pk}/rounds").status_code == 401
    client.logout()
    judge = Client()
    judge.force_login(row.user)
    assert judge.post(page, {"username": "judge2", "role": "organizer"}).status_code == 200
    assert ApiToken.objects.filter(role="organizer").count() == 0  # a judge cannot mint tokens
