"""The NinjaAPI of /api/v1/: JSON errors in the caller's language, ETags, and the two ways to sign in."""

from __future__ import annotations

import hashlib
import logging
import math
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import translation
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import APIKeyHeader, HttpBearer

from taikai.api.schemas import ErrorOut
from taikai.core.problems import Problem
from taikai.events.actors import Actor, PlayerSelf, Staff
from taikai.events.errors import Conflict, PermissionDenied, ServiceError
from taikai.events.models import Event, Player
from taikai.events.services.links import player_for_token
from taikai.events.texts import problem_text
from taikai.security import diskfull
from taikai.security.refusals import MARK
from taikai.tokens.models import ApiToken
from taikai.tokens.services import token_actor, token_user

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Principal:
    user: Any
    token: ApiToken


class TokenAuth(HttpBearer):
    """`Authorization: Bearer tk_…`: a staff member's API token, scoped to one event and a role, or a site
    token (no event: it creates events and acts with its user's own role in each event)."""

    openapi_scheme = "bearer"

    def authenticate(self, request: HttpRequest, token: str) -> Principal | None:
        found = token_user(token, touch=request.method not in ("GET", "HEAD"))  # reads never write
        return Principal(*found) if found else None


class PlayerAuth(APIKeyHeader):
    """`X-Player-Token: …`: the token of a player's personal link (given at check-in)."""

    param_name = "X-Player-Token"

    def authenticate(self, request: HttpRequest, key: str | None) -> Player | None:
        return player_for_token(key or "")


TOKEN = TokenAuth()
PLAYER = PlayerAuth()


def staff_actor(request: HttpRequest, event: Event) -> Staff:
    """The signed-in staff member as the services should see them: capped at the token's role."""
    principal = request.auth  # type: ignore[attr-defined]
    if not isinstance(principal, Principal):
        raise PermissionDenied("not-staff")
    if principal.token.event_id is not None and principal.token.event_id != event.pk:
        raise PermissionDenied("token-wrong-event")
    return token_actor(principal.user, principal.token)


def optional_staff(request: HttpRequest, event: Event) -> Staff | None:
    """For a public read that shows more to staff: the bearer token's actor if one is sent and valid."""
    header = request.headers.get("Authorization", "")
    if not header.lower().startswith("bearer "):
        return None
    found = token_user(header[7:].strip(), touch=False)
    if found is None:
        return None
    user, token = found
    if token.event_id is not None and token.event_id != event.pk:
        return None
    return token_actor(user, token)


def site_actor(request: HttpRequest) -> Staff:
    """The token's user for what belongs to no event yet (creating one): only a site token will do."""
    principal = request.auth  # type: ignore[attr-defined]
    if not isinstance(principal, Principal):
        raise PermissionDenied("not-staff")
    if principal.token.event_id is not None:
        raise PermissionDenied("site-token-required")
    return token_actor(principal.user, principal.token)


def player_or_staff_actor(request: HttpRequest, event: Event, player: Player) -> Actor:
    """Who acts on ``player``'s own things: the player themself (``X-Player-Token``) or staff (a token).
    Whether that actor may is the service's check (``require_player_or_staff``)."""
    me = acting_player(request, event)
    return PlayerSelf(me) if me is not None else staff_actor(request, event)


def acting_player(request: HttpRequest, event: Event) -> Player | None:
    auth = getattr(request, "auth", None)
    if isinstance(auth, Player):
        if auth.event_id != event.pk:
            raise PermissionDenied("not-your-match")
        return auth
    return None


def _json_safe(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v if isinstance(v, str | int | float | bool) or v is None else str(v) for k, v in params.items()}


class TaikaiAPI(NinjaAPI):
    def problem_response(self, request: HttpRequest, problem: Problem, status: int) -> HttpResponse:
        body = {"error": {"code": problem.code, "message": problem_text(problem), "params": _json_safe(problem.params)}}
        return self.create_response(request, body, status=status)

    def create_response(
        self,
        request: HttpRequest,
        data: Any,
        *,
        status: int | None = None,
        temporal_response: HttpResponse | None = None,
    ) -> HttpResponse:
        response = super().create_response(request, data, status=status, temporal_response=temporal_response)
        if request.method in ("GET", "HEAD") and response.status_code == 200:
            # A strong validator over the body: polling clients and caches pay for changes only.
            etag = '"' + hashlib.sha256(response.content).hexdigest()[:32] + '"'
            response["ETag"] = etag
            response["Cache-Control"] = "no-cache"
            response["Vary"] = "Accept-Language"
            wanted = request.headers.get("If-None-Match", "")
            if etag in [t.strip().removeprefix("W/") for t in wanted.split(",")] or wanted.strip() == "*":
                not_modified = HttpResponseNotModified()
                not_modified["ETag"] = etag
                not_modified["Cache-Control"] = "no-cache"
                return not_modified
        return response


api = TaikaiAPI(
    title="taikai API",
    version="1",
    description=(
        "Yu-Gi-Oh! OCG tournaments: events, staff, rounds, pairings, results, standings, top cut, penalties, "
        "appeals, prizes, judge calls, the round clock. Reading needs no sign-in. Staff write with "
        "`Authorization: Bearer <API token>`: `taikai token create USER` makes a site token (it creates events "
        "and acts with the user's own role in each event), `--event ID` a token for one event (also on the "
        "event's API tokens page); players report, confirm and appeal with `X-Player-Token`. Errors are "
        '`{"error": {"code", "message"}}` in the language of `Accept-Language` (ja, en). Lists take `limit` and '
        "`offset`. GET responses carry an `ETag`; send it back in `If-None-Match` to get 304. Live updates: "
        "`/api/v1/events/{event_id}/stream` (server-sent events) or a webhook. A worked example: docs/api.md."
    ),
    urls_namespace="api-v1",
    docs_url=None,
    openapi_url="/openapi.json",
)


class FormInvalid(ServiceError):
    """A value the page's form refuses: answered with the form's own error code and message (400)."""

    def __init__(self, field: str, code: str, message: str):
        super().__init__(code or "invalid", field=field)
        self.message = message


@api.exception_handler(FormInvalid)
def _form_invalid(request: HttpRequest, exc: FormInvalid) -> HttpResponse:
    body = {"error": {"code": exc.problem.code, "message": exc.message, "params": _json_safe(exc.problem.params)}}
    return api.create_response(request, body, status=400)


@api.exception_handler(PermissionDenied)
def _denied(request: HttpRequest, exc: PermissionDenied) -> HttpResponse:
    return api.problem_response(request, exc.problem, 403)


@api.exception_handler(Conflict)
def _conflict(request: HttpRequest, exc: Conflict) -> HttpResponse:
    return api.problem_response(request, exc.problem, 409)


@api.exception_handler(ServiceError)
def _service_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    return api.problem_response(request, exc.problem, 400)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    header = request.headers.get("Authorization", "")
    code = "bad-token" if header.lower().startswith("bearer ") else "unauthorized"
    if request.headers.get("X-Player-Token"):
        code = "bad-token"
    return api.problem_response(request, Problem(code), 401)


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    first = exc.errors[0] if exc.errors else {}
    where = ".".join(str(p) for p in first.get("loc", ()))
    detail = f"{where}: {first.get('msg', '')}".strip(": ")
    return api.problem_response(request, Problem("invalid-input", detail=detail), 422)


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return api.problem_response(request, Problem("not-found"), 404)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "invalid-input")
    return api.problem_response(request, Problem(code, detail=exc.message), exc.status_code)


@api.exception_handler(Exception)
def _crash(request: HttpRequest, exc: Exception) -> HttpResponse:
    if diskfull.is_disk_full(exc):  # nothing was saved; reads still work (issue 16)
        diskfull.report(exc, f"{request.method} {request.path}")
        lang = (translation.get_language() or "ja")[:2]
        return api.create_response(request, diskfull.api_body(lang), status=diskfull.STATUS)
    log.exception("API error on %s %s", request.method, request.path)
    return api.problem_response(request, Problem("server-error"), 500)


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    """429 for a rate limit (taikai.security.rates), with Retry-After; until then the same request is answered
    from memory, before it takes a thread (taikai.security.refusals)."""
    minutes = max(1, math.ceil(wait / 60))
    response = api.problem_response(request, Problem("too-many-requests", minutes=minutes), 429)
    response["Retry-After"] = str(wait)
    response[MARK] = "1"
    return response


def errors(*codes: int) -> dict[int, Any]:
    return {code: ErrorOut for code in codes}


READ_ERRORS = errors(404, 422)
WRITE_ERRORS = errors(400, 401, 403, 404, 409, 422, 507)
