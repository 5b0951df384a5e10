"""The audit log is append-only and written inside the service's transaction (STYLE habits 1-2)."""

from __future__ import annotations

import pytest
from django.db import transaction

from taikai.audit.actions import ORGANIZER_CREATED
from taikai.audit.models import AppendOnlyError, AuditEntry
from taikai.audit.services import record

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)
def test_record_needs_a_transaction() -> None:
    with pytest.raises(RuntimeError):
        record(ORGANIZER_CREATED)


def test_entries_cannot_be_changed_or_deleted() -> None:
    with transaction.atomic():
        entry = record(ORGANIZER_CREATED, actor_label="tester", before={"a": 1}, after={"a": 2})
    entry.action = "changed"
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        AuditEntry.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        AuditEntry.objects.update(action="x")
    assert AuditEntry.objects.get().action == ORGANIZER_CREATED


def test_a_failed_service_leaves_no_entry() -> None:
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        record(ORGANIZER_CREATED)
        1 / 0  # noqa: B018
    assert AuditEntry.objects.count() == 0


@pytest.mark.django_db
def test_a_nul_character_is_refused_with_a_clear_message(client: object) -> None:
    response = client.post("/login/", {"username": "a\x00b", "password": "x"})  # type: ignore[attr-defined]
    assert response.status_code == 400 and "NUL" in response.content.decode()
    api = client.post(  # type: ignore[attr-defined]
        "/api/v1/events/1/players", data='{"name": "x\\u0000"}', content_type="application/json"
    )
    assert api.status_code == 400 and api.json()["error"]["code"] == "nul-character"
