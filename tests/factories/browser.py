"""What browser tests share: the Chromium to drive, the viewports, the pages' types, and screenshots kept as
artifacts."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, cast

from playwright.sync_api import Page, ViewportSize

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
# How long an expect() waits for a page to show something (Playwright's default is 5 s; actions wait 10 s).
BROWSER_WAIT_MS = 10_000
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = ViewportSize(width=390, height=844)
PROJECTOR = ViewportSize(width=1920, height=1080)


class SitePage(Page):
    """A Playwright page that knows the address of the server it was opened on: ``f"{page.base_url}/login/"``.

    Only a type: the pages are Playwright's own, given ``base_url`` by ``on_server``.
    """

    base_url: str


def on_server(page: Page, url: str) -> SitePage:
    """``page``, told the address of the server it browses."""
    site = cast(SitePage, page)
    site.base_url = url
    return site


class NewPage(Protocol):
    """The ``new_page`` fixture: a page in a fresh browser context on pytest-django's live server."""

    def __call__(self, viewport: ViewportSize | None = None, locale: str = "ja-JP") -> SitePage: ...


class VenuePage(Protocol):
    """The ``venue_page`` fixture: a page in a fresh browser context on the venue server (``venue``)."""

    def __call__(
        self, viewport: ViewportSize | None = None, locale: str = "ja-JP", session: str | None = None
    ) -> SitePage: ...


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
