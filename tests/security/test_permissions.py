"""The role matrix, enforced on the server: every staff, player and public URL tried by every role.

Roles: anonymous, player (personal link), judge, head judge, organizer, another event's staff, site admin.
A forbidden action is refused (302 to the login page, 403, or 404 for a wrong link) and changes nothing;
no role ever gets a 500.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Match, Player, StaffRole
from taikai.events.services import links
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from tests.factories import World
from tests.security.routes import Route, all_routes, routes

pytestmark = pytest.mark.django_db

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
STAFF_ROLES = ("judge", "head_judge", "organizer", "admin")
EVERY_ROLE = ("anonymous", "player", "other_staff", *STAFF_ROLES)
STREAMS = {"api_event_stream"}  # server-sent events never end: not fetched here
ORGANIZER_ONLY_POSTS = {
    # url name -> form data; each is refused to judges and head judges (services: require_organizer)
    "round_pair": {},
    "round_repair": {},
    "event_edit": {"name": "乗っ取り", "date": "2026-12-06", "ruleset_name": "harajuku-cs-1.2", "format": "swiss"},
    "staff_manage": {"username": "judge_a", "role": "organizer", "password": ""},
    "archetypes_publication": {"publish": "yes", "confirm": "yes"},
}


def values(world: World) -> dict[str, Any]:
    match = world.match()
    return {
        "event_id": world.event.pk,
        "number": 1,
        "match_id": match.pk,
        "player_id": match.player_a_id,
        "token": world.token_of(match.player_a),
        "action": "start",
        "name": "metagame",
        "table": match.table,
    }


def client_for(world: World, role: str, **kwargs: Any) -> Client:
    client = Client(raise_request_exception=False, **kwargs)
    user = {
        "judge": world.judge,
        "head_judge": world.head_judge,
        "organizer": world.organizer,
        "other_staff": world.other_staff,
        "admin": world.admin,
    }.get(role)
    if user is not None:
        client.force_login(user)
    return client


def audit_count(world: World) -> int:
    return AuditEntry.objects.filter(event_id=world.event.pk).count()


def test_anonymous_and_players_are_sent_to_the_login_page_from_every_staff_url(world: World) -> None:
    v = values(world)
    client = client_for(world, "anonymous")
    before = audit_count(world)
    wrong = []
    for route in routes("staff", "account"):
        for method in ("get", "post"):
            response = getattr(client, method)(route.url(v))
            if response.status_code != 302 or not response["Location"].startswith("/login/"):
                wrong.append((method, route.route, response.status_code))
    assert wrong == []
    assert audit_count(world) == before


def test_another_events_staff_is_refused_everywhere_in_this_event(world: World) -> None:
    v = values(world)
    client = client_for(world, "other_staff")
    before = audit_count(world)
    wrong = []
    for route in routes("staff"):
        for method in ("get", "post"):
            response = getattr(client, method)(route.url(v))
            if response.status_code not in (403, 404):
                wrong.append((method, route.route, response.status_code))
    assert wrong == []
    assert audit_count(world) == before
    # and their API token-less session reaches nothing of event A either
    assert client.post(f"/api/v1/events/{world.event.pk}/rounds").status_code in (401, 403)


@pytest.mark.parametrize("role", ["judge", "head_judge"])
def test_judges_cannot_do_what_only_the_organizer_may(world: World, role: str) -> None:
    v = values(world)
    client = client_for(world, role)
    by_name = {r.name: r for r in all_routes()}
    event_name, staff_roles, rounds = world.event.name, set(StaffRole.objects.values_list("user", "role")), 1
    before = audit_count(world)
    for name, data in ORGANIZER_ONLY_POSTS.items():
        response = client.post(by_name[name].url(v), data)
        assert response.status_code < 500, name
    world.event.refresh_from_db()
    assert world.event.name == event_name
    assert set(StaffRole.objects.values_list("user", "role")) == staff_roles
    assert world.event.rounds.count() == rounds
    assert world.event.archetypes_published_at is None
    assert audit_count(world) == before
    for name in ("event_create", "event_import"):
        assert client.get(by_name[name].url(v)).status_code == 403
        assert client.post(by_name[name].url(v), {"name": "x"}).status_code == 403


@pytest.mark.parametrize("role", EVERY_ROLE)
def test_every_role_reads_every_page_without_a_server_error_and_a_read_changes_nothing(world: World, role: str) -> None:
    v = values(world)
    client = client_for(world, role)
    before = AuditEntry.objects.count()
    errors: list[tuple[str, int | str]] = []
    for route in all_routes():
        if route.name in STREAMS or route.name == "logout":
            continue
        response = client.get(route.url(v))
        if response.status_code >= 500:
            errors.append((route.route, response.status_code))
        if role in ("organizer", "admin") and route.kind == "staff" and response.status_code == 403:
            errors.append((route.route, "organizer refused in their own event"))
    assert errors == []
    assert AuditEntry.objects.count() == before


def _player_routes() -> list[Route]:
    return routes("player")


def test_a_wrong_or_revoked_personal_link_finds_nothing(world: World) -> None:
    client = client_for(world, "anonymous")
    player = world.match().player_a
    links.revoke_access(player, by=Staff(world.organizer))
    for token in ("not-a-token", "x" * 200, world.token_of(player)):
        for route in _player_routes():
            for method in ("get", "post"):
                response = getattr(client, method)(route.url({"token": token}))
                # 405: a POST-only URL refuses a GET before looking at the link
                assert response.status_code in ((404, 405) if method == "get" else (404,)), (route.route, token[:9])


def test_a_player_cannot_report_or_confirm_another_players_match(world: World) -> None:
    assert world.round is not None
    mine, theirs = list(world.round.matches.filter(is_bye=False).order_by("table"))[:2]
    me = mine.player_a
    with pytest.raises(ServiceError) as exc:
        result_services.report_result(theirs, player=me, result=A_WINS)
    assert exc.value.problem.code == "not-your-match"
    with pytest.raises(ServiceError):
        result_services.confirm_result(theirs, player=me, version=theirs.version)

    client = client_for(world, "anonymous")
    # The page form only ever reaches the player's own table, whatever ids are slipped into it.
    client.post(
        f"/p/{world.token_of(me)}/report/",
        {"duel1": "A", "duel2": "A", "basis": "played", "match_id": theirs.pk, "match": theirs.pk},
    )
    theirs.refresh_from_db()
    assert theirs.status == Match.Status.PENDING and theirs.reports.count() == 0
    # The API checks the match against the token's player.
    response = client.post(
        f"/api/v1/events/{world.event.pk}/matches/{theirs.pk}/result",
        json.dumps({"duels": [{"winner": "A"}, {"winner": "A"}]}),
        content_type="application/json",
        HTTP_X_PLAYER_TOKEN=world.token_of(me),
    )
    assert response.status_code in (400, 403), response.content
    assert json.loads(response.content)["error"]["code"] == "not-your-match"
    theirs.refresh_from_db()
    assert theirs.status == Match.Status.PENDING and theirs.reports.count() == 0
    # A player of another event is refused in this one.
    stranger = world.other_event.players.first()
    assert stranger is not None
    stranger_token = links.issue_access(stranger, by=Staff(world.other_staff))
    response = client.post(
        f"/api/v1/events/{world.event.pk}/matches/{theirs.pk}/result",
        json.dumps({"duels": [{"winner": "A"}, {"winner": "A"}]}),
        content_type="application/json",
        HTTP_X_PLAYER_TOKEN=stranger_token,
    )
    assert response.status_code == 403


def test_a_player_cannot_confirm_their_own_report(world: World) -> None:
    match = world.match()
    me = Player.objects.get(pk=match.player_a_id)
    result_services.report_result(match, player=me, result=A_WINS)
    with pytest.raises(ServiceError) as exc:
        result_services.confirm_result(match, player=me, version=Match.objects.get(pk=match.pk).version)
    assert exc.value.problem.code == "confirm-own-report"
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED


def test_csrf_is_enforced_on_every_post_form(world: World) -> None:
    """Every form POST without the CSRF token is refused (403), for staff and for personal links alike."""
    v = values(world)
    staff = client_for(world, "admin", enforce_csrf_checks=True)
    player = client_for(world, "anonymous", enforce_csrf_checks=True)
    before = AuditEntry.objects.count()
    accepted = []
    for route in all_routes():
        if route.kind == "api":
            continue  # header tokens, never cookies: no CSRF (checked below)
        if route.name == "follow_sync":
            # the venue's connection is signed with its pairing key, never a cookie: a form post is refused
            assert staff.post(route.url(v), {"name": "x"}).status_code == 415
            continue
        client = player if route.kind == "player" else staff
        client.get(route.url(v))  # the CSRF cookie is set, but the form field is missing
        response = client.post(route.url(v), {"name": "x"})
        if response.status_code != 403:
            accepted.append((route.route, response.status_code))
    assert accepted == []
    assert AuditEntry.objects.count() == before
    # The login form too.
    login = Client(enforce_csrf_checks=True)
    assert login.post("/login/", {"username": "siteadmin", "password": "x"}).status_code == 403


def test_the_api_never_takes_a_session_cookie_for_a_write(world: World) -> None:
    client = client_for(world, "admin")
    before = AuditEntry.objects.count()
    assert client.post(f"/api/v1/events/{world.event.pk}/rounds").status_code == 401
    response = client.post(
        f"/api/v1/events/{world.event.pk}/matches/{world.match().pk}/result",
        json.dumps({"duels": [{"winner": "A"}, {"winner": "A"}]}),
        content_type="application/json",
    )
    assert response.status_code == 401
    assert AuditEntry.objects.count() == before
