"""Offline at the venue: no page needs anything from the internet (no CDN, no web fonts, no remote images)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

import taikai
from tests.factories import World
from tests.security.routes import routes
from tests.security.test_permissions import values

pytestmark = pytest.mark.django_db

# src/href/action/poster/srcset attributes, CSS url(...) and @import, and JavaScript fetch/import of a URL
REFERENCE = re.compile(
    r"""(?:\b(?:src|href|action|poster|srcset|data-[\w-]*url)\s*=\s*["']?|url\(\s*["']?|@import\s+["']|"""
    r"""\bfetch\(\s*["'`]|\bimport\s*\(\s*["'`]|\bfrom\s+["'])(?P<url>(?:https?:)?//[^"'\s)>]+)""",
    re.I,
)
LOCAL = ("//testserver", "http://testserver", "https://testserver")


def external_references(text: str) -> list[str]:
    return [m.group("url") for m in REFERENCE.finditer(text) if not m.group("url").startswith(LOCAL)]


def test_the_pattern_finds_what_it_should() -> None:
    page = (
        '<link href="https://fonts.googleapis.com/css"><script src="//cdn.example/x.js"></script>'
        "<style>@import 'https://x.example/y.css'; b{background:url(http://img.example/a.png)}</style>"
        '<a href="/e/1/">ok</a><img src="/static/a.png"><a href="http://testserver/e/1/">self</a>'
    )
    assert external_references(page) == [
        "https://fonts.googleapis.com/css",
        "//cdn.example/x.js",
        "https://x.example/y.css",
        "http://img.example/a.png",
    ]


def test_every_public_and_player_page_loads_nothing_from_another_host(world: World) -> None:
    v = values(world)
    client = Client(raise_request_exception=False)
    pages = [r for r in routes("public", "player", "site") if r.name not in ("logout", "set_language")]
    pages += [r for r in routes("api") if r.name in ("api_docs", "api-root")]
    seen, found = 0, []
    for route in pages:
        for query in ("", "?order=kana", "?print=1"):
            response = client.get(route.url(v) + query)
            if response.status_code != 200 or getattr(response, "streaming", False):
                continue
            seen += 1
            found += [(route.route, url) for url in external_references(response.content.decode(errors="replace"))]
    assert seen >= 15
    assert found == []


def test_static_files_and_templates_reference_no_other_host() -> None:
    root = Path(taikai.__file__).parent
    found: list[tuple[str, str]] = []
    for path in root.rglob("*"):
        if path.suffix in (".css", ".js", ".html", ".svg") and path.is_file():
            found += [
                (str(path.relative_to(root)), url) for url in external_references(path.read_text(errors="replace"))
            ]
    # xmlns and other identifiers are not fetched; they never appear as src/href/url() targets above
    assert found == []


def test_the_projector_and_clock_work_from_the_local_server_only(world: World, client: Client) -> None:
    page = client.get(f"/e/{world.event.pk}/projector/").content.decode()
    assert "/static/taikai/clock.js" in page and f"/e/{world.event.pk}/clock.json" in page
    clock = client.get(f"/e/{world.event.pk}/clock.json").json()
    assert clock["round"] == 1 and clock["status"] in ("running", "time", "paused")
