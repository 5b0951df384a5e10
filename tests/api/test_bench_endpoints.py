"""The benchmarks' no-op report (taikai.api.bench_ops) is mounted only on the bench's own servers
(TAIKAI_BENCH_ENDPOINTS=1, read at start-up); a server people use has no such route."""

from __future__ import annotations

from taikai.events.models import Event
from tests.factories import Api


def test_a_normal_server_has_no_no_op_report(organizer_api: Api, api_event: Event) -> None:
    from django.conf import settings

    assert settings.BENCH_ENDPOINTS is False
    r = organizer_api.post(f"/events/{api_event.pk}/matches/1/noop", {"duels": [{"winner": "A"}]})
    assert r.status_code == 404
    schema = organizer_api.get("/openapi.json").json()
    assert not [p for p in schema["paths"] if p.endswith("/noop")]
