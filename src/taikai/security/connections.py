"""Connections that never send a request: a deadline for the request head, and caps on open connections.

uvicorn arms its keep-alive timer only after a response; a connection that sends half a request line, or a
header byte every few seconds, was kept open forever (3,000 of them in the attack run of issue 25), and its
`limit_concurrency` answers 503 only once a whole request head has arrived. This protocol, uvicorn's own HTTP
protocol with a guard, closes a connection:

- whose request head is not complete `TAIKAI_HEADER_TIMEOUT` seconds after the connection opened, or after
  the first byte of the next request on a kept-alive connection (a 408, then closed). A client may send that
  byte before uvicorn counts the response complete: a2wsgi writes the whole body, then an empty last message
  from the WSGI thread, and a client holding the whole body (its Content-Length) rightly starts the next
  request. Such a head gets its deadline when the response completes; before, it got none, and waited for
  uvicorn's keep-alive close instead (seen under load: 5 s, not 2);
- whose request head grows past `TAIKAI_MAX_HEADER_BYTES` (431);
- that would be more than `TAIKAI_MAX_CONNECTIONS` open in this process, or more than
  `TAIKAI_MAX_CONNECTIONS_PER_ADDRESS` from one client address (503 at once; a trusted proxy's address is
  not capped per address, being everyone's).

Bodies have their own deadline (`taikai.security.bodies`); a live stream, once its head is in, is not cut.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from taikai.config import load_limits, load_server_limits

LIMITS = load_server_limits()
_PROXIES = [ipaddress.ip_network(p, strict=False) for p in load_limits().trusted_proxies]
_by_address: Counter[str] = Counter()  # open connections per client address, in this process


def _answer(status: str) -> bytes:
    return f"HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode()


TIMED_OUT = _answer("408 Request Timeout")
TOO_LARGE = _answer("431 Request Header Fields Too Large")
BUSY = _answer("503 Service Unavailable")


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in _PROXIES)


class GuardedHTTP(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol (httptools, or h11 without it) with a head deadline and connection caps."""

    _deadline: asyncio.TimerHandle | None = None
    _cycle_at_arm: Any = None
    _head = b""  # the bytes of the request head so far, up to the limit (and the blank line that ends it)
    _address = ""
    _early = False  # bytes of the next request came before this response was complete

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)
        client = self.client
        self._address = client[0] if client else ""
        _by_address[self._address] += 1
        crowded = len(self.connections) > LIMITS.max_connections
        if not crowded and self._address and not _trusted(self._address):
            crowded = _by_address[self._address] > LIMITS.max_connections_per_address
        if crowded:
            self._close(BUSY)
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._address in _by_address:
            _by_address[self._address] -= 1
            if _by_address[self._address] <= 0:
                del _by_address[self._address]
            self._address = ""
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and self._deadline is None:  # the first byte of the next request on a kept-alive connection
            self._arm()
        elif not waiting and not self.cycle.more_body:  # this request is all in: these bytes are the next one's
            self._early = True
        if self._deadline is not None and self.cycle is self._cycle_at_arm:
            # only the head counts: a body that comes in the same packet as its head is the body's cap's business
            self._head = (self._head + data)[: LIMITS.max_header_bytes + 4]
            if b"\r\n\r\n" not in self._head and len(self._head) > LIMITS.max_header_bytes:
                self._close(TOO_LARGE)
                return
        super().data_received(data)
        if self._deadline is not None and self.cycle is not self._cycle_at_arm:
            self._disarm()  # the whole head is in: the request runs (its body has its own deadline)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        early, self._early = self._early, False
        # a pipelined head already complete runs now (self.cycle is its own, unfinished): only a partial one waits
        if early and self._deadline is None and self.cycle.response_complete and not self.transport.is_closing():
            self._arm()

    def _arm(self) -> None:
        self._cycle_at_arm = self.cycle
        self._head = b""
        self._deadline = self.loop.call_later(LIMITS.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.cycle is self._cycle_at_arm:  # still no complete request head
            self._close(TIMED_OUT)

    def _close(self, answer: bytes) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(answer)
            self.transport.close()
