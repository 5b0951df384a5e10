"""The follower's settings, read from the environment (checked when ``taikai serve`` starts).

``TAIKAI_ROLE``: ``venue`` (default) or ``follower``. A venue with ``TAIKAI_FOLLOWER_URL`` and
``TAIKAI_FOLLOWER_TOKEN`` (both or neither) keeps one outbound connection to that follower; after a lost link it
tries again after 1, 2, 4 … seconds, at most ``TAIKAI_FOLLOWER_RETRY`` seconds apart (default 5; a test or a
bench lowers it to spend less time waiting, a venue on a metered line may raise it)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlparse

from taikai.config import ConfigError

ROLES = ("venue", "follower")


def role(env: dict[str, str] | None = None) -> str:
    value = (os.environ if env is None else env).get("TAIKAI_ROLE", "").strip().lower() or "venue"
    if value not in ROLES:
        raise ConfigError("TAIKAI_ROLE", f"venue or follower, not {value!r}")
    return value


def is_follower() -> bool:
    return role() == "follower"


RETRY_DEFAULT = 5.0


@dataclass(frozen=True)
class Target:
    url: str
    token: str
    retry: float = RETRY_DEFAULT  # the longest wait between two tries while the link is down, in seconds


def target(env: dict[str, str] | None = None) -> Target | None:
    env = dict(os.environ) if env is None else env
    url = env.get("TAIKAI_FOLLOWER_URL", "").strip()
    token = env.get("TAIKAI_FOLLOWER_TOKEN", "").strip()
    if not url and not token:
        return None
    if not url or not token:
        missing = "TAIKAI_FOLLOWER_URL" if not url else "TAIKAI_FOLLOWER_TOKEN"
        raise ConfigError(missing, "set both TAIKAI_FOLLOWER_URL and TAIKAI_FOLLOWER_TOKEN, or neither")
    return Target(check_url(url, "TAIKAI_FOLLOWER_URL"), token, retry(env))


def retry(env: dict[str, str] | None = None) -> float:
    raw = (os.environ if env is None else env).get("TAIKAI_FOLLOWER_RETRY", "").strip()
    if not raw:
        return RETRY_DEFAULT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = -1.0
    if not 0.05 <= seconds <= 600:
        raise ConfigError("TAIKAI_FOLLOWER_RETRY", f"seconds between 0.05 and 600, e.g. 5, not {raw!r}")
    return seconds


def check_url(url: str, setting: str) -> str:
    parts = urlparse(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        raise ConfigError(setting, f"an http or https address with no path, e.g. https://follow.example.jp: {url!r}")
    return url.rstrip("/")
