"""Public pages are cached whole, yet never stale: each cache key names what the page shows."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.services import pairing_edits
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def test_standings_page_changes_with_the_next_result(organizer: User) -> None:
    event = make_event(organizer, 4)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    anonymous = Client()
    first = anonymous.get(f"/e/{event.pk}/standings/")
    assert first.status_code == 200 and "X-Taikai-Cache" not in first
    again = anonymous.get(f"/e/{event.pk}/standings/")
    assert again["X-Taikai-Cache"] == "hit" and again.content == first.content
    m = rnd.matches.order_by("table").first()
    result_services.enter_result(m, by=Staff(organizer), result=ResultInput(({"winner": "A"}, {"winner": "A"})))
    after = anonymous.get(f"/e/{event.pk}/standings/")
    assert "X-Taikai-Cache" not in after
    assert f'<td class="num">{event.ruleset.scoring.win}</td>' in after.content.decode()


def test_pairings_page_follows_a_hand_edit_but_not_results(organizer: User) -> None:
    event = make_event(organizer, 4)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    anonymous = Client()
    anonymous.get(f"/e/{event.pk}/pairings/")
    m = rnd.matches.order_by("table").first()
    result_services.enter_result(m, by=Staff(organizer), result=ResultInput(({"winner": "A"}, {"winner": "A"})))
    assert anonymous.get(f"/e/{event.pk}/pairings/")["X-Taikai-Cache"] == "hit"  # results do not show here
    m1, m2 = rnd.matches.order_by("table")
    swapped = [(m1.player_a_id, m2.player_a_id), (m1.player_b_id, m2.player_b_id)]
    rnd.matches.all().delete()  # a fresh round to edit (results were entered on the old tables)
    pairing_edits.edit_pairing(rnd, by=Staff(organizer), pairs=swapped)
    fresh = anonymous.get(f"/e/{event.pk}/pairings/")
    assert "X-Taikai-Cache" not in fresh


def test_staff_always_get_a_fresh_page(organizer: User) -> None:
    event = make_event(organizer, 2)
    round_services.pair_next_round(event, by=Staff(organizer))
    staff = Client()
    staff.force_login(organizer)
    staff.get(f"/e/{event.pk}/standings/")
    assert "X-Taikai-Cache" not in staff.get(f"/e/{event.pk}/standings/")


def test_language_switch_is_a_link_and_pages_are_cached_per_language(organizer: User) -> None:
    event = make_event(organizer, 2)
    anonymous = Client()
    ja = anonymous.get(f"/e/{event.pk}/standings/").content.decode()
    assert "順位" in ja
    response = anonymous.get(f"/language/?language=en&next=/e/{event.pk}/standings/")
    assert response.status_code == 302 and response["Location"] == f"/e/{event.pk}/standings/"
    en = anonymous.get(f"/e/{event.pk}/standings/").content.decode()
    assert "Standings" in en and "順位" not in en.split("</header>")[1]


def test_big_standings_come_in_pages(organizer: User, monkeypatch: pytest.MonkeyPatch) -> None:
    from taikai.events.views import public

    monkeypatch.setattr(public, "STANDINGS_PAGE", 3)
    event = make_event(organizer, 8)
    anonymous = Client()
    first = anonymous.get(f"/e/{event.pk}/standings/").content.decode()
    second = anonymous.get(f"/e/{event.pk}/standings/?page=2").content.decode()
    assert first.count("<tr") == 1 + 3 and second.count("<tr") == 1 + 3
    assert "?page=3" in first
    assert anonymous.get(f"/e/{event.pk}/standings/?page=x").status_code == 200  # a bad page is page 1


def test_player_page_reminds_to_start_from_the_registered_deck(organizer: User) -> None:
    # DECK-10 (guide): each match starts from the registered deck; DECK-11: counts stay the same between duels
    from taikai.events.services import links

    event = make_event(organizer, 2)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    player = rnd.matches.get().player_a
    token = links.issue_access(player, by=Staff(organizer))
    page = Client().get(f"/p/{token}/").content.decode()
    assert "1デュエル目の前のサイドチェンジはできません" in page
