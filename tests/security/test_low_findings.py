"""The low findings of the attack run (issue 16): each reproduced, each refused with a clear answer now."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django import Settings

from taikai.charts.svg import esc
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.services import csv_import, links, recovery, registration, transfer, transfer_import
from tests.factories import World, new_event

pytestmark = pytest.mark.django_db


def test_an_export_holds_no_pin_or_link_hashes_by_default(world: World) -> None:
    player = world.event.players.first()
    assert player is not None
    recovery.set_pin(player, pin="864213")
    client = Client()
    client.force_login(world.organizer)
    exported = client.get(f"/events/{world.event.pk}/export.json").content.decode()
    assert "pin_hash" not in exported and "access_token_hash" not in exported
    assert "pbkdf2" not in exported and "argon2" not in exported
    # The organizer can ask for them, to move a running event with its links.
    with_links = client.get(f"/events/{world.event.pk}/export.json?secrets=1").json()
    assert any(p["pin_hash"] for p in with_links["players"])


def test_a_copy_on_the_same_server_does_not_open_with_the_originals_links(world: World) -> None:
    player = world.event.players.order_by("pk").first()
    assert player is not None
    token = world.token_of(player)
    copy = transfer_import.import_event(
        transfer.export_event(world.event, by=Staff(world.organizer), secrets=True), by=Staff(world.organizer)
    )
    assert links.player_for_token(token) == player  # the original's link opens the original only
    assert not Player.objects.filter(event=copy).exclude(access_token_hash="").exists()
    links.revoke_access(player, by=Staff(world.organizer))
    assert links.player_for_token(token) is None  # revoked stays revoked


def test_the_importer_refuses_an_unknown_staff_role_and_control_characters(world: World) -> None:
    data = transfer.export_event(world.event, by=Staff(world.organizer))
    bad_role = {**data, "staff": [{"username": "judge_a", "role": "overlord"}]}
    before = Event.objects.count()
    with pytest.raises(ServiceError) as refused:
        transfer_import.import_event(bad_role, by=Staff(world.organizer))
    assert refused.value.problem.params == {"part": "staff"}  # the unknown role "overlord"
    nul_name = json.loads(json.dumps(data))
    nul_name["players"][0]["name"] = "悪\x00意"
    with pytest.raises(ServiceError):
        transfer_import.import_event(nul_name, by=Staff(world.organizer))
    assert Event.objects.count() == before  # nothing half-written


def test_a_deeply_nested_file_is_a_clear_refusal_not_a_500(world: World) -> None:
    client = Client()
    client.force_login(world.organizer)
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    answer = client.post("/events/import/", {"file": SimpleUploadedFile("e.json", deep)}, follow=True)
    assert answer.status_code == 200
    assert "JSON" in answer.content.decode()


def test_nul_and_control_characters_in_csv_names_are_refused(world: World) -> None:
    data = "name,card_game_id\n悪\x00意,5000000001\n".encode()
    event = new_event(world.organizer, 0, name="CSV大会")  # before round 1: registration is open
    with pytest.raises(ServiceError) as refused:
        csv_import.import_players_csv(event, by=Staff(world.organizer), data=data)
    assert refused.value.problem.params["problems"][0].params["inner"].code == "bad-characters"
    assert not event.players.filter(card_game_id="5000000001").exists()


def test_card_game_ids_in_other_scripts_digits_become_ascii_and_numerals_are_refused() -> None:
    assert registration.normalize_card_game_id("١٢٣٤٥٦٧٨٩٠") == "1234567890"  # Arabic-Indic
    assert registration.normalize_card_game_id("１２３４-５６７８-９０") == "1234567890"
    with pytest.raises(ServiceError):
        registration.normalize_card_game_id("一二三四五六七八九〇")  # kanji numerals are not digits


def test_a_control_character_in_a_name_cannot_break_an_svg_chart(world: World) -> None:
    assert esc("A\x01B\x1b<c>") == "AB&lt;c&gt;"
    Player.objects.filter(pk=world.event.players.first().pk).update(name="悪\x01意")
    for name in ("standings", "paths"):
        answer = Client().get(f"/e/{world.event.pk}/charts/{name}.svg")
        if answer.status_code == 200:
            assert "\x01" not in answer.content.decode()


@pytest.mark.parametrize(
    "url",
    [
        "/e/{e}/standings/?page=²",
        "/e/{e}/charts/paths.svg?player=²",
        "/e/12345678901234567890/",
        "/e/{e}/standings/?page=12345678901234567890",
        "/events/12345678901234567890/",
        "/api/v1/events/12345678901234567890/",
    ],
)
def test_odd_numbers_in_urls_are_400_or_404_not_500(world: World, url: str) -> None:
    answer = Client(raise_request_exception=False).get(url.format(e=world.event.pk))
    assert answer.status_code in (200, 302, 400, 404), answer.status_code


def test_the_violator_database_names_this_server_by_a_stable_id(settings: Settings) -> None:
    from django.test import RequestFactory

    from taikai.judging.views.penalties import _source

    one = RequestFactory().get("/", HTTP_HOST="laptop.local")
    two = RequestFactory().get("/", HTTP_HOST="192.168.0.5")
    # Before: taikai@laptop.local and taikai@192.168.0.5, so a re-import through the other name doubled
    # every penalty.
    assert _source(one) == _source(two) == f"taikai@{settings.SERVER_ID}"
