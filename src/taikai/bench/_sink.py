"""A sink: a server that answers every request at once, to measure the open-loop client alone.

``python -m taikai.bench._sink PORT SIZE`` answers each bodiless request with SIZE bytes; ``sink(size)`` runs
it in a process of its own (like the real server) for the length of a ``with`` block.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class _Sink(asyncio.Protocol):
    """Answers each bodiless request at once with ``size`` bytes: a server that costs next to nothing."""

    def __init__(self, answer: bytes) -> None:
        self.answer = answer
        self.pending = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        assert self.transport is not None
        heads = (self.pending + data).split(b"\r\n\r\n")
        self.pending = heads.pop()
        for _ in heads:
            self.transport.write(self.answer)


def _serve_sink(port: int, size: int) -> None:
    answer = f"HTTP/1.1 200 OK\r\nContent-Length: {size}\r\nContent-Type: text/html\r\n\r\n".encode()
    answer += b"x" * size

    async def main() -> None:
        server = await asyncio.get_running_loop().create_server(lambda: _Sink(answer), "127.0.0.1", port)
        async with server:
            await server.serve_forever()

    asyncio.run(main())


@contextlib.contextmanager
def sink(size: int) -> Iterator[str]:
    """A sink server in its own process (its own interpreter, like the real server); yields its URL."""
    import socket
    import subprocess
    import sys
    import time

    from taikai.bench._live import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "taikai.bench._sink", str(port), str(size)])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the sink server did not start") from None
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    import sys

    _serve_sink(int(sys.argv[1]), int(sys.argv[2]))
