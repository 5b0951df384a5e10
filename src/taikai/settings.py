"""Django settings, all from taikai.config (TAIKAI_* environment variables)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from taikai import config as _config

try:
    CONFIG = _config.load()
except _config.ConfigError as exc:  # a bad setting stops start-up, naming the setting
    sys.stderr.write(f"taikai: configuration error: {exc}\n")
    raise SystemExit(2) from exc
try:
    LIMITS = _config.load_limits()  # body caps, trusted proxies, PIN length: SECURITY.md
except _config.ConfigError as exc:
    sys.stderr.write(f"taikai: configuration error: {exc}\n")
    raise SystemExit(2) from exc
try:
    WEBHOOKS = _config.load_webhooks()  # allowed internal destinations, deadline, workers: SECURITY.md
    SERVER_LIMITS = _config.load_server_limits()  # header deadline, connections, CSV rows: SECURITY.md
except _config.ConfigError as exc:
    sys.stderr.write(f"taikai: configuration error: {exc}\n")
    raise SystemExit(2) from exc

# The bench's measuring sticks (a no-op report, a bare ASGI answer: taikai.api.bench_ops, taikai.asgi); only
# `python -m taikai.bench` starts servers with it, never a venue
BENCH_ENDPOINTS = os.environ.get("TAIKAI_BENCH_ENDPOINTS") == "1"

PACKAGE_DIR = Path(__file__).resolve().parent
VAR_DIR = CONFIG.var_dir
# The database, its WAL, the backups and the secret key are for this account only: files 0600, folders 0700.
os.umask(0o077)
VAR_DIR.mkdir(parents=True, exist_ok=True)
VAR_DIR.chmod(0o700)
SECRET_KEY = CONFIG.secret_key
# Who this server is, for records it exports (the violator database): the same for every web process that
# shares the secret key, whatever host name a request used.
SERVER_ID = __import__("hashlib").sha256(f"taikai.server-id:{SECRET_KEY}".encode()).hexdigest()[:16]
DEBUG = CONFIG.debug
ALLOWED_HOSTS = CONFIG.allowed_hosts
# The address phones use for everything shared with players (slips, QR codes): TAIKAI_PUBLIC_URL, else the
# LAN address `taikai serve` found (TAIKAI_LAN_URL, set for its workers); see taikai.events.venue.
TAIKAI_PUBLIC_URL = CONFIG.public_url
TAIKAI_LAN_URL = CONFIG.lan_url

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "taikai.audit",
    "taikai.cards",
    "taikai.events",
    "taikai.decks",
    "taikai.judging",
    "taikai.tokens",
    "taikai.webhooks",
    "taikai.follow",
    "taikai.api",
    "taikai.security",
    "taikai.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "taikai.web.middleware.LanguageMiddleware",
    "taikai.web.diskfull.DiskFullMiddleware",  # a write refused for lack of space: a clear page, not a 500
    "taikai.web.middleware.RejectNulMiddleware",
    "taikai.web.middleware.BoundedIdsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "taikai.security.throttle.ThrottleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "taikai.urls"
WSGI_APPLICATION = "taikai.wsgi.application"
ASGI_APPLICATION = "taikai.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]


def _database(url: str) -> dict[str, object]:
    db: dict[str, object] = dict(dj_database_url.parse(url, conn_max_age=0))
    # Requests run on a fixed pool of threads (TAIKAI_THREADS per process, see taikai.asgi), so keeping
    # each thread's connection open is bounded; live streams share one thread per process.
    db["CONN_MAX_AGE"] = 300
    db["CONN_HEALTH_CHECKS"] = True
    if db["ENGINE"] == "django.db.backends.sqlite3":
        db["ENGINE"] = "taikai.db.sqlite"  # writers take turns on a lock instead of polling (see its docstring)
        Path(str(db["NAME"])).parent.mkdir(parents=True, exist_ok=True)
        # WAL lets readers work while one writer writes; IMMEDIATE takes the write lock at BEGIN so
        # concurrent writers queue on the busy timeout instead of failing with "database is locked".
        db["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 30,
            # temp_store=MEMORY: sorting for a page needs no temporary file, so reads work with the disk full.
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA temp_store=MEMORY;"
            ),
        }
        db["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
    elif db["ENGINE"] == "django.db.backends.postgresql":
        # psycopg's pool: a request borrows a connection and gives it back when it ends, so a process holds as
        # many as it has requests in flight (at most its threads and the live streams' one), ready and checked.
        threads = _config.load_limits().threads
        db["CONN_MAX_AGE"] = 0  # the pool keeps them open (Django refuses persistent connections with a pool)
        # All of them opened at start and kept: a burst never waits while the pool opens one more (opening a
        # PostgreSQL connection takes longer than a whole result report).
        pool = {"min_size": threads + 1, "max_size": threads + 1, "timeout": 10}
        db["OPTIONS"] = {**dict(db.get("OPTIONS") or {}), "pool": pool}  # type: ignore[call-overload]
    return db


DATABASES = {"default": _database(CONFIG.database_url)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Rendered public pages are cached per process, keyed by what they show (a round's version, the event's
# last change), so a stale page is never served and no shared cache server is needed.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "taikai",
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }
}

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "taikai.security.hashers.PinHasher",  # players' PINs only (make_password(pin, hasher=PIN_HASHER))
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

SESSION_COOKIE_AGE = 60 * 60 * 12  # one event day
# Database sessions, held in a signed cookie while the disk is full so that staff can still sign in.
SESSION_ENGINE = "taikai.security.sessions"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if CONFIG.https:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 30

LANGUAGE_CODE = "ja"
LANGUAGES = [("ja", _("Japanese")), ("en", _("English"))]
LOCALE_PATHS = [PACKAGE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "taikai_language"
USE_I18N = True
USE_TZ = True
TIME_ZONE = CONFIG.time_zone

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = DEBUG

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # players' links masked, repeated client errors thinned out (taikai.security.logs, SECURITY.md)
    "filters": {"private_links": {"()": "taikai.security.logs.PrivateLinks"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["private_links"]}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
