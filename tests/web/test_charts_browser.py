"""The public charts page on a spectator's phone (390×844) and on the projector (1920×1080), in Japanese: every
chart fits the screen without sideways scrolling, and no label runs out of its picture, overlaps another or
shrinks below legible type."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from taikai.decks.archetypes import set_archetype
from taikai.events.actors import Staff
from taikai.events.models import Event
from tests.factories import PHONE, PROJECTOR, VenuePage, played_event, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_ARCHETYPE = "ホルスの黒炎竜＠イグニスター・ラビュリンス混合ビート"

# Every <text> of every chart the reader sees: its box, the box of its picture, and its size on the screen.
LABELS = """() => [...document.querySelectorAll('.chart svg')].filter(svg => svg.checkVisibility()).flatMap(svg => {
  const box = svg.getBoundingClientRect(), scale = box.width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].map(t => {
    const r = t.getBoundingClientRect();
    return {chart: svg.closest('.chart').id, text: t.textContent, px: t.getAttribute('font-size') * scale,
            box: [r.left, r.top, r.right, r.bottom], svg: [box.left, box.top, box.right, box.bottom]};
  });
})"""


def _event(organizer: User) -> Event:
    """Twelve players over seven archetypes (one with a long Japanese name, two not registered), top 4 played."""
    event = played_event(organizer, 12)
    unregistered = event.players.filter(archetype__isnull=True).order_by("id")
    for player, name in zip(unregistered, (LONG_ARCHETYPE, "ユベル"), strict=False):
        set_archetype(player, name=name, by=Staff(organizer))
    return event


def _overlap(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def _assert_legible(page: Page, smallest_px: float) -> list[dict[str, Any]]:
    labels: list[dict[str, Any]] = page.evaluate(LABELS)
    assert {label["chart"][len("chart-") :] for label in labels} == {"metagame", "paths", "attendance", "bracket"}
    for label in labels:
        (left, top, right, bottom), (s_left, s_top, s_right, s_bottom) = label["box"], label["svg"]
        inside = left >= s_left - 0.5 and right <= s_right + 0.5 and top >= s_top - 0.5 and bottom <= s_bottom + 0.5
        assert inside, label
        assert label["px"] >= smallest_px, label
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            assert not _overlap(a["box"], b["box"]), (a, b)
    return labels


@pytest.mark.parametrize(("lang", "header"), [("ja", "マッチ勝率"), ("en", "Match wins")])
def test_the_charts_fit_a_phone_without_sideways_scrolling(
    venue_page: VenuePage,
    organizer: User,
    lang: str,
    header: str,
) -> None:
    event = _event(organizer)
    page = venue_page(viewport=PHONE, locale="ja-JP")
    page.goto(f"{page.base_url}/e/{event.pk}/charts/")
    if lang == "en":  # the English labels are the longer ones
        page.click("a.lang[lang=en]")
        expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for chart in page.locator(".chart").all():
        assert chart.evaluate("el => el.scrollWidth <= el.clientWidth"), chart.get_attribute("id")
    labels = _assert_legible(page, smallest_px=10)
    shown = " ".join(label["text"] for label in labels if label["chart"] == "chart-metagame")
    assert "ホルスの黒炎竜" in shown and "スネークアイ" in shown and header in shown
    screenshot(page, f"charts-phone-{lang}")


def test_the_charts_stay_legible_on_the_projector(venue_page: VenuePage, organizer: User) -> None:
    event = _event(organizer)
    page = venue_page(viewport=PROJECTOR, locale="ja-JP")
    page.goto(f"{page.base_url}/e/{event.pk}/charts/")
    assert page.evaluate("document.documentElement.scrollWidth") <= PROJECTOR["width"]
    _assert_legible(page, smallest_px=12)
    screenshot(page, "charts-projector-ja")
