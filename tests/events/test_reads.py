"""The hand-written reads of a result report (taikai.events.reads) return what the ORM's querysets return.

Each read is compared field by field with the queryset it replaces, on the suite's database (SQLite, then
PostgreSQL): JSON fields as dicts, date-times aware, the empty side of a bye's outer join as None.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from taikai.events import reads
from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player
from taikai.events.services import links
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.security.hashers import hash_token
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def _fields(obj: Model) -> dict[str, Any]:
    """Every loaded concrete field, as the instance holds it (deferred fields left out)."""
    deferred = obj.get_deferred_fields()
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields if f.attname not in deferred}


def _paired(organizer: User, players: int = 7) -> Event:
    """An odd field: one table is a bye (no player B). One result is in, so records and reports exist."""
    event = make_event(organizer, players)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    m = rnd.matches.filter(is_bye=False).select_related("round__event", "player_a", "player_b").first()
    assert m is not None
    duels = ({"winner": "A"}, {"winner": "B"}, {"winner": "A"})
    result_services.enter_result(m, by=Staff(organizer), result=ResultInput(duels))
    return event


def test_a_player_read_by_token_is_the_orms_player_with_its_event(organizer: User) -> None:
    event = _paired(organizer)
    player = event.players.order_by("id").first()
    assert player is not None
    token = links.issue_access(player, by=Staff(organizer))
    orm = Player.objects.select_related("event").get(access_token_hash=hash_token(token))
    with CaptureQueriesContext(connection) as read:
        mine = reads.player_by_token_hash(hash_token(token))
    assert mine is not None and len(read.captured_queries) == 1
    assert _fields(mine) == _fields(orm)
    assert mine.event.get_deferred_fields() == {"ruleset_document", "banlist_entries"}  # a deck check's, not a report's
    loaded = _fields(mine.event)
    assert loaded == {k: v for k, v in _fields(orm.event).items() if k in loaded}  # the dates, the flags, the names
    assert mine.event.ruleset == orm.event.ruleset and mine.event.created_at.tzinfo is not None
    assert mine.event.ruleset_document == orm.event.ruleset_document  # loaded on first use
    assert mine.event.banlist_entries == orm.event.banlist_entries
    assert reads.player_by_token_hash(hash_token("not-a-token")) is None


def test_a_table_read_for_a_result_is_the_orms_table_round_and_players(organizer: User) -> None:
    event = _paired(organizer)
    for orm in Match.objects.filter(round__event=event).select_related("round", "player_a", "player_b"):
        mine = reads.match_for_result(event, orm.pk)
        assert mine is not None
        assert _fields(mine) == _fields(orm)  # the record's JSON, status, version, duel counts
        assert _fields(mine.round) == _fields(orm.round) and mine.round.event is event
        assert mine.player_a.name == orm.player_a.name and mine.player_a.pk == orm.player_a.pk
        if orm.is_bye:
            assert mine.player_b is None and orm.player_b is None
        else:
            assert mine.player_b is not None and mine.player_b.name == orm.player_b.name
        assert set(mine.player_a.get_deferred_fields()) >= {"card_game_id", "access_token_hash"}


def test_a_table_of_another_event_is_not_found(organizer: User) -> None:
    event, other = _paired(organizer), _paired(organizer)
    theirs = Match.objects.filter(round__event=other).first()
    assert theirs is not None
    assert reads.match_for_result(event, theirs.pk) is None
    assert reads.match_for_result(other, theirs.pk) is not None


def test_the_locked_row_and_the_reports_are_the_orms(organizer: User) -> None:
    event = _paired(organizer)
    m = Match.objects.filter(round__event=event, status=Match.Status.CONFIRMED, is_bye=False).get()
    with transaction.atomic():
        locked = reads.locked_match(m.pk)
        orm = Match.objects.select_for_update().get(pk=m.pk)
        assert locked is not None and _fields(locked) == _fields(orm)
    assert [_fields(r) for r in reads.reports_of(m)] == [_fields(r) for r in m.reports.all()]
    assert reads.reports_of(m)[0].record["duels"] == [{"winner": "A"}, {"winner": "B"}, {"winner": "A"}]
    with transaction.atomic():
        assert reads.locked_match(10**12) is None


def test_reg_3_the_locked_player_at_check_in_is_the_orms_player_with_its_event(organizer: User) -> None:
    event = make_event(organizer, 3)
    p = Player.objects.filter(event=event).order_by("id").first()
    assert p is not None
    with transaction.atomic():
        locked = reads.locked_player(p.pk)
        orm = Player.objects.select_for_update(of=("self",)).select_related("event").get(pk=p.pk)
        assert locked is not None and _fields(locked) == _fields(orm)
        assert _fields(locked.event) == {k: v for k, v in _fields(orm.event).items() if k in _fields(locked.event)}
        assert set(locked.event.get_deferred_fields()) == {"ruleset_document", "banlist_entries"}
        assert locked.event.ruleset == orm.event.ruleset  # a deferred document loads on first use
        assert reads.locked_player(10**12) is None


def test_late_entry_the_swiss_rounds_played_are_the_orms_count(organizer: User) -> None:
    event = make_event(organizer, 4)
    assert reads.swiss_rounds_played(event.pk) == 0
    round_services.pair_next_round(event, by=Staff(organizer))
    orm = event.rounds.filter(stage="swiss").count()
    assert reads.swiss_rounds_played(event.pk) == orm == 1
    assert reads.swiss_rounds_played(10**12) == 0


def test_end_4_a_round_has_an_open_table_until_its_last_is_confirmed(organizer: User) -> None:
    event = _paired(organizer, players=4)
    rnd = event.rounds.get()
    assert reads.has_open_table(rnd.pk)
    for m in rnd.matches.filter(status=Match.Status.PENDING).select_related("round__event", "player_a", "player_b"):
        result_services.enter_result(m, by=Staff(organizer), result=ResultInput(({"winner": "B"}, {"winner": "B"})))
    assert not reads.has_open_table(rnd.pk)
    assert not Match.objects.filter(round=rnd).exclude(status=Match.Status.CONFIRMED).exists()


def test_an_insert_and_an_update_by_hand_store_what_the_orm_stores(organizer: User) -> None:
    """taikai.db.rows.insert and update, against ORM's create and save(update_fields): JSON, an aware
    date-time from auto_now_add, foreign keys, NULLs, and the primary key set on the instance."""
    from taikai.audit.models import AuditEntry
    from taikai.db import rows as db_rows
    from taikai.events.models import ResultReport

    event = _paired(organizer)
    m = Match.objects.filter(round__event=event, is_bye=False, status=Match.Status.PENDING).first()
    assert m is not None
    record = {"duels": [{"winner": "A"}, {"winner": "B"}], "basis": "played", "名前": "山田"}
    with transaction.atomic():
        mine = db_rows.insert(ResultReport(match=m, by_player_id=m.player_a_id, record=record, basis="played"))
        orm = ResultReport.objects.create(match=m, by_player_id=m.player_a_id, record=record, basis="played")
        entry = db_rows.insert(AuditEntry(action="taikai.match.result_reported", event_id=event.pk, data={"k": [1]}))
    assert mine.pk is not None and not mine._state.adding and mine.pk != orm.pk
    stored, theirs = ResultReport.objects.get(pk=mine.pk), ResultReport.objects.get(pk=orm.pk)
    assert {k: v for k, v in _fields(stored).items() if k not in ("id", "created_at")} == {
        k: v for k, v in _fields(theirs).items() if k not in ("id", "created_at")
    }
    assert stored.created_at.tzinfo is not None and abs((stored.created_at - theirs.created_at).total_seconds()) < 5
    assert stored.by_user_id is None and stored.record["名前"] == "山田"
    saved = AuditEntry.objects.get(pk=entry.pk)
    assert (saved.data, saved.before, saved.actor_id, saved.at.tzinfo is not None) == ({"k": [1]}, None, None, True)

    m.status, m.result, m.record, m.version = Match.Status.REPORTED, "a", {"duels": [{"winner": "A"}]}, m.version + 1
    db_rows.update(m, ["status", "result", "record", "version"])
    again = Match.objects.get(pk=m.pk)
    assert (again.status, again.result, again.record, again.version) == (m.status, "a", m.record, m.version)
    assert again.table == m.table and again.player_b_id == m.player_b_id  # the other columns are untouched


def test_no_save_signal_listens_to_the_models_written_by_hand() -> None:
    """taikai.db.rows.insert/update send no pre_save/post_save: a receiver added for one of these models must
    come with a decision (send the signal there, or write through the ORM again), so this test says so."""
    from django.db.models.signals import post_save, pre_save

    from taikai.audit.models import AuditEntry
    from taikai.events.models import ResultReport

    for model in (AuditEntry, ResultReport, Match):
        assert not pre_save.has_listeners(model) and not post_save.has_listeners(model), model


def test_no_model_written_by_hand_overrides_save() -> None:
    """A hand-written insert or update never calls ``save()``: a model that overrode it would be written two
    ways (docs/architecture.md, "Hand-written statements")."""
    from django.db import models

    from taikai.audit.models import AuditEntry
    from taikai.events.models import ResultReport

    for model in (ResultReport, Match):
        assert model.save is models.Model.save, model
        assert model.save_base is models.Model.save_base, model
    # The audit entry's save() only refuses to change a row already written (append-only); the hand-written
    # path only ever inserts one, so the two agree.
    assert "pk is not None" in inspect.getsource(AuditEntry.save)
