"""The result form through the services: read by core.match_json, mirrored for player B, errors as codes."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Match
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_form import form_values, result_form
from taikai.events.services.result_input import ResultInput
from taikai.events.texts import problem_text
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def _match(organizer: User) -> Match:
    event = make_event(organizer, 2)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    return rnd.matches.select_related("round__event", "player_a", "player_b").get()


def test_player_b_reports_from_their_side_and_it_is_stored_as_a_and_b(organizer: User) -> None:
    match = _match(organizer)
    # On B's phone "me" is B: "me" won duel 1, the opponent duel 2, and "me" had more LP when time ran out in duel 3.
    form = {"duel1": "A", "duel2": "B", "duel3": "time", "duel3_lp_a": "3000", "duel3_lp_b": "1000"}
    result_services.report_result(match, player=match.player_b, result=ResultInput.from_post(form, flip=True))
    match.refresh_from_db()
    assert match.record["duels"] == [{"winner": "B"}, {"winner": "A"}, {"time": {"A": 1000, "B": 3000}}]
    assert (match.result, match.duel_wins_a, match.duel_wins_b) == ("b", 1, 2)
    # A confirms with the same match seen from A's side: no dispute.
    mirrored = form_values(match.record)
    result_services.report_result(match, player=match.player_a, result=ResultInput.from_post(mirrored))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def test_the_same_report_spelled_differently_still_confirms(organizer: User) -> None:
    match = _match(organizer)
    spelled = ResultInput.from_json({"duels": [{"winner": "A", "time_called": False}, {"winner": "A"}]})
    result_services.report_result(match, player=match.player_a, result=spelled)
    plain = ResultInput.from_post({"duel1": "A", "duel2": "A"})
    result_services.report_result(match, player=match.player_b, result=plain)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED  # END-4


def test_a_form_error_is_a_code_with_the_duel_and_reads_as_a_sentence_for_the_person() -> None:
    with pytest.raises(ServiceError) as caught:
        ResultInput.from_post({"duel1": "A", "duel2": "time", "duel2_lp_a": "800"})
    assert (caught.value.problem.code, caught.value.problem.params) == ("form-lp-missing", {"duel": 2})
    with translation.override("en"):
        en = problem_text(caught.value.problem)
    with translation.override("ja"):
        ja = problem_text(caught.value.problem)
    assert en.startswith("Duel 2: ") and "life points" in en and "lp_a" not in en
    assert ja.startswith("2デュエル目: ") and "ライフポイント" in ja


def test_the_result_form_offers_the_rows_of_the_ruleset(organizer: User) -> None:
    match = _match(organizer)
    form = result_form(match)
    max_duels = match.round.event.ruleset.match.max_duels
    assert [r.number for r in form.rows] == list(range(1, max_duels + 1))  # MATCH-1; Swiss has no extra duel
    assert form.intentional_draw  # END-2
    assert form.extra_turns == match.round.event.ruleset.time.extra_turns


def test_match_3_the_staff_form_records_who_won_rock_paper_scissors_and_went_first(organizer: User) -> None:
    # MATCH-3: the slip's rock-paper-scissors winner and the player who went first in duel 1 are kept
    from django.test import Client

    match = _match(organizer)
    client = Client()
    client.force_login(organizer)
    url = f"/events/{match.round.event_id}/matches/{match.pk}/result/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'name="rps_winner"' in page and "1デュエル目の先攻" in page
    posted = client.post(url, {"duel1": "A", "duel2": "A", "basis": "played", "rps_winner": "B", "first": "A"})
    assert posted.status_code in (200, 302)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert match.record["opening"] == {"rps_winner": "B", "first": "A"}


def test_match_3_the_players_phone_form_offers_the_opening_from_their_side(organizer: User) -> None:
    # MATCH-3, from B's phone: "me" won rock-paper-scissors and the opponent went first
    match = _match(organizer)
    form = {"duel1": "A", "duel2": "A", "rps_winner": "A", "first": "B"}
    result_services.report_result(match, player=match.player_b, result=ResultInput.from_post(form, flip=True))
    match.refresh_from_db()
    assert match.record["opening"] == {"rps_winner": "B", "first": "A"}
