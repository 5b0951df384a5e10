"""The wire between a venue and its follower: one signed JSON POST a turn, venue to follower.

The venue sends ``{"changes": [...], "outcomes": [...], "manifest": [event ids]}``; the follower answers
``{"events": {id: {"version", "applied", "manifest"?}}, "actions": [...]}``. Both bodies are signed with
HMAC-SHA256 under the SHA-256 of the pairing token (``X-Taikai-Signature: sha256=<hex>``, as webhooks sign);
the venue names its token by prefix (``X-Taikai-Follow``), so the token never travels. Each signed body carries
the time it was made: one older than ``MAX_AGE`` is refused, so a recorded message cannot be played back later.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from typing import Any

SIGNATURE_HEADER = "X-Taikai-Signature"
PREFIX_HEADER = "X-Taikai-Follow"
SYNC_PATH = "/follow/v1/sync"
TOKEN_PREFIX = "fw_"
MAX_AGE = dt.timedelta(minutes=5)


class BadMessage(Exception):
    """A message that is not signed with the pairing's key, too old, or unreadable; ``code`` says which."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def key_of(token: str) -> str:
    """The signing key both sides know: the follower stores it, the venue derives it from the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def prefix_of(token: str) -> str:
    return token[:10]


def sign(key: str, body: bytes) -> str:
    return "sha256=" + hmac.new(key.encode(), body, hashlib.sha256).hexdigest()


def encode(payload: dict[str, Any], *, now: dt.datetime) -> bytes:
    return json.dumps({**payload, "sent_at": now.isoformat()}, ensure_ascii=False, separators=(",", ":")).encode()


def decode(key: str, body: bytes, signature: str, *, now: dt.datetime) -> dict[str, Any]:
    """The payload of a genuine, recent message; ``BadMessage`` otherwise (nothing in it is read first)."""
    if not hmac.compare_digest(sign(key, body), signature or ""):
        raise BadMessage("bad-signature")
    try:
        payload = json.loads(body)
        sent = dt.datetime.fromisoformat(payload["sent_at"])
    except (ValueError, KeyError, TypeError) as exc:
        raise BadMessage("unreadable") from exc
    if not isinstance(payload, dict) or abs(now - sent) > MAX_AGE:
        raise BadMessage("too-old")
    return payload


def digest(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()


def canonical(value: Any) -> str:
    """A document as stored and compared: the JSON the venue's API answered, re-encoded the way Django Ninja
    encodes it (``json.dumps`` defaults), so the follower's answer is the venue's byte for byte."""
    return json.dumps(value)
