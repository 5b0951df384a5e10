"""HTTPS for `taikai serve` with a certificate the organizer supplies (TAIKAI_TLS_CERT, TAIKAI_TLS_KEY).

Phones keep an offline copy of their page (a service worker) only over HTTPS or on localhost; at a venue the
laptop's plain-http LAN address gets none. Both files are checked before anything starts, and a bad one stops
start-up naming the variable and what is wrong (missing, unreadable, not a PEM certificate or key, or a key
that is not the certificate's).
"""

from __future__ import annotations

import datetime as dt
import ssl
from dataclasses import dataclass
from pathlib import Path

from taikai.config import ConfigError

CERT, KEY = "TAIKAI_TLS_CERT", "TAIKAI_TLS_KEY"

HOW_TO = (
    "HTTPS の証明書 / a certificate for HTTPS (README, “HTTPS at the venue”):\n"
    "  - a real domain name (e.g. taikai.example.jp → this laptop's LAN address) with a certificate from\n"
    "    Let's Encrypt (DNS challenge): every phone opens it without a warning;\n"
    "  - or mkcert for the LAN address (mkcert 192.168.1.10): only devices that installed mkcert's root\n"
    "    certificate trust it, other phones see a warning page (接続はプライベートではありません).\n"
    f"  then: {CERT}=cert.pem {KEY}=key.pem taikai serve"
)


@dataclass(frozen=True)
class Tls:
    cert: Path
    key: Path
    names: tuple[str, ...]  # the host names and addresses the certificate is for ("" when unreadable here)
    not_after: dt.datetime | None


def load(env: dict[str, str]) -> Tls | None:
    """The certificate and key to serve HTTPS with, checked; None when neither variable is set."""
    cert_name, key_name = env.get(CERT, "").strip(), env.get(KEY, "").strip()
    if not cert_name and not key_name:
        return None
    if not cert_name or not key_name:
        missing = CERT if not cert_name else KEY
        raise ConfigError(missing, f"set both {CERT} and {KEY} (the certificate and its private key), or neither")
    cert, key = _readable(CERT, cert_name, "CERTIFICATE"), _readable(KEY, key_name, "PRIVATE KEY")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(str(cert), str(key))
    except ssl.SSLError as exc:
        if "KEY_VALUES_MISMATCH" in str(exc) or "key values mismatch" in str(exc):
            raise ConfigError(KEY, f"{key} is not the private key of the certificate {cert}") from exc
        raise ConfigError(CERT, f"{cert} and {key} cannot be used together: {exc.reason or exc}") from exc
    names, not_after = _described(cert)
    return Tls(cert, key, names, not_after)


def _readable(variable: str, name: str, kind: str) -> Path:
    path = Path(name).expanduser()
    if not path.is_file():
        raise ConfigError(variable, f"no such file: {path}")
    try:
        text = path.read_text(encoding="ascii", errors="replace")
    except OSError as exc:
        raise ConfigError(variable, f"cannot read {path}: {exc.strerror or exc}") from exc
    if f"-----BEGIN {kind}-----" not in text and not (
        kind == "PRIVATE KEY" and "PRIVATE KEY-----" in text  # RSA PRIVATE KEY, EC PRIVATE KEY
    ):
        raise ConfigError(variable, f"{path} is not a PEM {kind.lower()} (-----BEGIN {kind}-----)")
    return path


def _described(cert: Path) -> tuple[tuple[str, ...], dt.datetime | None]:
    """The names a certificate covers and its end, read by the ssl module's decoder (no other package)."""
    try:
        info = ssl._ssl._test_decode_cert(str(cert))  # type: ignore[attr-defined]
    except (ssl.SSLError, OSError, AttributeError):
        return (), None
    names = tuple(value for _kind, value in info.get("subjectAltName", ()))
    end = info.get("notAfter")
    return names, dt.datetime.fromtimestamp(ssl.cert_time_to_seconds(end), dt.UTC) if end else None


def covers(tls: Tls, host: str) -> bool:
    """Whether the certificate names ``host`` (a wildcard covers one label); True when its names are unknown."""
    if not tls.names:
        return True
    for name in tls.names:
        if name.lower() == host.lower():
            return True
        if name.startswith("*.") and host.lower().partition(".")[2] == name[2:].lower():
            return True
    return False
