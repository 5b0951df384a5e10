"""Bad input never crashes: fuzzed event-JSON imports and result reports, and garbage POSTed to every form.

An import either succeeds whole or fails with a ServiceError and leaves no row behind; a result report
either parses or fails with a ServiceError; no form answers with a 5xx.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, ResultReport, Round, StaffRole, Team
from taikai.events.services import results as result_services
from taikai.events.services import transfer, transfer_import
from taikai.events.services.result_input import ResultInput, outcome_of
from tests.factories import World, build_world
from tests.security.routes import all_routes
from tests.security.test_permissions import values

pytestmark = pytest.mark.django_db
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
MODELS = (Event, Player, Round, Match, ResultReport, Team, StaffRole, AuditEntry)

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(["", "2026-12-06", "2026-13-45T99:00", "swiss", "A", "B", "draw", "\x00", "x" * 300]),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)),
    max_leaves=12,
)


def _counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in MODELS)


@pytest.fixture
def small_world(db: None) -> World:
    world = build_world(players=4)
    assert world.round is not None
    for m in world.round.matches.filter(is_bye=False):
        result_services.enter_result(
            m, by=Staff(world.organizer), result=ResultInput(({"winner": "A"}, {"winner": "A"}))
        )
    return world


def _mutate(doc: Any, path: list[Any], value: Any, delete: bool) -> Any:
    """Replace (or delete) the part of ``doc`` that ``path`` leads to; a path that runs out stops there."""
    doc = copy.deepcopy(doc)
    node = doc
    for i, step in enumerate(path):
        if isinstance(node, dict) and node:
            key = sorted(node, key=str)[step % len(node)]
        elif isinstance(node, list) and node:
            key = step % len(node)
        else:
            return doc
        if i == len(path) - 1 or not isinstance(node[key], dict | list):
            if delete and isinstance(node, dict):
                del node[key]
            else:
                node[key] = value
            return doc
        node = node[key]
    return doc


def test_the_event_importer_takes_a_damaged_file_whole_or_not_at_all(small_world: World) -> None:
    exported = transfer.export_event(small_world.event, by=Staff(small_world.organizer))
    by = small_world.organizer

    @FUZZ
    @given(
        mutations=st.lists(
            st.tuples(st.lists(st.integers(0, 50), min_size=1, max_size=5), json_value, st.booleans()),
            min_size=1,
            max_size=3,
        )
    )
    def run(mutations: list[tuple[list[int], Any, bool]]) -> None:
        doc = exported
        for path, value, delete in mutations:
            doc = _mutate(doc, path, value, delete)
        before = _counts()
        try:
            event = transfer_import.import_event(doc, by=Staff(by))
        except ServiceError:
            assert _counts() == before, "a refused import left rows behind"
        else:
            assert Event.objects.filter(pk=event.pk).exists()

    run()


@FUZZ
@given(doc=json_value)
def test_the_event_importer_refuses_any_json_that_is_not_an_export(small_world: World, doc: Any) -> None:
    before = _counts()
    with pytest.raises(ServiceError):
        transfer_import.import_event(doc, by=Staff(small_world.organizer))
    assert _counts() == before


form_value = st.one_of(
    st.sampled_from(["", "A", "B", "draw", "time", "a", "1", "-1", "1e9", "９", "\x00", "on", "x" * 500]),
    st.text(max_size=12),
)
FORM_KEYS = [f"duel{i}{suffix}" for i in range(1, 6) for suffix in ("", "_lp_a", "_lp_b", "_sd", "_tc", "_extra")]


@FUZZ
@given(post=st.dictionaries(st.sampled_from([*FORM_KEYS, "basis", "between"]), form_value, max_size=12))
def test_a_result_form_is_read_or_refused_with_a_message(small_world: World, post: dict[str, str]) -> None:
    match = small_world.match()
    try:
        outcome = outcome_of(match, ResultInput.from_post(post))
    except ServiceError as exc:
        assert exc.problem.code
    else:
        assert outcome.result in ("a", "b", "draw")


@FUZZ
@given(
    data=st.one_of(
        json_value,
        st.fixed_dictionaries(
            {"duels": st.lists(json_value, max_size=5)},
            optional={
                "basis": st.sampled_from(["played", "intentional-draw", "concession-consent", "x"]),
                "time_called_between_duels": json_value,
            },
        ),
    )
)
def test_a_result_in_json_is_read_or_refused_with_a_message(small_world: World, data: Any) -> None:
    match = small_world.match()
    try:
        outcome = outcome_of(match, ResultInput.from_json(data))
    except ServiceError as exc:
        assert exc.problem.code
    else:
        assert outcome.result in ("a", "b", "draw")


# --- a crawler: every form, as someone allowed to use it, filled with garbage ---------------------------------

FIELD = re.compile(r"<(?:input|select|textarea)\b[^>]*\bname=\"([^\"]+)\"", re.I)
GARBAGE = ["", "\x00", "-1", "9" * 40, "abc", "x" * 5000, "２０２６-１２-０６", "<script>alert(1)</script>", "1e309"]
SKIP = {"api_event_stream", "logout"}
# Known server errors in other apps, left to their owners (see the issue-8 report); remove when fixed.
KNOWN_500: set[str] = set()  # routes still answering garbage with a server error (none)


def _fields(client: Client, url: str) -> list[str]:
    response = client.get(url)
    if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
        return []
    return sorted(set(FIELD.findall(response.content.decode(errors="replace"))) - {"csrfmiddlewaretoken"})


def test_garbage_posted_to_every_form_by_an_authorised_user_never_gives_a_server_error(small_world: World) -> None:
    v = values(small_world)
    staff = Client(raise_request_exception=False)
    staff.force_login(small_world.admin)
    player = Client(raise_request_exception=False)
    failures = []
    for route in all_routes():
        if route.name in SKIP or route.kind == "api":
            continue
        client = player if route.kind == "player" else staff
        url = route.url(v)
        names = _fields(client, url) or ["name", "version", "file", "q"]
        for shift in range(0, len(GARBAGE), 2 if len(names) > 1 else 1):
            data: dict[str, Any] = {n: GARBAGE[(i + shift) % len(GARBAGE)] for i, n in enumerate(names)}
            if "file" in names or shift == 0:
                data["file"] = SimpleUploadedFile("x.json", b"\xff\xfe{garbage" * (shift + 1))
            response = client.post(url, data)
            if response.status_code >= 500 and route.route not in KNOWN_500:
                failures.append((route.route, shift, response.status_code))
    assert failures == []


def test_garbage_json_to_every_api_write_never_gives_a_server_error(small_world: World) -> None:
    v = values(small_world)
    client = Client(raise_request_exception=False)
    failures = []
    bodies = ["", "{", "[]", "null", '{"duels": "x"}', '{"duels": [{"winner": "Z"}]}', '{"version": "x"}', "\x00"]
    for route in all_routes():
        if route.kind != "api" or route.name in SKIP:
            continue
        for body in bodies:
            for headers in ({}, {"HTTP_X_PLAYER_TOKEN": v["token"]}, {"HTTP_AUTHORIZATION": "Bearer nonsense"}):
                for method in ("put",) if route.name == "put_archetype" else ("post",):
                    response = getattr(client, method)(route.url(v), body, content_type="application/json", **headers)
                    if response.status_code >= 500:
                        failures.append((method, route.route, body, response.status_code))
    assert failures == []
