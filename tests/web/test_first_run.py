"""The organizer never needs a manual to start (issue 24, item 17): the dashboard's first-run checklist ticks each
step from what the site holds and links where it is done; the card data page is linked from the dashboard and the
deck pages; the event form offers the imported F/L lists, warns about a date or a deck deadline already past, and
its ruleset picker says what each ruleset forbids and changes, from the ruleset data."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from taikai.cards.models import Banlist, Card
from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import events as event_services
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def _get(client: Client, url: str, lang: str = "ja") -> str:
    client.cookies.load({"taikai_language": lang})
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _step(html: str, key: str) -> str:
    found = re.search(rf'<li class="(done|todo)" id="step-{key}">(.*?)</li>', html, re.S)
    assert found, key
    return found.group(1) + " " + found.group(2)


def test_an_empty_site_shows_four_steps_to_do_each_with_its_page(client: Client, organizer: User) -> None:
    client.force_login(organizer)
    html = _get(client, "/")
    assert 'id="first-run"' in html
    assert _step(html, "cards").startswith("todo") and 'href="/cards/import/"' in _step(html, "cards")
    assert _step(html, "banlist").startswith("todo") and 'href="/cards/import/"' in _step(html, "banlist")
    assert _step(html, "ruleset").startswith("todo") and 'href="/events/new/"' in _step(html, "ruleset")
    assert _step(html, "staff").startswith("todo") and "href" not in _step(html, "staff")  # no event to staff yet
    assert 'id="card-data-link"' in html  # the card data page, from the dashboard


def test_each_step_is_ticked_by_what_the_site_holds(client: Client, organizer: User) -> None:
    client.force_login(organizer)
    Card.objects.create(passcode=14558127, name_ja="灰流うらら", name_en="Ash Blossom & Joyous Spring", type=0x21)
    html = _get(client, "/")
    assert _step(html, "cards").startswith("done") and "1 枚" in _step(html, "cards")
    assert _step(html, "banlist").startswith("todo")
    Banlist.objects.create(name="2026.10 OCG")
    event = make_event(organizer, 0)
    html = _get(client, "/")
    assert _step(html, "banlist").startswith("done") and "2026.10 OCG" in _step(html, "banlist")
    assert _step(html, "ruleset").startswith("done") and "harajuku-cs-1.2" in _step(html, "ruleset")
    assert f'href="/events/{event.pk}/staff/"' in _step(html, "staff") and _step(html, "staff").startswith("todo")
    event_services.add_staff(event, by=Staff(organizer), username="hj", role="head_judge", password="pw-123456789")
    assert 'id="first-run"' not in _get(client, "/")  # all done: the checklist goes


def test_the_deck_pages_link_the_card_data_page(client: Client, organizer: User) -> None:
    event = make_event(organizer, 2)
    client.force_login(organizer)
    assert 'href="/cards/import/"' in _get(client, f"/events/{event.pk}/decks/")
    player = event.players.first()
    assert player is not None
    assert 'href="/cards/import/"' in _get(client, f"/events/{event.pk}/decks/{player.pk}/")


def test_the_event_form_offers_the_imported_f_l_lists(client: Client, organizer: User) -> None:
    client.force_login(organizer)
    html = _get(client, "/events/new/")
    assert 'id="no-banlists"' in html and 'href="/cards/import/"' in html
    Banlist.objects.create(name="2026.10 OCG")
    Banlist.objects.create(name="2026.07 OCG")
    Banlist.objects.create(name="event copy", frozen=True)  # an event's own frozen copy is not offered
    html = _get(client, "/events/new/")
    select = html[html.index('name="banlist_name"') : html.index("</select>", html.index('name="banlist_name"'))]
    assert "2026.10 OCG" in select and "2026.07 OCG" in select and "event copy" not in select
    assert 'id="no-banlists"' not in html


def test_deck_1_the_ruleset_picker_says_what_each_forbids_and_changes(client: Client, organizer: User) -> None:
    client.force_login(organizer)
    html = _get(client, "/events/new/")
    picker = html[html.index('id="ruleset-picker"') : html.index("</fieldset>")]
    options = dict(re.findall(r'value="([\w.-]+)"[^>]*>(.*?)</label>', picker, re.S))
    assert "リンクモンスターは使えません" in options["harajuku-cs-1.2"]  # DECK-2: its extra deck has no Link
    assert (
        "dkt-2011 との違い" in options["harajuku-cs-1.2"]
        and "ヘッドジャッジだけが出せる罰則" in options["harajuku-cs-1.2"]
    )
    assert "リンクモンスターは使えません" not in options["modern"]
    assert (
        "対戦時間（分）: 40 → 45" in options["modern"]
        and "エクストラデッキのモンスター: リンク を追加" in options["modern"]
    )
    english = _get(client, "/events/new/", "en")
    assert "No Link monsters" in english and "Match time (minutes): 40 → 45" in english


def _post(client: Client, **fields: str) -> Any:
    data = {"name": "冬のCS", "date": "2026-12-20", "ruleset_name": "harajuku-cs-1.2", "format": "swiss"} | fields
    return client.post("/events/new/", data)


def test_a_past_date_or_deadline_is_warned_about_until_the_organizer_accepts(client: Client, organizer: User) -> None:
    client.force_login(organizer)
    client.cookies.load({"taikai_language": "ja"})
    yesterday = (timezone.localdate() - dt.timedelta(days=1)).isoformat()
    response = _post(client, date=yesterday)
    assert response.status_code == 200 and "すでに過ぎています" in response.content.decode()
    assert not Event.objects.exists()
    past = (timezone.localtime() - dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    future = (timezone.localdate() + dt.timedelta(days=3)).isoformat()
    response = _post(client, date=future, deck_deadline=past)
    assert "デッキリストの締め切り" in response.content.decode() and not Event.objects.exists()
    assert _post(client, date=yesterday, accept_warnings="yes").status_code == 302
    assert Event.objects.get().date.isoformat() == yesterday


def test_the_api_may_still_name_a_list_not_imported_yet(organizer: User) -> None:
    from taikai.events.forms import EventForm

    data = {"name": "春のCS", "date": "2027-03-01", "ruleset_name": "harajuku-cs-1.2", "format": "swiss"}
    form = EventForm(data={**data, "banlist_name": "2027.01 OCG"})
    assert form.is_valid() and form.cleaned_data["banlist_name"] == "2027.01 OCG"
    assert not EventForm(data={**data, "banlist_name": "x" * 101}).is_valid()
