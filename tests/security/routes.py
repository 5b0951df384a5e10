"""Every URL the project serves, read from the URL resolver, with its parameters filled for a test event.

New apps (judging, decks, ...) are picked up as soon as their URLs are included: the permission, CSRF and
crawler tests walk this list rather than a hand-written one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>")


@dataclass(frozen=True)
class Route:
    route: str  # e.g. "events/<int:event_id>/players/"
    name: str

    @property
    def params(self) -> list[str]:
        return [m.group("name") for m in PARAM.finditer(self.route)]

    @property
    def kind(self) -> str:
        r = self.route
        if r.startswith("api/"):
            return "api"
        if r.startswith("p/<"):
            return "player"
        if r.startswith("e/<"):
            return "public"
        if r.startswith("events/<int:event_id>/"):
            return "staff"
        if r.startswith(("events/", "cards/")):
            return "account"
        return "site"

    def url(self, values: dict[str, Any]) -> str:
        def fill(m: re.Match[str]) -> str:
            name = m.group("name")
            if name in values:
                return str(values[name])
            return "1" if (m.group("conv") or "str") == "int" else "x"

        return "/" + PARAM.sub(fill, self.route)


def _walk(patterns: list[Any], prefix: str = "") -> list[Route]:
    found: list[Route] = []
    for p in patterns:
        text = str(p.pattern)
        if isinstance(p, URLResolver):
            found.extend(_walk(p.url_patterns, prefix + text))
        elif isinstance(p, URLPattern):
            route = prefix + text
            if route.startswith("^") or "(?P" in route:  # regex routes (none today): skipped, named below
                continue
            found.append(Route(route, p.name or ""))
    return found


def all_routes() -> list[Route]:
    return _walk(get_resolver().url_patterns)


def routes(*kinds: str) -> list[Route]:
    return [r for r in all_routes() if r.kind in kinds]
