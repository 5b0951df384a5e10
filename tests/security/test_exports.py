"""Exports are data, not code and not secrets (issue 16: M5 CSV formula injection)."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from taikai.events.models import Player
from taikai.security.spreadsheet import cell
from tests.factories import World

pytestmark = pytest.mark.django_db
HOSTILE = ['=HYPERLINK("http://evil.example/","1位")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\tTab", "\rCR"]


def _rows(client: Client, url: str) -> list[list[str]]:
    response = client.get(url)
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.parametrize("kind", ["standings", "results"])
def test_names_that_look_like_formulas_are_escaped_in_every_csv(world: World, kind: str) -> None:
    players = list(Player.objects.filter(event=world.event).order_by("pk"))
    for player, name in zip(players, HOSTILE, strict=False):
        Player.objects.filter(pk=player.pk).update(name=name)
    client = Client()
    client.force_login(world.organizer)
    rows = _rows(client, f"/events/{world.event.pk}/{kind}.csv")
    cells = [c for row in rows[1:] for c in row]
    # Before: the names landed raw, and a spreadsheet ran them.
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
    shown = {c for c in cells if c.startswith("'")}
    expected = {"'" + name for name in HOSTILE} if kind == "standings" else set()
    assert expected <= shown
    if kind == "results":
        assert shown  # the paired players' names appear escaped


def test_numbers_and_plain_text_pass_unchanged() -> None:
    assert cell(-3) == -3
    assert cell("山田 太郎") == "山田 太郎"
    assert cell("55.00%") == "55.00%"
    assert cell("-") == "'-"
