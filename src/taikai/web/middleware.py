"""Language choice: Japanese unless the person chose English (cookie), or the API caller asks for it."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation

SUPPORTED = {code for code, _ in settings.LANGUAGES}


def choose_language(request: HttpRequest) -> str:
    return language_for(
        request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME), request.path, request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    )


def language_for(cookie: str | None, path: str, accept_language: str) -> str:
    """One of taikai's languages, from the language cookie, then (the API only) Accept-Language. The refusal
    memory (taikai.security.refusals) keys on this, so a new header on each try is the same request."""
    if cookie is not None and cookie in SUPPORTED:
        return cookie
    if path.startswith("/api/"):
        for part in accept_language.split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in SUPPORTED:
                return code
    return settings.LANGUAGE_CODE


class LanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = choose_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        translation.deactivate()
        return response


LONG_NUMBER = re.compile(r"\d{19,}")


class BoundedIdsMiddleware:
    """An id in a URL has at most 18 digits: a longer one names nothing, and the database would fail to
    compare it (SQLite integers are 64-bit), so it is a 404 before any view runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if LONG_NUMBER.search(request.path):
            raise Http404
        return self.get_response(request)


class RejectNulMiddleware:
    """A NUL character never belongs in a form field or a JSON string, and PostgreSQL refuses to store one:
    answer 400 with a clear message instead of failing later with a server error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._has_nul(request):
            japanese = getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE) == "ja"
            message = (
                "入力に使えない文字（NUL）が含まれています。" if japanese else "The input contains a NUL character."
            )
            if request.path.startswith("/api/"):
                from django.http import JsonResponse

                return JsonResponse({"error": {"code": "nul-character", "message": message, "params": {}}}, status=400)
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    @staticmethod
    def _has_nul(request: HttpRequest) -> bool:
        if any("\x00" in key or "\x00" in value for key, value in request.GET.items()):
            return True
        content_type = request.META.get("CONTENT_TYPE", "")
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return False
        if content_type.startswith("multipart/") or content_type.startswith("application/x-www-form-urlencoded"):
            # uploaded files may be binary; only the form fields are text
            return any("\x00" in key or any("\x00" in v for v in values) for key, values in request.POST.lists())
        if content_type.startswith("application/json"):
            return b"\\u0000" in request.body or b"\x00" in request.body
        return False
