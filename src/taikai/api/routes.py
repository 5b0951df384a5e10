"""How a part of the API declares its operations that are called with a token (writes, and the staff's reads)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ninja import Router

from taikai.api.base import TOKEN, WRITE_ERRORS

T = TypeVar("T")


@dataclass(frozen=True)
class SignedInRoutes:
    """The operations of one part of the API that are called with a token: each answers its schema or one of
    ``WRITE_ERRORS`` (a refusal in words), is signed in with ``auth`` (a staff token unless named) and is filed
    under the part's ``tags``. ``@routes.post(path, Out)`` says just what differs."""

    router: Router
    tags: list[str]

    def _route(self, method: str, path: str, out: Any, status: int, auth: Any) -> Callable[[T], T]:
        decorator: Callable[[T], T] = getattr(self.router, method)(
            path, response={status: out, **WRITE_ERRORS}, auth=auth, tags=self.tags
        )
        return decorator

    def get(self, path: str, out: Any, *, status: int = 200, auth: Any = TOKEN) -> Callable[[T], T]:
        return self._route("get", path, out, status, auth)

    def post(self, path: str, out: Any, *, status: int = 200, auth: Any = TOKEN) -> Callable[[T], T]:
        return self._route("post", path, out, status, auth)

    def put(self, path: str, out: Any, *, status: int = 200, auth: Any = TOKEN) -> Callable[[T], T]:
        return self._route("put", path, out, status, auth)

    def delete(self, path: str, out: Any, *, status: int = 200, auth: Any = TOKEN) -> Callable[[T], T]:
        return self._route("delete", path, out, status, auth)
