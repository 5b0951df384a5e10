"""The test server itself (tests/servers.py) leaves nothing open for a later test to trip on."""

from __future__ import annotations

import gc
import socket
import time
import warnings

import pytest

from tests.servers import serving

SCRIPT = "/static/taikai/player.js"


def _asks_and_leaves(port: int, path: str) -> None:
    """A browser that leaves a page while one of its scripts is on the way: the request sent, the socket closed."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())


def _fetched(port: int, path: str) -> bytes:
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        s.settimeout(10)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer


@pytest.mark.django_db(transaction=True)
def test_a_script_request_left_mid_way_leaves_no_file_open(transactional_db: None) -> None:
    """CI at e04f04a failed a browser test on three ResourceWarnings for static scripts an earlier page had
    left: Django's static handler had opened each file and was cancelled before it closed it."""
    with serving() as server:
        whole = _fetched(server.port, SCRIPT)
        for _ in range(40):
            _asks_and_leaves(server.port, SCRIPT)
        time.sleep(0.5)
    assert whole.startswith(b"HTTP/1.1 200") and b"javascript" in whole.lower()
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        gc.collect()
    assert not [w for w in seen if issubclass(w.category, ResourceWarning)]
