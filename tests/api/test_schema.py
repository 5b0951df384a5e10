"""schemathesis against the served OpenAPI schema: no server errors, every response as documented."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_django.live_server_helper import LiveServer
from schemathesis import checks as st_checks
from schemathesis.core.result import Err, Ok

from taikai.events.actors import Staff, System
from taikai.events.services import rounds as round_services
from taikai.tokens.services import create_site_token, create_token
from tests.factories import make_event

EXAMPLES = 12


@pytest.mark.django_db(transaction=True)
def test_the_api_keeps_to_its_schema(live_server: LiveServer, organizer: User) -> None:
    event = make_event(organizer, 6)
    round_services.pair_next_round(event, by=Staff(organizer))
    _row, token = create_token(event, by=Staff(organizer), username=organizer.username, role="organizer")
    # A site token too, so creating events (and every event operation through a site token) is covered.
    _row, site = create_site_token(by=System("test"), username=organizer.username)
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/v1/openapi.json")
    failures: list[str] = []
    statuses: dict[int, int] = {}
    results = list(schema.get_all_operations())
    assert [result.err() for result in results if isinstance(result, Err)] == []
    operations = [result.ok() for result in results if isinstance(result, Ok)]
    assert len(operations) >= 40

    for operation in operations:

        @given(case=operation.as_strategy(), real_event=st.booleans(), signed_in=st.sampled_from(["", token, site]))
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any, real_event: bool, signed_in: str) -> None:
            if real_event and case.path_parameters and "event_id" in case.path_parameters:
                case.path_parameters["event_id"] = event.pk
            headers = {"Authorization": f"Bearer {signed_in}"} if signed_in else {}
            try:
                # Valid-looking data may still break a tournament rule (a 400 with a problem code).
                response = case.call_and_validate(
                    base_url=live_server.url,
                    headers=headers,
                    excluded_checks=[st_checks.positive_data_acceptance],
                )
            except Exception as exc:  # schemathesis' FailureGroup, or anything else
                failures.append(f"{case.operation.label}: {exc}")
                raise
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

        with contextlib.suppress(Exception):  # keep going: every failing operation is reported below
            check()
    assert not failures, "\n\n".join(failures[:5])
    print(f"\nschemathesis: {sum(statuses.values())} calls, statuses {sorted(statuses.items())}")
    assert statuses.get(200, 0) > len(operations) and sum(statuses.values()) >= len(operations) * EXAMPLES // 2
