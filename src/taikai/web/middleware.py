"""Language choice: Japanese unless the person chose English (cookie), or the API caller asks for it."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

SUPPORTED = {code for code, _ in settings.LANGUAGES}


def choose_language(request: HttpRequest) -> str:
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen in SUPPORTED:
        return chosen
    if request.path.startswith("/api/"):
        header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
        for part in header.split(","):
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
        request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        translation.deactivate()
        return response
