"""Editing a round's pairings and pairing it again (issue 22): made on the version of the round and its tables
the organizer saw, never throwing away a result that is in, and refused for the real reason."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Match, ResultReport, Round
from taikai.events.services import pairing_edits
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from tests.factories import make_event

pytestmark = pytest.mark.django_db

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
B_WINS = ResultInput(({"winner": "B"}, {"winner": "B"}))


def _round(organizer: User, players: int = 8) -> tuple[Event, Round]:
    event = make_event(organizer, players)
    return event, round_services.pair_next_round(event, by=Staff(organizer))


def _tables(rnd: Round) -> list[Match]:
    return list(Match.objects.filter(round=rnd).order_by("table"))


def _pairs(rnd: Round) -> list[tuple[int, int | None]]:
    return [(m.player_a_id, m.player_b_id) for m in _tables(rnd)]


def _swap_tables_2_and_3(pairs: list[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    (a2, b2), (a3, b3) = pairs[1], pairs[2]
    return [pairs[0], (a2, a3), (b2, b3), *pairs[3:]]


def _result_in(rnd: Round, organizer: User, how: str) -> Match:
    """Table 1 gets a result: entered from the slip (confirmed), reported by one player, or disputed (END-4)."""
    table1 = _tables(rnd)[0]
    if how == "confirmed":
        return result_services.enter_result(table1, by=Staff(organizer), result=A_WINS)
    result_services.report_result(table1, player=table1.player_a, result=A_WINS)
    if how == "disputed":
        result_services.report_result(table1, player=table1.player_b, result=B_WINS)
    return Match.objects.get(pk=table1.pk)


# --- finding 3a: an edit threw away a result already entered -----------------------------------------


@pytest.mark.parametrize("how", ["confirmed", "reported", "disputed"])
def test_an_edit_of_other_tables_keeps_the_table_that_has_a_result(organizer: User, how: str) -> None:
    # END-4: a result the players reported (or the desk entered) stays; the edit changes only tables without one.
    event, rnd = _round(organizer)
    table1 = _result_in(rnd, organizer, how)
    seen = pairing_edits.pairing_state(rnd).version
    pairing_edits.edit_pairing(rnd, by=Staff(organizer), pairs=_swap_tables_2_and_3(_pairs(rnd)), version=seen)
    kept = Match.objects.get(round=rnd, table=1)
    assert kept.pk == table1.pk
    assert (kept.status, kept.record, kept.result) == (how, table1.record, table1.result)
    assert kept.reports.count() == table1.reports.count()
    edited = AuditEntry.objects.filter(action="taikai.round.pairing_edited").latest("id")
    assert edited.data["kept"] == [1]


def test_an_edit_that_changes_a_table_with_a_result_is_refused_and_changes_nothing(organizer: User) -> None:
    event, rnd = _round(organizer)
    table1 = _result_in(rnd, organizer, "confirmed")
    before = _pairs(rnd)
    changed = [(before[0][0], before[1][0]), (before[0][1], before[1][1]), *before[2:]]
    with pytest.raises(ServiceError) as refused:
        pairing_edits.edit_pairing(
            rnd, by=Staff(organizer), pairs=changed, version=pairing_edits.pairing_state(rnd).version
        )
    assert refused.value.problem.code == "table-has-result"
    assert refused.value.problem.params["table"] == 1
    assert _pairs(rnd) == before
    assert Match.objects.get(pk=table1.pk).status == Match.Status.CONFIRMED


def test_the_edit_page_shows_the_kept_table_and_saving_says_it_was_kept(organizer: User, client: Client) -> None:
    event, rnd = _round(organizer)
    _result_in(rnd, organizer, "confirmed")
    client.force_login(organizer)
    url = f"/events/{event.pk}/rounds/1/edit/"
    page = client.get(url).content.decode()
    assert "結果が入っている卓はそのまま残ります" in page and 'id="kept-1"' in page
    post: dict[str, str] = {"version": pairing_edits.pairing_state(rnd).version}
    for m, (a, b) in zip(_tables(rnd)[1:], _swap_tables_2_and_3(_pairs(rnd))[1:], strict=True):
        post[f"a-{m.pk}"], post[f"b-{m.pk}"] = str(a), str(b or "")
    answer = client.post(url, post, follow=True).content.decode()
    assert "1番卓は結果が入っているため、そのまま残しました" in answer
    assert Match.objects.get(round=rnd, table=1).status == Match.Status.CONFIRMED


# --- the version the organizer saw -------------------------------------------------------------------


def test_an_edit_on_a_stale_version_is_refused_with_the_current_one(organizer: User) -> None:
    event, rnd = _round(organizer)
    seen = pairing_edits.pairing_state(rnd).version
    _result_in(rnd, organizer, "reported")  # a player reports while the organizer edits
    before = _pairs(rnd)
    with pytest.raises(Conflict) as stale:
        pairing_edits.edit_pairing(rnd, by=Staff(organizer), pairs=_swap_tables_2_and_3(before), version=seen)
    now = pairing_edits.pairing_state(rnd)
    assert stale.value.problem.code == "pairings-changed-results"
    assert stale.value.problem.params == {"version": now.version, "tables": "1"}
    assert now.version != seen and _pairs(rnd) == before


def test_an_edit_after_another_edit_is_stale(organizer: User) -> None:
    event, rnd = _round(organizer)
    seen = pairing_edits.pairing_state(rnd).version
    pairs = _pairs(rnd)
    pairing_edits.edit_pairing(rnd, by=Staff(organizer), pairs=_swap_tables_2_and_3(pairs), version=seen)
    with pytest.raises(Conflict) as stale:
        pairing_edits.edit_pairing(rnd, by=Staff(organizer), pairs=pairs, version=seen)
    assert stale.value.problem.code == "pairings-changed"


def test_a_stale_edit_page_shows_the_current_state_and_applies_nothing(organizer: User, client: Client) -> None:
    event, rnd = _round(organizer)
    seen = pairing_edits.pairing_state(rnd).version
    post = {"version": seen}
    for m, (a, b) in zip(_tables(rnd), _swap_tables_2_and_3(_pairs(rnd)), strict=True):
        post[f"a-{m.pk}"], post[f"b-{m.pk}"] = str(a), str(b or "")
    _result_in(rnd, organizer, "confirmed")
    before = _pairs(rnd)
    client.force_login(organizer)
    page = client.post(f"/events/{event.pk}/rounds/1/edit/", post).content.decode()
    assert "この画面を開いた後に" in page and "いま結果が入っている卓: 1" in page
    assert 'id="kept-1"' in page  # the page is drawn from the current tables
    assert _pairs(rnd) == before


# --- finding 3b: a re-pair was confirmed, then refused with the wrong reason ------------------------------


def test_a_repair_with_a_result_in_is_refused_for_that_reason(organizer: User) -> None:
    event, rnd = _round(organizer)
    _result_in(rnd, organizer, "reported")
    assert rnd.started_at is None  # the round's clock never started: "already started" is not the reason
    with pytest.raises(ServiceError) as refused:
        pairing_edits.repair_round(rnd, by=Staff(organizer))
    assert refused.value.problem.code == "repair-result-in"
    assert refused.value.problem.params == {"tables": "1"}
    refusal = pairing_edits.repair_refusal(rnd)
    assert refusal is not None and refusal.problem == refused.value.problem


def test_the_repair_page_asks_only_when_the_repair_can_happen(organizer: User, client: Client) -> None:
    event, rnd = _round(organizer)
    client.force_login(organizer)
    url = f"/events/{event.pk}/rounds/1/repair/"
    ask = client.post(url).content.decode()
    assert 'id="confirm-yes"' in ask and pairing_edits.pairing_state(rnd).version in ask
    _result_in(rnd, organizer, "confirmed")
    refused = client.post(url, follow=True).content.decode()
    assert 'id="confirm-yes"' not in refused
    assert "結果が入っている卓があるため組み直せません（1番卓）" in refused
    assert "すでに始まっています" not in refused
    round_page = client.get(f"/events/{event.pk}/rounds/1/").content.decode()
    assert 'id="pair-again"' not in round_page and 'id="repair-refused"' in round_page


def test_a_repair_confirmed_on_a_stale_page_is_refused_and_changes_nothing(organizer: User, client: Client) -> None:
    event, rnd = _round(organizer)
    seen = pairing_edits.pairing_state(rnd).version
    pairing_edits.edit_pairing(
        rnd, by=Staff(organizer), pairs=_swap_tables_2_and_3(_pairs(rnd)), version=seen
    )  # someone else edits after the confirmation page was shown
    client.force_login(organizer)
    answer = client.post(f"/events/{event.pk}/rounds/1/repair/", {"confirm": "yes", "version": seen}, follow=True)
    assert "この画面を開いた後に" in answer.content.decode()
    assert Round.objects.filter(pk=rnd.pk).exists()


def test_a_repair_on_the_version_seen_pairs_again_and_keeps_the_version_rising(organizer: User) -> None:
    event, rnd = _round(organizer)
    seen = pairing_edits.pairing_state(rnd)
    new = pairing_edits.repair_round(rnd, by=Staff(organizer), version=seen.version)
    assert new.number == 1 and new.version > rnd.version
    assert pairing_edits.pairing_state(new).version != seen.version


def test_a_top_cut_round_is_not_paired_again_and_says_why(organizer: User) -> None:
    event = make_event(organizer, 4, format=Event.Format.SWISS_CUT, top_cut=2, swiss_rounds=1)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    for m in rnd.matches.filter(is_bye=False):
        result_services.enter_result(m, by=Staff(organizer), result=A_WINS)
    cut = round_services.pair_next_round(event, by=Staff(organizer))
    assert cut.stage != Round.Stage.SWISS
    with pytest.raises(ServiceError) as refused:
        pairing_edits.repair_round(cut, by=Staff(organizer))
    assert refused.value.problem.code == "repair-not-swiss"


# --- an edit and a report at the same moment -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_an_edit_and_a_report_at_once_never_lose_the_report(organizer: User, attempt: int) -> None:
    from tests.security.test_concurrency import at_once

    event, rnd = _round(organizer)
    seen = pairing_edits.pairing_state(rnd).version
    pairs = _swap_tables_2_and_3(_pairs(rnd))
    table2 = _tables(rnd)[1]

    def edit() -> Round:
        return pairing_edits.edit_pairing(Round.objects.get(pk=rnd.pk), by=Staff(organizer), pairs=pairs, version=seen)

    on_the_phone = Match.objects.get(pk=table2.pk)  # the table as the player's page read it, before either write

    def report() -> Match:
        return result_services.report_result(on_the_phone, player=table2.player_a, result=A_WINS)

    edited, reported = at_once(edit, report)
    if isinstance(reported, Match):  # the report landed first: the edit was made on a stale version
        assert isinstance(edited, Conflict), edited
        assert Match.objects.get(pk=table2.pk).status == Match.Status.REPORTED
    else:  # the edit landed first: the report finds its table gone, says so and stores nothing
        assert isinstance(edited, Round), edited
        assert isinstance(reported, Conflict) and reported.problem.code == "table-gone", reported
    assert all(r.match.status != Match.Status.PENDING for r in ResultReport.objects.select_related("match"))
