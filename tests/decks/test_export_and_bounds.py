"""Decks out (.ydk, ydke://, Omega code, text sheet; one zip for the event) and hostile input (issue 15)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from taikai import messages
from taikai.cards.formats import read_text_sheet, read_ydk, read_ydke
from taikai.cards.index import DbCardIndex
from taikai.cards.services import resolve_deck_text
from taikai.cli import main
from taikai.decks import services
from taikai.decks.demo import LEGAL_SHEET
from taikai.decks.models import DeckRegistration
from taikai.decks.services import DeckInput
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.services import links
from tests.factories import SAMPLE_TEXT, accepted

pytestmark = pytest.mark.django_db


def _register_two(event: Event, organizer: User) -> list[DeckRegistration]:
    players = list(event.players.order_by("id")[:2])
    return [
        accepted(services.submit_deck(players[0], DeckInput(text=SAMPLE_TEXT), by=PlayerSelf(players[0]))),
        accepted(services.submit_deck(players[1], DeckInput(text=LEGAL_SHEET), by=Staff(organizer))),
    ]


def test_the_player_downloads_their_deck_in_each_format(
    client: Client, event: Event, organizer: User, real_cards: None
) -> None:
    reg, _ = _register_two(event, organizer)
    token = links.issue_access(reg.player, by=Staff(organizer))
    page = client.get(f"/p/{token}/deck/").content.decode()
    assert f"/p/{token}/deck/export/ydk/" in page
    ydk = client.get(f"/p/{token}/deck/export/ydk/")
    assert ydk.status_code == 200 and "attachment" in ydk["Content-Disposition"]
    assert read_ydk(ydk.content.decode()) == reg.deck  # YGOPro and EDOPro load it
    assert read_ydke(client.get(f"/p/{token}/deck/export/ydke/").content.decode()) == reg.deck
    sheet = client.get(f"/p/{token}/deck/export/sheet/").content.decode()
    assert "メインデッキ (40)" in sheet
    assert read_text_sheet(sheet, DbCardIndex()).deck.counts() == reg.deck.counts()
    assert client.get(f"/p/{token}/deck/export/zip/").status_code == 404


def test_the_organizer_downloads_every_deck_as_one_zip(
    client: Client, event: Event, organizer: User, real_cards: None
) -> None:
    regs = _register_two(event, organizer)
    assert client.get(f"/events/{event.pk}/decks/export.zip").status_code in (302, 403)  # not signed in
    client.force_login(organizer)
    assert f"/events/{event.pk}/decks/export.zip" in client.get(f"/events/{event.pk}/decks/").content.decode()
    response = client.get(f"/events/{event.pk}/decks/export.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = sorted(archive.namelist())
    assert len(names) == 8 and all(n.split("/")[0] in ("ydk", "ydke", "omega", "sheet") for n in names)
    ydks = [n for n in names if n.startswith("ydk/")]
    assert sorted(read_ydk(archive.read(n).decode()).counts()["main"] for n in ydks) == [40, 40]
    assert {r.player.name for r in regs} <= {n.split("-", 1)[1].removesuffix(".ydk") for n in ydks}


def test_taikai_deck_export_writes_one_deck_or_the_zip(
    capsys: pytest.CaptureFixture[str], event: Event, organizer: User, real_cards: None, tmp_path: Path
) -> None:
    reg, _ = _register_two(event, organizer)
    assert main(["deck", "export", str(event.pk), "--player", str(reg.player_id), "--format", "ydke"]) == 0
    assert read_ydke(capsys.readouterr().out) == reg.deck
    target = tmp_path / "decks.zip"
    assert main(["deck", "export", str(event.pk), "--out", str(target)]) == 0
    assert len(zipfile.ZipFile(target).namelist()) == 8
    assert main(["deck", "export", str(event.pk), "--player", "999999"]) == 2


def test_a_list_of_unknown_names_is_read_before_the_write_transaction(
    event: Event, real_cards: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    depth: list[int] = []
    real = resolve_deck_text

    def spy(*args: Any, **kwargs: Any) -> Any:
        depth.append(len(connection.savepoint_ids))
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "resolve_deck_text", spy)
    outside = len(connection.savepoint_ids)
    player = event.players.first()
    services.submit_deck(player, DeckInput(text="\n".join(f"ないカード{i}" for i in range(50))), by=PlayerSelf(player))
    assert depth == [outside]  # names were resolved with no transaction of the service open


def test_a_list_longer_than_any_deck_is_refused_and_nothing_is_written(event: Event, real_cards: None) -> None:
    player = event.players.first()
    text = "\n".join(f"ないカード{i}" for i in range(1500))
    with pytest.raises(ServiceError) as caught:
        services.submit_deck(player, DeckInput(text=text), by=PlayerSelf(player))
    assert (caught.value.problem.code, caught.value.problem.params["line"]) == ("deck-too-many-lines", 201)
    assert "1 つのデッキリストだけ" in messages.text(caught.value.problem, "ja")
    assert not DeckRegistration.objects.exists()
