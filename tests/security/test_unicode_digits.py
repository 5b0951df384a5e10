"""Issue 25 item 8: "²".isdigit() is True and int("²") raises, so a check with one and a conversion with the
other was a 500 (`clock.json?table=²` anonymously, `²` in the API penalty fields). One parser
(`taikai.core.ids.parse_id`) reads every number a client sends; this file sends Unicode digits to every route
the URL resolver knows, in every query and form field the code reads or the page shows, as every kind of
visitor, and to every API operation in every string field and parameter of its schema.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from taikai.api.base import api
from taikai.core.ids import parse_id
from taikai.events.actors import Staff
from taikai.events.models import Player
from taikai.events.services import links
from taikai.tokens.services import create_token
from tests.factories import World
from tests.security.routes import all_routes
from tests.security.test_bad_input import FIELD
from tests.security.test_permissions import client_for, values

pytestmark = pytest.mark.django_db

ODD = ["²", "٣", "１２", "1²", "𝟙", "9" * 40]
SKIP = {"api_event_stream", "logout"}
READ = re.compile(r"""request\.(?:GET|POST)(?:\.get\(|\[|\.getlist\()\s*["']([a-z_0-9]+)["']""")
SRC = Path(__file__).resolve().parents[2] / "src" / "taikai"


def _names_read_by_the_code() -> set[str]:
    return {name for path in SRC.rglob("*.py") for name in READ.findall(path.read_text(encoding="utf-8"))}


def test_the_parser_takes_ascii_digits_only_and_caps_the_length() -> None:
    assert parse_id("42") == 42 and parse_id(" 7 ") == 7 and parse_id(9) == 9
    for odd in [*ODD, "", "-1", "+1", "1.0", "1e3", None, True, "0x1f", "1_000"]:
        assert parse_id(odd) is None, odd
    assert parse_id("9" * 15) == 10**15 - 1 and parse_id("9" * 16) is None
    assert parse_id("123", digits=2) is None


def _page_fields(client: Client, url: str) -> set[str]:
    answer = client.get(url)
    if answer.status_code != 200 or "html" not in answer.get("Content-Type", ""):
        return set()
    return set(FIELD.findall(answer.content.decode(errors="replace"))) - {"csrfmiddlewaretoken"}


def test_unicode_digits_in_every_field_of_every_page_are_never_a_server_error(world: World) -> None:
    v = values(world)
    read = _names_read_by_the_code()
    match = world.match()
    dynamic = {f"a-{match.pk}", f"b-{match.pk}", "confirm"}
    failures = []
    for role in ("anonymous", "judge", "organizer"):
        client = client_for(world, role)
        for route in all_routes():
            if route.name in SKIP or route.kind == "api":
                continue
            url = route.url(v)
            names = sorted(read | dynamic | _page_fields(client, url))
            for odd in ODD[:3]:
                data = {n: odd for n in names} | {"confirm": "yes"}
                for answer in (client.get(url, {n: odd for n in names}), client.post(url, data)):
                    if answer.status_code >= 500:
                        failures.append((role, route.route, odd, answer.status_code))
    assert failures == [], "\n".join(map(str, failures))


def _schema_body(schema: dict[str, Any], components: dict[str, Any], odd: str) -> Any:
    if "$ref" in schema:
        return _schema_body(components[schema["$ref"].rsplit("/", 1)[-1]], components, odd)
    if "anyOf" in schema:
        return _schema_body(schema["anyOf"][0], components, odd)
    kind = schema.get("type")
    if kind == "object":
        return {k: _schema_body(p, components, odd) for k, p in schema.get("properties", {}).items()}
    if kind == "array":
        return [_schema_body(schema.get("items", {}), components, odd)]
    if kind == "integer":
        return odd  # a number sent as a string of odd digits
    if kind == "boolean":
        return True
    return odd


def _resolved(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in schema:
        return _resolved(components[schema["$ref"].rsplit("/", 1)[-1]], components)
    if "anyOf" in schema:
        return _resolved(schema["anyOf"][0], components)
    return schema


def _bodies(schema: dict[str, Any], components: dict[str, Any], odd: str, v: dict[str, Any]) -> list[Any]:
    """Every field odd at once, then one field odd at a time in a body that is otherwise well formed (its
    strings from the event, its numbers 1, its lists and objects left out)."""
    every = _schema_body(schema, components, odd)
    if not isinstance(every, dict):
        return [every]
    good = {"player": str(v["player_id"]), "match": str(v["match_id"]), "infraction": "INF-1"}
    kinds = {k: _resolved(p, components).get("type") for k, p in _resolved(schema, components)["properties"].items()}
    base = {
        k: good.get(k, "x") if kind == "string" else 1 for k, kind in kinds.items() if kind in ("string", "integer")
    }
    return [every] + [base | {k: odd} for k in every]


def _operations() -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    all_routes()  # loads the URL configuration, which attaches every router to the API
    schema = api.get_openapi_schema(path_prefix="/api/v1")
    components = schema.get("components", {}).get("schemas", {})
    return [
        (path, method, op, components)
        for path, ops in schema["paths"].items()
        for method, op in ops.items()
        if "stream" not in path
    ]


def _filled(path: str, values: dict[str, str]) -> str:
    """``path`` with each ``{name}`` replaced by its value, a name with no value by the event's id."""
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), values["event_id"]), path)


def test_unicode_digits_in_every_api_parameter_and_field_are_never_a_server_error(world: World) -> None:
    v = values(world)
    me = Player.objects.get(pk=v["player_id"])
    operations = _operations()
    assert len(operations) > 30  # the schema really lists the API
    client = Client(raise_request_exception=False)
    failures = []
    for path, method, op, components in operations:
        # fresh credentials for each operation: an earlier one may have revoked the token or re-issued the link
        _row, token = create_token(world.event, by=Staff(world.organizer), username="org_a", role="organizer")
        link = links.issue_access(Player.objects.get(pk=me.pk), by=Staff(world.organizer))
        callers = [{"Authorization": f"Bearer {token}"}, {"X-Player-Token": link}, {}]
        params = op.get("parameters", [])
        body_schema = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        for odd in ODD[:3]:
            for odd_path in (False, True):
                filled = {k: odd if odd_path else str(value) for k, value in v.items()}
                url = _filled(path, filled)
                query = {p["name"]: odd for p in params if p.get("in") == "query"}
                bodies = _bodies(body_schema, components, odd, v) if body_schema else [None]
                for headers, body in [(h, b) for h in callers for b in bodies]:
                    if method == "get":
                        answer = client.get(url, query, headers=headers)
                    else:
                        answer = getattr(client, method)(
                            url + ("?" + "&".join(f"{k}={odd}" for k in query) if query else ""),
                            body,
                            content_type="application/json",
                            headers=headers,
                        )
                    if answer.status_code >= 500:
                        failures.append((method, path, odd, odd_path, answer.status_code))
    assert failures == [], "\n".join(map(str, failures))
