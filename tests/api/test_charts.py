"""Charts (SVG from the server) and the organizer's report, looked at in a real browser."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from taikai.api import charts
from taikai.events.models import Event
from tests.factories import PHONE, NewPage, played_event, screenshot


def test_each_chart_is_well_formed_svg_with_the_events_facts(organizer: User, client: Client) -> None:
    event = played_event(organizer)
    for name in ("metagame", "paths", "attendance", "bracket"):
        r = client.get(f"/e/{event.pk}/charts/{name}.svg", headers={"Accept-Language": "en"})
        assert r.status_code == 200 and r["Content-Type"].startswith("image/svg+xml")
        ET.fromstring(r.content)  # parses as XML
    bars = {b.name: b for b in charts.metagame_bars(event)}
    assert bars["スネークアイ"].players == 3 and float(bars["スネークアイ"].share) == 3 / 8
    assert sum(b.top_cut for b in bars.values()) == 4
    attendance = charts.attendance_rows(event)
    assert [r.playing for r in attendance][:2] == [8, 7]  # one drop after round 1
    assert attendance[0].dropped == 1
    _entrants, paths = charts.rank_paths(event)
    assert all(len(p) == 3 for p in paths.values())


def test_the_report_has_winners_standings_metagame_and_timings(organizer: User, client: Client) -> None:
    event = played_event(organizer)
    client.force_login(organizer)
    html = client.get(f"/events/{event.pk}/report/").content.decode()
    for text in ("入賞者", "最終順位", "メタゲーム", "ラウンドごとの時間", "<svg"):
        assert text in html, text


def test_the_report_is_for_staff_only(organizer: User, client: Client) -> None:
    event = played_event(organizer, 4)
    assert client.get(f"/events/{event.pk}/report/").status_code == 302  # to the log-in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_charts_and_report_render_in_a_browser(new_page: NewPage, organizer: User) -> None:
    event = played_event(organizer)
    page = new_page(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    page.goto(f"{page.base_url}/e/{event.pk}/charts/")
    for name in ("metagame", "paths", "attendance", "bracket"):
        box = page.locator(f"#chart-{name} svg").locator("visible=true").bounding_box()
        assert box and box["width"] > 300 and box["height"] > 150, name
    assert page.locator("#chart-metagame svg text", has_text="スネークアイ").locator("visible=true").count() == 1
    screenshot(page, "api-charts-desktop")
    phone = new_page(viewport=PHONE, locale="ja-JP")
    phone.goto(f"{page.base_url}/e/{event.pk}/charts/")
    # On a phone each chart is drawn for the phone's width: neither the page nor a chart scrolls sideways.
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert phone.locator("#chart-metagame").evaluate("el => el.scrollWidth <= el.clientWidth")
    screenshot(phone, "api-charts-phone")
    staff = Client()
    staff.force_login(organizer)
    report = new_page(viewport={"width": 1000, "height": 1400}, locale="ja-JP")
    report.context.add_cookies([{"name": "sessionid", "value": staff.cookies["sessionid"].value, "url": page.base_url}])
    report.goto(f"{page.base_url}/events/{event.pk}/report/")
    assert report.locator("h1").inner_text() == event.name
    screenshot(report, "api-report")


@pytest.mark.browser
def test_the_report_prints_to_pdf_offline(organizer: User, tmp_path: Path) -> None:
    from django.core.management import call_command

    event = played_event(organizer, 4)
    out = tmp_path / "report.pdf"
    call_command("report", event.pk, pdf=out, html=tmp_path / "report.html", lang="en", stdout=io.StringIO())
    assert out.read_bytes().startswith(b"%PDF") and out.stat().st_size > 10_000
    assert "Final standings (Swiss)" in (tmp_path / "report.html").read_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_api_docs_work_offline_in_a_browser(new_page: NewPage) -> None:
    page = new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    outside = []
    page.on("request", lambda req: outside.append(req.url) if not req.url.startswith(page.base_url) else None)
    page.goto(f"{page.base_url}/api/v1/docs")
    page.wait_for_selector(".opblock", timeout=10_000)
    assert page.locator(".opblock").count() >= 16
    assert not outside, outside
    screenshot(page, "api-docs")


def test_declared_archetypes_are_public_only_once_the_event_has_finished(organizer: User, client: Client) -> None:
    # Issue 16: while the event runs, a public read must not tell a player what deck their opponent registered.
    event = played_event(organizer)
    assert event.status == Event.Status.FINISHED
    names = {p["archetype"] for p in client.get(f"/api/v1/events/{event.pk}/players").json()["items"]}
    assert "スネークアイ" in names
    assert client.get(f"/e/{event.pk}/charts/metagame.svg").status_code == 200
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    cache.clear()
    names = {p["archetype"] for p in client.get(f"/api/v1/events/{event.pk}/players").json()["items"]}
    assert names == {None}
    assert client.get(f"/e/{event.pk}/charts/metagame.svg").status_code == 404
    assert "chart-metagame" not in client.get(f"/e/{event.pk}/charts/").content.decode()
