"""The page for a write refused because the disk is full (issue 16), in the visitor's language.

A view whose write fails for lack of space (taikai.security.diskfull) raises out of its transaction, which
has rolled back whole. ``DiskFullMiddleware`` turns that into this page: HTTP 507 Insufficient Storage, what
happened (nothing was saved, pages can still be read), and for signed-in staff what to do (free space; where
the data folder and the database are, and how much room is left there). A failure outside a view (another
middleware's write, an upload spooled to a full temp folder) reaches Django's 500 handler, ``server_error``
here, which answers the same page and leaves other errors to Django's own 500 page.
The API answers in its own error shape (taikai.api.base), the command line with one line (taikai.cli).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import defaults

from taikai.security import diskfull
from taikai.web.middleware import choose_language


def _back(request: HttpRequest) -> str:
    """Where "Back" goes: the page the form was on (this site only), else the page itself for a read."""
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}):
        return referer
    return request.get_full_path() if request.method in ("GET", "HEAD") else "/"


def _is_staff(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    try:
        return bool(user is not None and user.is_authenticated)
    except Exception:  # the session could not be read: show the page without the staff part
        return False


def disk_full_response(request: HttpRequest, exc: BaseException) -> HttpResponse:
    diskfull.report(exc, f"{request.method} {request.path}")
    language = getattr(request, "LANGUAGE_CODE", None) or choose_language(request)
    with translation.override(language):
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(diskfull.api_body(language), status=diskfull.STATUS)
        else:
            place = diskfull.storage()
            context = {
                "staff": _is_staff(request),
                "storage": place,
                "free": diskfull.megabytes(place.free_bytes),
                "back": _back(request),
            }
            response = render(request, "disk_full.html", context, status=diskfull.STATUS)
    response.headers.setdefault("Content-Language", language)
    response["Cache-Control"] = "no-store"
    response._has_been_logged = True  # type: ignore[attr-defined]  # reported above, once, not as a 500
    return response


class DiskFullMiddleware:
    """A view's write refused for lack of space becomes the disk-full page instead of a server error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        return disk_full_response(request, exc) if diskfull.is_disk_full(exc) else None


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the disk-full page when that is what failed, else Django's 500 page."""
    exc = sys.exc_info()[1]
    if exc is not None and diskfull.is_disk_full(exc):
        return disk_full_response(request, exc)
    return defaults.server_error(request)
