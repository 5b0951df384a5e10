"""A TCP proxy between the venue and its follower that a test or a bench cuts and restores (loopback only).

``cut()`` drops every open connection at once (mid-request or not) and refuses new ones until ``restore()``:
what a venue's internet does at round start. ``cut_mid(REQUEST)`` cuts the link while a request is on its way
(the follower gets half of it), ``cut_mid(ANSWER)`` once the follower has answered, before the venue reads a
byte of the answer (the follower did the work, the venue never hears of it): both wait for the next message and
say whether it came. ``go_silent(b"/stream")`` leaves the open connections whose last request named that open but
carries nothing more on them, either way, while new connections work: a venue router that forgot a long-open
connection (a NAT entry expired), dead without a word to either end.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from typing import Any

REQUEST = "request"  # venue → follower
ANSWER = "answer"  # follower → venue


class Proxy:
    def __init__(self, target_port: int):
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = int(self.listener.getsockname()[1])
        self.up = True
        self.cuts = 0
        self.mid: dict[str, int] = {REQUEST: 0, ANSWER: 0}  # cuts made inside a message, by direction
        self._armed: str | None = None
        self._fired = threading.Event()
        self._open: set[socket.socket] = set()
        self._silent: set[socket.socket] = set()  # go_silent(): open, carrying nothing
        self._asked: dict[socket.socket, bytes] = {}  # each connection's last request line from the client
        self._lock = threading.Lock()
        self._stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open.update((client, upstream))
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                ready, _, _ = select.select([a, b], [], [], 1.0)
                if a in self._silent:
                    ready = []
                    self._stop.wait(0.2)
                for s in ready:
                    data = s.recv(65536)
                    if not data:
                        return
                    direction = REQUEST if s is a else ANSWER
                    if s is a and data[:4] in (b"GET ", b"POST"):
                        self._asked[a] = data.split(b"\r\n", 1)[0]
                    if self._armed == direction and self._claim(direction):
                        if direction == REQUEST:  # the first half reaches the follower, the rest never does
                            with contextlib.suppress(OSError):
                                b.sendall(data[: max(1, len(data) // 2)])
                        self.cut()
                        self._fired.set()
                        return
                    (b if s is a else a).sendall(data)
        except (OSError, ValueError):  # ValueError: a cut closed the socket while select() was about to read it
            return
        finally:
            self._close(a, b)

    def _claim(self, direction: str) -> bool:
        """The armed cut, taken by the first connection that carries a message its way (once)."""
        with self._lock:
            if self._armed != direction:
                return False
            self._armed = None
            self.mid[direction] += 1
        return True

    def _close(self, *socks: Any) -> None:
        with self._lock:
            for s in socks:
                self._open.discard(s)
                self._asked.pop(s, None)
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    s.close()

    def cut(self) -> None:
        self.up = False
        self.cuts += 1
        with self._lock:
            socks = list(self._open)
        self._close(*socks)

    def cut_mid(self, direction: str, timeout: float = 5.0) -> bool:
        """Cut inside the next message going ``direction`` (REQUEST or ANSWER); True once it has happened. None
        within ``timeout`` (the link idle, or already down): the cut is disarmed and nothing is cut."""
        with self._lock:
            self._fired.clear()
            self._armed = direction
        fired = self._fired.wait(timeout)
        with self._lock:
            self._armed = None
        return fired or self._fired.is_set()

    def go_silent(self, carrying: bytes) -> int:
        """The open connections whose last request named ``carrying`` carry nothing more (not closed: no reset,
        no end); how many they are."""
        with self._lock:
            found = {a for a in self._open if carrying in self._asked.get(a, b"")}
            self._silent |= found
            return len(found)

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self._stop.set()
        self.cut()
        self.listener.close()
