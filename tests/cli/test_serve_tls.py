"""`taikai serve` over HTTPS with the organizer's certificate (issue 24, item 23): TAIKAI_TLS_CERT and
TAIKAI_TLS_KEY, checked before start-up with a clear error, and a real server answering over https.

The throwaway certificates are made with the `openssl` command (the `cryptography` package is not installed)."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from taikai.cli import tls
from taikai.config import ConfigError

SRC = Path(__file__).resolve().parents[2] / "src"


def _certificate(folder: Path, name: str = "venue") -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost, valid for two days, and its key."""
    cert, key = folder / f"{name}-cert.pem", folder / f"{name}-key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        + ["-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=127.0.0.1"]
        + ["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True,
        capture_output=True,
    )
    return cert, key


def _refused(env: dict[str, str]) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        tls.load(env)
    return caught.value


def test_no_certificate_is_plain_http_and_a_good_one_is_described(tmp_path: Path) -> None:
    assert tls.load({}) is None
    cert, key = _certificate(tmp_path)
    found = tls.load({tls.CERT: str(cert), tls.KEY: str(key)})
    assert found is not None and found.cert == cert and found.key == key
    assert set(found.names) == {"127.0.0.1", "localhost"} and found.not_after is not None
    assert tls.covers(found, "127.0.0.1") and not tls.covers(found, "192.168.1.10")


def test_a_missing_unreadable_or_mismatched_certificate_stops_start_up_naming_the_variable(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    _other_cert, other_key = _certificate(tmp_path, "other")
    only_cert = _refused({tls.CERT: str(cert)})
    assert only_cert.setting == tls.KEY and "set both" in str(only_cert)
    missing = _refused({tls.CERT: str(tmp_path / "nope.pem"), tls.KEY: str(key)})
    assert missing.setting == tls.CERT and "no such file" in str(missing)
    swapped = _refused({tls.CERT: str(key), tls.KEY: str(cert)})
    assert swapped.setting == tls.CERT and "not a PEM certificate" in str(swapped)
    mismatched = _refused({tls.CERT: str(cert), tls.KEY: str(other_key)})
    assert mismatched.setting == tls.KEY and "is not the private key of the certificate" in str(mismatched)
    folder = tmp_path / "cert.pem"
    folder.mkdir()
    assert "no such file" in str(_refused({tls.CERT: str(folder), tls.KEY: str(key)}))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_key_is_named(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    key.chmod(0)
    refused = _refused({tls.CERT: str(cert), tls.KEY: str(key)})
    assert refused.setting == tls.KEY and "cannot read" in str(refused)


def test_with_a_certificate_the_slips_use_the_https_lan_address() -> None:
    from taikai.cli.serve import venue_address

    assert venue_address("", ["192.168.1.10"], 8443, "https") == "https://192.168.1.10:8443"
    assert venue_address("https://taikai.example.jp", ["192.168.1.10"], 8443, "https") == "https://taikai.example.jp"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(tmp_path: Path, port: int, **extra: str) -> subprocess.Popen[str]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("TAIKAI_")},
        "PYTHONPATH": str(SRC),
        "TAIKAI_VAR_DIR": str(tmp_path / "var"),
        "TAIKAI_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}",
        "TAIKAI_FIRST_USER": "organizer-tls",
        **extra,
    }
    command = [sys.executable, "-c", "import sys; from taikai.cli import main; sys.exit(main())"]
    return subprocess.Popen(
        [*command, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_serve_refuses_a_mismatched_key_before_starting_and_says_how_to_get_a_certificate(tmp_path: Path) -> None:
    cert, _key = _certificate(tmp_path)
    _other, other_key = _certificate(tmp_path, "other")
    proc = _serve(tmp_path, _free_port(), TAIKAI_TLS_CERT=str(cert), TAIKAI_TLS_KEY=str(other_key))
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "TAIKAI_TLS_KEY" in out and "is not the private key" in out
    assert "mkcert" in out and "Let's Encrypt" in out
    assert not (tmp_path / "serve.sqlite3").exists()  # refused before any migration


def test_serve_answers_over_https_with_the_organizers_certificate(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    port = _free_port()
    proc = _serve(tmp_path, port, TAIKAI_TLS_CERT=str(cert), TAIKAI_TLS_KEY=str(key))
    try:
        trusted = ssl.create_default_context(cafile=str(cert))  # a phone that trusts this certificate
        deadline, answer = time.monotonic() + 120, None
        while answer is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                answer = httpx.get(f"https://127.0.0.1:{port}/login/", verify=trusted, timeout=5)
            except httpx.TransportError:
                time.sleep(0.5)
        assert answer is not None, "taikai serve did not answer over https"
        assert answer.status_code == 200 and "taikai" in answer.text
        assert answer.url.scheme == "https"
        with pytest.raises(httpx.TransportError):  # the same port speaks no plain http
            httpx.get(f"http://127.0.0.1:{port}/login/", timeout=5)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert f"serving on https://127.0.0.1:{port}/" in out
    assert "HTTPS with" in out and "phones keep an offline copy" in out


def test_the_console_says_what_phones_get_without_https_and_with_a_certificate_for_another_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from taikai.cli.serve import _say_offline_copy

    _say_offline_copy(None, "http://192.168.1.10:8000")
    out = capsys.readouterr().out
    assert "a reload without Wi-Fi" in out and "このページを開いたままにしてください" in out and "mkcert" in out
    cert, key = _certificate(tmp_path)
    found = tls.load({tls.CERT: str(cert), tls.KEY: str(key)})
    _say_offline_copy(found, "https://192.168.1.10:8000")
    out = capsys.readouterr().out
    assert "the certificate is not for 192.168.1.10" in out and "TAIKAI_PUBLIC_URL" in out
