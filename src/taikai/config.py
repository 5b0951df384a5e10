"""Configuration from TAIKAI_* environment variables, with safe defaults.

A bad value stops start-up with a message that names the variable (ConfigError).
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import zoneinfo
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse


class ConfigError(Exception):
    def __init__(self, setting: str, message: str):
        super().__init__(f"{setting}: {message}")
        self.setting = setting


@dataclass(frozen=True)
class Config:
    var_dir: Path
    database_url: str
    secret_key: str
    debug: bool
    allowed_hosts: list[str]
    time_zone: str
    https: bool
    public_url: str = ""  # the venue address shared with phones (slips, QR codes); "" = the LAN address
    lan_url: str = ""  # set by `taikai serve` for its workers: this machine's address on the venue network


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _bool(env: dict[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(name, f"expected true or false, got {raw!r}")


def _database_url(env: dict[str, str], var_dir: Path) -> str:
    url = env.get("TAIKAI_DATABASE_URL", "").strip()
    if not url:
        return f"sqlite:///{var_dir / 'taikai.sqlite3'}"
    scheme = urlparse(url).scheme
    if scheme not in ("sqlite", "postgres", "postgresql"):
        raise ConfigError(
            "TAIKAI_DATABASE_URL", f"unsupported scheme {scheme!r}: use sqlite:///PATH or postgresql://..."
        )
    if scheme != "sqlite" and not urlparse(url).path.strip("/"):
        raise ConfigError("TAIKAI_DATABASE_URL", "a PostgreSQL URL must name a database: postgresql://host/NAME")
    return url


def _secret_key(env: dict[str, str], var_dir: Path) -> str:
    key = env.get("TAIKAI_SECRET_KEY")
    if key is not None:
        if len(key) < 32:
            raise ConfigError("TAIKAI_SECRET_KEY", "must be at least 32 characters long")
        return key
    path = var_dir / "secret_key"
    if path.exists():
        return path.read_text().strip()
    var_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    path.write_text(key)
    path.chmod(0o600)
    return key


def _time_zone(env: dict[str, str]) -> str:
    tz = env.get("TAIKAI_TIME_ZONE", "Asia/Tokyo")
    try:
        zoneinfo.ZoneInfo(tz)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError("TAIKAI_TIME_ZONE", f"unknown time zone {tz!r}") from exc
    return tz


def _hosts(env: dict[str, str]) -> list[str]:
    raw = env.get("TAIKAI_ALLOWED_HOSTS")
    if raw is None:
        # The venue laptop is reached by its LAN address, which we cannot know in advance.
        return ["*"]
    hosts = [h.strip() for h in raw.split(",") if h.strip()]
    if not hosts:
        raise ConfigError("TAIKAI_ALLOWED_HOSTS", "empty: give a comma-separated list of host names, or *")
    return hosts


def _base_url(env: dict[str, str], name: str) -> str:
    """An address phones open: http(s)://host[:port][/prefix], without a query; no trailing slash."""
    raw = env.get(name, "").strip()
    if not raw:
        return ""
    parsed = urlparse(raw)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ConfigError(name, f"expected an address such as http://192.168.1.20:8000, got {raw!r}")
    if parsed.query or parsed.fragment:
        raise ConfigError(name, "the address must not have a query (?...) or a fragment (#...)")
    try:
        parsed.port  # noqa: B018  (a bad port raises)
    except ValueError as exc:
        raise ConfigError(name, f"bad port in {raw!r}") from exc
    return raw.rstrip("/")


def load(env: dict[str, str] | None = None) -> Config:
    env = dict(os.environ if env is None else env)
    var_dir = Path(env.get("TAIKAI_VAR_DIR") or Path.cwd() / "var").resolve()
    return Config(
        var_dir=var_dir,
        database_url=_database_url(env, var_dir),
        secret_key=_secret_key(env, var_dir),
        debug=_bool(env, "TAIKAI_DEBUG", False),
        allowed_hosts=_hosts(env),
        time_zone=_time_zone(env),
        https=_bool(env, "TAIKAI_HTTPS", False),
        public_url=_base_url(env, "TAIKAI_PUBLIC_URL"),
        lan_url=_base_url(env, "TAIKAI_LAN_URL"),
    )


# --- limits against a single hostile client (issue 16); see SECURITY.md ----------------------------------------


@dataclass(frozen=True)
class Limits:
    max_body: int  # TAIKAI_MAX_BODY: bytes of any request body
    max_upload: int  # TAIKAI_MAX_UPLOAD: bytes of a signed-in (session or token) request, e.g. a card database
    body_timeout: float  # TAIKAI_BODY_TIMEOUT: seconds a body may take, plus size / TAIKAI_BODY_MIN_RATE
    body_min_rate: int  # TAIKAI_BODY_MIN_RATE: bytes per second a slow but honest upload keeps up
    trusted_proxies: list[str]  # TAIKAI_TRUSTED_PROXIES: addresses whose X-Forwarded-For is believed
    pin_digits: int  # TAIKAI_PIN_DIGITS: the fewest digits of a new player PIN
    threads: int  # TAIKAI_THREADS: request threads per web process (docs/deploy.md)


def _int(env: dict[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise ConfigError(name, f"expected a whole number, got {raw!r}") from exc
    if not low <= value <= high:
        raise ConfigError(name, f"must be between {low} and {high}, got {value}")
    return value


def _proxies(env: dict[str, str]) -> list[str]:
    import ipaddress

    raw = env.get("TAIKAI_TRUSTED_PROXIES", "")
    found = [p.strip() for p in raw.split(",") if p.strip()]
    for proxy in found:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError as exc:
            raise ConfigError("TAIKAI_TRUSTED_PROXIES", f"not an address or network: {proxy!r}") from exc
    return found


def load_limits(env: dict[str, str] | None = None) -> Limits:
    env = dict(os.environ if env is None else env)
    return Limits(
        max_body=_int(env, "TAIKAI_MAX_BODY", 1024 * 1024, 16 * 1024, 1024**3),
        max_upload=_int(env, "TAIKAI_MAX_UPLOAD", 64 * 1024 * 1024, 16 * 1024, 1024**3),
        body_timeout=_int(env, "TAIKAI_BODY_TIMEOUT", 10, 1, 600),
        body_min_rate=_int(env, "TAIKAI_BODY_MIN_RATE", 64 * 1024, 1, 1024**3),
        trusted_proxies=_proxies(env),
        pin_digits=_int(env, "TAIKAI_PIN_DIGITS", 6, 4, 8),
        # Bodies are read before a thread is taken (taikai.security.bodies), so a thread only runs Django: more
        # than a few threads per core only switch between each other (2 processes on 2 cores, one run each: a
        # result report cost 7.2 ms of server CPU with 16 threads, 5.8 ms with 4). docs/deploy.md.
        threads=_int(env, "TAIKAI_THREADS", 4, 1, 256),
    )


# --- webhooks (issue 25): where they may go, how long a delivery may take; see SECURITY.md -----------------------


@dataclass(frozen=True)
class Webhooks:
    # TAIKAI_WEBHOOK_ALLOW: internal destinations the operator allows (host names, addresses or networks);
    # everything not globally routable is refused otherwise.
    allow_hosts: tuple[str, ...]
    allow_networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
    timeout: float  # TAIKAI_WEBHOOK_TIMEOUT: seconds one delivery may take, connect to the answer's status line
    workers: int  # TAIKAI_WEBHOOK_WORKERS: deliveries running at once
    per_event: int  # TAIKAI_WEBHOOKS_PER_EVENT: webhooks an event may have
    disable_after: int  # TAIKAI_WEBHOOK_DISABLE_AFTER: messages given up in a row before a webhook is stopped


def _webhook_allow(
    env: dict[str, str],
) -> tuple[tuple[str, ...], tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]]:
    import re

    hosts: list[str] = []
    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for entry in (e.strip() for e in env.get("TAIKAI_WEBHOOK_ALLOW", "").split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
            continue
        except ValueError:
            pass
        name = entry.lower().rstrip(".")
        if not re.fullmatch(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*", name) or re.fullmatch(r"[0-9a-fx.]+", name):
            raise ConfigError("TAIKAI_WEBHOOK_ALLOW", f"not a host name, address or network: {entry!r}")
        hosts.append(name)
    return tuple(hosts), tuple(networks)


def load_webhooks(env: dict[str, str] | None = None) -> Webhooks:
    env = dict(os.environ if env is None else env)
    hosts, networks = _webhook_allow(env)
    return Webhooks(
        allow_hosts=hosts,
        allow_networks=networks,
        timeout=_int(env, "TAIKAI_WEBHOOK_TIMEOUT", 5, 1, 60),
        workers=_int(env, "TAIKAI_WEBHOOK_WORKERS", 8, 1, 64),
        per_event=_int(env, "TAIKAI_WEBHOOKS_PER_EVENT", 5, 1, 100),
        disable_after=_int(env, "TAIKAI_WEBHOOK_DISABLE_AFTER", 5, 1, 1000),
    )


@dataclass(frozen=True)
class ServerLimits:
    """What one web process holds for clients before a request reaches the application (SECURITY.md)."""

    header_timeout: float  # TAIKAI_HEADER_TIMEOUT: seconds from a connection or a new request to its whole head
    max_header_bytes: int  # TAIKAI_MAX_HEADER_BYTES: bytes of a request line and headers
    max_connections: int  # TAIKAI_MAX_CONNECTIONS: open connections per web process
    max_connections_per_address: int  # TAIKAI_MAX_CONNECTIONS_PER_ADDRESS: of those, from one client address
    keep_alive: int  # TAIKAI_KEEP_ALIVE: seconds an idle connection is kept after a response
    csv_max_rows: int  # TAIKAI_CSV_MAX_ROWS: players in one CSV import


def load_server_limits(env: dict[str, str] | None = None) -> ServerLimits:
    env = dict(os.environ if env is None else env)
    return ServerLimits(
        header_timeout=_int(env, "TAIKAI_HEADER_TIMEOUT", 10, 1, 600),
        max_header_bytes=_int(env, "TAIKAI_MAX_HEADER_BYTES", 64 * 1024, 4 * 1024, 1024 * 1024),
        max_connections=_int(env, "TAIKAI_MAX_CONNECTIONS", 1000, 10, 100_000),
        max_connections_per_address=_int(env, "TAIKAI_MAX_CONNECTIONS_PER_ADDRESS", 200, 1, 100_000),
        keep_alive=_int(env, "TAIKAI_KEEP_ALIVE", 5, 1, 300),
        csv_max_rows=_int(env, "TAIKAI_CSV_MAX_ROWS", 2000, 1, 1_000_000),
    )
