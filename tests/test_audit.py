"""The audit log is append-only and written inside the service's transaction (STYLE habits 1-2)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.dispatch import Signal
from django.test import Client

from taikai.audit.actions import ORGANIZER_CREATED
from taikai.audit.models import AppendOnlyError, AuditEntry
from taikai.audit.services import record, save_and_log
from taikai.events.models import Event

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


def _listening() -> tuple[Signal, list[dict[str, Any]]]:
    heard: list[dict[str, Any]] = []
    said = Signal()
    said.connect(lambda sender, signal, **kwargs: heard.append({"sender": sender, **kwargs}), weak=False)
    return said, heard


def test_an_announced_entry_is_heard_once_committed_with_its_rows_model_and_new_version(event8: Event) -> None:
    said, heard = _listening()
    with transaction.atomic():
        save_and_log(event8, ORGANIZER_CREATED, actor_label="tester", fields=[], announce=[(said, {"event_id": 1})])
        assert heard == []  # receivers never see what is not committed yet
    assert heard == [{"sender": Event, "event_id": 1, "version": event8.version}]
    entry = AuditEntry.objects.filter(action=ORGANIZER_CREATED, object_type="events.event").get()
    assert entry.object_id == str(event8.pk)  # what was announced is in the log


def test_a_rolled_back_entry_announces_nothing(event8: Event) -> None:
    said, heard = _listening()
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        record(ORGANIZER_CREATED, obj=event8, announce=[(said, {})])
        1 / 0  # noqa: B018
    assert heard == []


def test_an_announced_entry_names_its_object_the_signals_sender() -> None:
    with pytest.raises(ValueError), transaction.atomic():
        record(ORGANIZER_CREATED, announce=[(Signal(), {})])


@pytest.mark.django_db
def test_a_nul_character_is_refused_with_a_clear_message(client: Client) -> None:
    response = client.post("/login/", {"username": "a\x00b", "password": "x"})
    assert response.status_code == 400 and "NUL" in response.content.decode()
    api = client.post("/api/v1/events/1/players", data='{"name": "x\\u0000"}', content_type="application/json")
    assert api.status_code == 400 and api.json()["error"]["code"] == "nul-character"
