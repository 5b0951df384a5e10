"""Where a webhook may go and how one delivery is sent (issue 25).

A URL is checked when it is saved (``check_url``: http or https, no spaces or control characters, a host
written as a name or a plain address, at most ``MAX_URL`` characters). Each delivery (``send``) resolves the
host again, keeps only the addresses that are globally routable or that ``TAIKAI_WEBHOOK_ALLOW`` names
(loopback, link-local such as 169.254.169.254, private, shared, multicast, reserved and unspecified
addresses are refused, also when written inside an IPv6 address), and connects to the address it checked,
so a name that changes its answer between the check and the connection (DNS rebinding) reaches nothing new.

The request is written by hand and only the status line is read: every step (the DNS look-up, connect, TLS
handshake, send, each read) gets what is left of one wall-clock deadline (``TAIKAI_WEBHOOK_TIMEOUT``), so a
receiver that drips one byte at a time is cut off like one that never answers, and so is a DNS look-up that
hangs; a redirect is never followed (a 3xx is a failure). What went wrong is logged for the operator; the
organizer sees only ``HTTP <status>``, ``NO_ANSWER`` or ``REFUSED``: no port or connection detail.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
import ssl
import time
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from django.conf import settings

from taikai.events.errors import ServiceError
from taikai.webhooks import texts  # noqa: F401  (registers the webhooks' texts)

log = logging.getLogger("taikai.webhooks.delivery")

MAX_URL = 500
MAX_HEAD = 8 * 1024  # bytes read for the status line before giving up on the answer
NO_ANSWER = "no answer"  # refused, reset, timed out, not HTTP: the organizer is not told which
REFUSED = "destination not allowed"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?")
# A last label of digits or 0x-hex makes a resolver read the whole name as an IPv4 address (2130706433,
# 0x7f.1, 127.1, 0177.0.0.1): only the plain dotted form is accepted, so what is saved is what is checked.
_NUMERIC_TAIL = re.compile(r"(^|.*\.)(0x[0-9a-f]*|[0-9]+)\.?")
_STATUS = re.compile(rb"HTTP/1\.[01] ([0-9]{3})[ \r]")
_RESOLVER = ThreadPoolExecutor(4, thread_name_prefix="taikai-webhook-dns")


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # lower case, IPv6 without brackets
    port: int
    path: str  # path and query, percent-encoded ASCII


def _parse(url: str) -> Target:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ServiceError("bad-webhook-url")
    if "@" in parts.netloc or not parts.hostname:
        raise ServiceError("webhook-url-host")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
        host = parts.hostname.encode("idna").decode("ascii").lower()
    except (ValueError, UnicodeError) as exc:
        raise ServiceError("webhook-url-host") from exc
    if not 0 < port < 65536:
        raise ServiceError("webhook-url-host")
    path = quote(parts.path or "/", safe="/%:@!$&'()*+,;=~-._") + (
        "?" + quote(parts.query, safe="/%:@!$&'()*+,;=~-._?") if parts.query else ""
    )
    return Target(scheme, host, port, path)


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _embedded(ip: IPAddress) -> list[IPAddress]:
    """The address and any IPv4 address written inside it (mapped, 6to4, Teredo, NAT64)."""
    found: list[IPAddress] = [ip]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped:
            found.append(ip.ipv4_mapped)
        if ip.sixtofour:
            found.append(ip.sixtofour)
        if ip.teredo:
            found.extend(ip.teredo)
        if ip in ipaddress.ip_network("64:ff9b::/96"):
            found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def _public(ip: IPAddress) -> bool:
    return ip.is_global and not (
        ip.is_multicast
        or ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_unspecified
        or (isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local)
    )


def address_allowed(ip: IPAddress) -> bool:
    """A globally routable address, or one the operator allowed (TAIKAI_WEBHOOK_ALLOW)."""
    candidates = _embedded(ip)
    networks = settings.WEBHOOKS.allow_networks
    if any(c in net for c in candidates for net in networks if c.version == net.version):
        return True
    return all(_public(c) for c in candidates)


def _host_allowed(host: str) -> bool:
    return host.rstrip(".") in settings.WEBHOOKS.allow_hosts


def check_url(url: str) -> str:
    """The URL to save, or ServiceError with a code the organizer reads (ja/en)."""
    url = url.strip(" \t\r\n")
    if len(url) > MAX_URL:
        raise ServiceError("webhook-url-too-long", max=MAX_URL)
    if any(ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp") for ch in url):
        raise ServiceError("webhook-url-spaces")
    target = _parse(url)
    ip = _literal(target.host)
    if ip is None and (not _NAME.fullmatch(target.host) or _NUMERIC_TAIL.fullmatch(target.host)):
        raise ServiceError("webhook-url-host")
    if _host_allowed(target.host):
        return url
    if ip is not None and not address_allowed(ip):
        raise ServiceError("webhook-url-internal")
    if ip is None and (target.host.rstrip(".") == "localhost" or target.host.rstrip(".").endswith(".localhost")):
        raise ServiceError("webhook-url-internal")
    return url


class _Refused(Exception):
    pass


class _Deadline:
    """One delivery's wall clock: each socket step gets what is left of it."""

    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def left(self) -> float:
        left = self.end - time.monotonic()
        if left <= 0:
            raise TimeoutError("webhook deadline")
        return left


def _addresses(target: Target, deadline: _Deadline) -> list[IPAddress]:
    ip = _literal(target.host)
    if ip is not None:
        found = [ip]
    else:
        # getaddrinfo takes no timeout: it runs on a small pool of its own, and the delivery stops waiting at
        # its deadline (a resolver that never answers holds one of those threads, not the delivery's).
        lookup = _RESOLVER.submit(
            socket.getaddrinfo, target.host, target.port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )
        try:
            infos = lookup.result(timeout=deadline.left())
        except FutureTimeout as exc:
            lookup.cancel()
            raise TimeoutError("webhook DNS look-up") from exc
        found = []
        for info in infos:
            address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
            if address not in found:
                found.append(address)
    if _host_allowed(target.host):
        return found
    allowed = [a for a in found if address_allowed(a)]
    if not allowed:
        raise _Refused(", ".join(str(a) for a in found))
    return allowed


def _connect(target: Target, deadline: _Deadline) -> socket.socket:
    last: OSError | None = None
    for address in _addresses(target, deadline)[:2]:
        try:
            return socket.create_connection((str(address), target.port), timeout=deadline.left())
        except OSError as exc:
            last = exc
    raise last or OSError("no address")


def _status(sock: socket.socket, deadline: _Deadline) -> int:
    head = b""
    while b"\n" not in head:
        sock.settimeout(deadline.left())
        chunk = sock.recv(1024)
        if not chunk:
            break
        head += chunk
        if len(head) > MAX_HEAD:
            break
    match = _STATUS.match(head)
    if match is None:
        raise ValueError(f"not an HTTP answer: {head[:40]!r}")
    return int(match.group(1))


def send(url: str, headers: dict[str, str], body: bytes, timeout: float) -> str:
    """POST ``body`` to ``url``; the empty string when the receiver took it (2xx), else what the organizer
    is shown. Never raises for anything the receiver or the network does; the detail goes to the log."""
    deadline = _Deadline(timeout)
    try:
        target = _parse(url)
        sock = _connect(target, deadline)
    except _Refused as exc:
        log.warning("webhook to %s refused: resolves to %s", shown(url), exc)
        return REFUSED
    except (OSError, ValueError, ServiceError) as exc:
        log.warning("webhook to %s: %s: %s", shown(url), type(exc).__name__, exc)
        return NO_ANSWER
    try:
        if target.scheme == "https":
            sock.settimeout(deadline.left())  # for the whole handshake, not each read (CPython's ssl)
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=target.host)
        default_port = 443 if target.scheme == "https" else 80
        host = f"[{target.host}]" if ":" in target.host else target.host
        host += "" if target.port == default_port else f":{target.port}"
        lines = [f"POST {target.path} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(body)}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        sock.settimeout(deadline.left())
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + body)
        status = _status(sock, deadline)
    except (OSError, ValueError) as exc:
        log.warning("webhook to %s: %s: %s", shown(url), type(exc).__name__, exc)
        return NO_ANSWER
    finally:
        sock.close()
    return "" if 200 <= status < 300 else f"HTTP {status}"


def shown(url: str) -> str:
    """The URL for the log without its path: a Discord webhook's path is its password."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/…"
