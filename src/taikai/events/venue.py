"""The venue address: what phones on the venue network open (slips, QR codes, shared links).

The desk's browser may be on the laptop itself (http://127.0.0.1:8000), an address no phone can reach, so
links shared with players never use the request's host when a venue address is known:
TAIKAI_PUBLIC_URL when set, else the LAN address ``taikai serve`` found (TAIKAI_LAN_URL).
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def venue_base(request: HttpRequest) -> str:
    configured: str = getattr(settings, "TAIKAI_PUBLIC_URL", "") or getattr(settings, "TAIKAI_LAN_URL", "")
    return configured or request.build_absolute_uri("/").rstrip("/")


def venue_url(request: HttpRequest, path: str) -> str:
    return venue_base(request) + path


def _loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def browsed_over_loopback(request: HttpRequest) -> bool:
    """The page was opened on the server machine itself (127.0.0.1, localhost, ::1)."""
    host = (
        request.get_host().rsplit(":", 1)[0]
        if not request.get_host().startswith("[")
        else request.get_host().split("]")[0] + "]"
    )
    return _loopback(host)


def venue_known(request: HttpRequest) -> bool:
    """Whether shared links can reach phones: a configured or found address, or a non-loopback host."""
    return bool(getattr(settings, "TAIKAI_PUBLIC_URL", "") or getattr(settings, "TAIKAI_LAN_URL", "")) or not (
        browsed_over_loopback(request)
    )
