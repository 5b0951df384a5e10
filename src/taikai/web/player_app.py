"""The player's page as an installable web app: its manifest and its service worker (offline copy)."""

from __future__ import annotations

from pathlib import Path

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import never_cache

from taikai.events.services import links
from taikai.events.views.player import link_not_found

SERVICE_WORKER = Path(__file__).resolve().parent / "static" / "taikai" / "player-sw.js"


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """Served from /p/ (not /static/) so that it may look after every player page below /p/."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/p/"
    return response


def manifest(request: HttpRequest, token: str) -> HttpResponse:
    player = links.player_for_token(token)
    if player is None:
        return link_not_found(request)
    start = f"/p/{token}/"
    return JsonResponse(
        {
            "name": f"{player.event.name} · taikai",
            "short_name": "taikai",
            "start_url": start,
            "scope": start,
            "display": "standalone",
            "background_color": "#fafafa",
            "theme_color": "#222222",
            "icons": [
                {"src": static("taikai/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
                {"src": static("taikai/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("taikai/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            ],
        },
        content_type="application/manifest+json",
    )
