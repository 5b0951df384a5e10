"""Sessions in the database, held in a signed cookie while the database refuses writes for lack of space.

Signing in writes a session row. With the disk full that write fails, and before this the organizer could not
sign in at all (issue 16). This store is Django's database store; when a save is refused for lack of space
(taikai.security.diskfull) the session is kept instead in the cookie itself, signed with the secret key the
way Django's ``signed_cookies`` backend does it: the cookie holds the session's own data (the user's id, the
backend, the hash of the password hash that Django checks on every request) and a random id, nothing more,
and cannot be changed without the key.

What stays as it was:
- A changed password ends the session: Django compares the session's password hash on every request.
- Signing out ends it: the browser's cookie is deleted, and the cookie's id is revoked, in the database
  (RevokedSession, read on every request that carries such a cookie) and in this process. While the disk
  is still full the database cannot take the revocation; then it holds in this process until the disk has
  room (it is written with the next revocation or save that succeeds) - another web process would still
  accept a stolen copy of that cookie until it expires. That gap is the price of signing in on a full disk;
  SECURITY.md says so.
- The cookie expires like a session (SESSION_COOKIE_AGE, checked on the signature's timestamp).
Once the disk has room, the next save of the session moves it back into the database (a new key), keeping
the cookie's id in the session so that signing out revokes the old cookie as well.
"""

from __future__ import annotations

import datetime as dt
import secrets
import threading
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import UpdateError
from django.core import signing
from django.db import DatabaseError, transaction
from django.utils import timezone

from taikai.security import diskfull

SALT = "taikai.security.sessions.fallback"
HELD = "_taikai_cookie_id"  # in a session moved back into the database: the id of the cookie it came from
MAX_COOKIE = 3500  # characters; browsers drop cookies over about 4 KB
KEPT_WHEN_LARGE = ("_auth_user_id", "_auth_user_backend", "_auth_user_hash", "_session_expiry")


class _Revoked:
    """Cookie ids (and database keys whose row could not be deleted) revoked in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._until: dict[str, dt.datetime] = {}
        self.unsaved: dict[str, dt.datetime] = {}  # not yet in the database

    def add(self, what: str, until: dt.datetime, *, saved: bool) -> None:
        with self._lock:
            now = timezone.now()
            self._until = {k: v for k, v in self._until.items() if v > now}
            self._until[what] = until
            if not saved:
                self.unsaved[what] = until

    def __contains__(self, what: str) -> bool:
        with self._lock:
            until = self._until.get(what)
        return until is not None and until > timezone.now()

    def clear(self) -> None:
        with self._lock:
            self._until.clear()
            self.unsaved.clear()


revoked = _Revoked()


def _age() -> int:
    return int(settings.SESSION_COOKIE_AGE)


def is_cookie_key(key: str | None) -> bool:
    """A database key is 32 letters and digits; a cookie-held session is signed data (with colons)."""
    return bool(key) and ":" in str(key)


def _save_revocations(extra: dict[str, dt.datetime]) -> bool:
    """Write revocations (this one and any held in memory) to the database; False when it refuses for space."""
    from taikai.security.models import RevokedSession

    pending = {**revoked.unsaved, **extra}
    try:
        with transaction.atomic():
            for cookie_id, until in pending.items():
                RevokedSession.objects.get_or_create(cookie_id=cookie_id, defaults={"until": until})
            RevokedSession.objects.filter(until__lt=timezone.now()).delete()  # keep the table small
    except DatabaseError as exc:
        if not diskfull.is_disk_full(exc):
            raise
        diskfull.report(exc, "signing out (the revocation is held in this process)")
        return False
    revoked.unsaved.clear()
    return True


def _payload(key: str) -> dict[str, Any] | None:
    """The signed content of a cookie-held session, or None when it is forged, altered or expired."""
    try:
        held = signing.loads(key, salt=SALT, max_age=_age())
    except (signing.BadSignature, ValueError):
        return None
    if not isinstance(held, dict) or not isinstance(held.get("d"), dict) or not isinstance(held.get("n"), str):
        return None
    return held


def revoke(cookie_id: str) -> None:
    until = timezone.now() + dt.timedelta(seconds=_age())
    saved = _save_revocations({cookie_id: until})
    revoked.add(cookie_id, until, saved=saved)


class SessionStore(db.SessionStore):
    def __init__(self, session_key: str | None = None):
        self._cookie_id = ""  # the random id of a cookie-held session
        super().__init__(session_key)

    def _data(self, no_load: bool = False) -> dict[str, Any]:
        return self._get_session(no_load=no_load)  # type: ignore[attr-defined,no-any-return]

    # Reading

    def load(self) -> dict[str, Any]:
        key = self.session_key
        if is_cookie_key(key):
            return self._load_cookie(str(key))
        if key and key in revoked:
            self._session_key = None
            return {}
        return super().load()

    def _load_cookie(self, key: str) -> dict[str, Any]:
        from taikai.security.models import RevokedSession

        held = _payload(key)
        if held is None or held["n"] in revoked or RevokedSession.objects.filter(cookie_id=held["n"]).exists():
            self._session_key = None
            return {}
        self._cookie_id = held["n"]
        return dict(held["d"])

    def exists(self, session_key: str) -> bool:
        return not is_cookie_key(session_key) and super().exists(session_key)

    # Writing

    def save(self, must_create: bool = False) -> None:
        if self.session_key is None or is_cookie_key(self.session_key):
            # A new session, or one held in a cookie: a database row with a new key, if the database takes it.
            self._data()
            self._session_key = None
            self.create()
            return
        try:
            super().save(must_create=must_create)
        except (DatabaseError, UpdateError) as exc:
            if not diskfull.is_disk_full(exc):
                raise
            diskfull.report(exc, "saving a session (kept in a signed cookie instead)")
            # An existing row keeps its old data; signing out of the cookie deletes it too.
            self._hold_in_cookie(came_from="" if must_create else str(self.session_key))

    def create(self) -> None:
        data = self._data()
        if self._cookie_id:  # moving back into the database: signing out must revoke the cookie too
            data[HELD] = self._cookie_id
        super().create()  # its save() holds the session in a cookie when the database refuses
        if is_cookie_key(self.session_key):
            return
        self._cookie_id = ""
        if revoked.unsaved:
            _save_revocations({})

    def cycle_key(self) -> None:
        """Signing in: a new key, and a new cookie id when the session has to be held in a cookie."""
        self._data()
        self._cookie_id = ""
        super().cycle_key()

    def _hold_in_cookie(self, came_from: str) -> None:
        data = self._data(no_load=True)
        self._cookie_id = self._cookie_id or str(data.get(HELD) or "") or secrets.token_urlsafe(16)
        data.pop(HELD, None)
        payload: dict[str, Any] = {"n": self._cookie_id, "d": data, "k": came_from}
        key = signing.dumps(payload, salt=SALT, compress=True)
        if len(key) > MAX_COOKIE:  # e.g. a long list of CSV problems: keep who is signed in, drop the rest
            payload["d"] = {k: v for k, v in data.items() if k in KEPT_WHEN_LARGE}
            key = signing.dumps(payload, salt=SALT, compress=True)
        self._session_key = key

    def delete(self, session_key: str | None = None) -> None:
        key = session_key if session_key is not None else self.session_key
        if not key:
            return
        if not is_cookie_key(key):
            self._delete_row(key)
            return
        held = _payload(key)
        if held is not None:
            revoke(held["n"])
            if held.get("k"):  # the database session it was held for, when one was being saved
                self._delete_row(str(held["k"]))

    def _delete_row(self, key: str) -> None:
        try:
            with transaction.atomic():
                super().delete(key)
        except DatabaseError as exc:
            if not diskfull.is_disk_full(exc):
                raise
            diskfull.report(exc, "signing out (the session row could not be deleted)")
            revoked.add(key, timezone.now() + dt.timedelta(seconds=_age()), saved=True)

    def flush(self) -> None:
        """Sign out: end this session, and the cookie it was once held in."""
        earlier = str(self.get(HELD) or "")
        super().flush()
        if earlier:
            revoke(earlier)
        self._cookie_id = ""

    # The async API (used by Django's async views) runs the same code.

    async def aload(self) -> dict[str, Any]:
        return await sync_to_async(self.load)()

    async def aexists(self, session_key: str) -> bool:
        return await sync_to_async(self.exists)(session_key)

    async def acreate(self) -> None:
        await sync_to_async(self.create)()

    async def asave(self, must_create: bool = False) -> None:
        await sync_to_async(self.save)(must_create)

    async def adelete(self, session_key: str | None = None) -> None:
        await sync_to_async(self.delete)(session_key)

    async def aflush(self) -> None:
        await sync_to_async(self.flush)()

    async def acycle_key(self) -> None:
        await sync_to_async(self.cycle_key)()
