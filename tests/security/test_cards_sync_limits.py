"""Issue 25 item 10: `taikai cards sync` wrote whatever a server sent (1,002 MB to the temporary folder) and
had no overall deadline (a server dripping a byte under the read timeout held it for ever). Now each file has
a size cap and the whole sync a deadline, both settings and flags, with one clear line and nothing saved."""

from __future__ import annotations

import http.server
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from taikai.cards.models import ImportRecord
from taikai.cli import main

pytestmark = pytest.mark.django_db
NO_OTHERS = ["--ja-cdb-url", "", "--json-url", "", "--lflist-url", "", "--lang", "en"]


class Hostile(http.server.BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - the http.server name
        self.send_response(200)
        if self.path == "/huge-length.cdb":
            self.send_header("Content-Length", str(5 * 1024**3))
            self.end_headers()
            return
        self.end_headers()
        try:
            if self.path == "/drip.cdb":  # a byte every 0.3 s: never a read timeout
                for _ in range(200):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.3)
                return
            for _ in range(4096):  # endless (here: 256 MB), without a length
                self.wfile.write(b"\0" * 65536)
        except OSError:
            pass


@pytest.fixture
def hostile() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _sync_dirs() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("taikai-sync-*")}


@pytest.mark.parametrize("path", ["/endless.cdb", "/huge-length.cdb"])
def test_a_file_over_the_cap_stops_the_sync_and_saves_nothing(
    capsys: pytest.CaptureFixture[str], hostile: str, path: str
) -> None:
    before = _sync_dirs()
    t0 = time.monotonic()
    code = main(["cards", "sync", "--cdb-url", hostile + path, "--max-mb", "5", *NO_OTHERS])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    expected = f"{hostile}{path} is larger than 5 MB: sync stopped, nothing was saved"
    assert err.strip() == expected + " (--max-mb / TAIKAI_CARDS_SYNC_MAX_MB)", err
    assert time.monotonic() - t0 < 10
    assert _sync_dirs() == before and not ImportRecord.objects.exists()


def test_the_cap_is_a_setting_too(
    capsys: pytest.CaptureFixture[str], hostile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAIKAI_CARDS_SYNC_MAX_MB", "2")
    assert main(["cards", "sync", "--cdb-url", hostile + "/endless.cdb", *NO_OTHERS]) == 2
    assert "larger than 2 MB" in capsys.readouterr().err
    monkeypatch.setenv("TAIKAI_CARDS_SYNC_MAX_MB", "lots")
    assert main(["cards", "sync", "--cdb-url", hostile + "/endless.cdb", *NO_OTHERS]) == 2
    assert "TAIKAI_CARDS_SYNC_MAX_MB: expected a number" in capsys.readouterr().err


def test_a_dripping_server_meets_the_deadline(capsys: pytest.CaptureFixture[str], hostile: str) -> None:
    t0 = time.monotonic()
    code = main(["cards", "sync", "--cdb-url", hostile + "/drip.cdb", "--deadline", "2", "--timeout", "30", *NO_OTHERS])
    _, err = capsys.readouterr()
    assert code == 2 and time.monotonic() - t0 < 5
    assert "did not finish within 2 s" in err and "TAIKAI_CARDS_SYNC_DEADLINE" in err
    assert not ImportRecord.objects.exists()
