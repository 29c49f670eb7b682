"""Settings, read from environment variables.

Safe by default: DEBUG is off unless DEBUG=true is set (``make run`` and the test suite set it), so an
error never shows a debug page, a SECRET_KEY is required, and the site expects HTTPS (secure cookies,
HSTS, redirect to https) unless HTTPS=false says it is served in plain HTTP on a club's own network.
Every other variable has a default that needs no services at all: SQLite in the project folder, Celery
tasks run eagerly in-process. PostgreSQL is one variable (DATABASE_URL), a real broker another
(CELERY_BROKER_URL). A malformed value stops start-up with ImproperlyConfigured rather than being
guessed at.
"""

import ipaddress
import os
import secrets
import sys
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Lets the typed generics of django-stubs (ModelAdmin[Club] and the like) be subscripted at run time.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def envstr(name: str, default: str) -> str:
    """The variable's value, or `default` when it is unset or empty."""
    return os.environ.get(name) or default


def envbool(name: str, default: bool) -> bool:
    """A boolean variable: 1/true/yes/on or 0/false/no/off, any case; anything else is an error."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={os.environ[name]!r} is not a boolean (use true or false)")


def envint(name: str, default: int) -> int:
    """An integer variable; anything that is not an integer is an error."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None


def envlist(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks around items are dropped."""
    raw = os.environ.get(name, "")
    if not raw.strip():
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = envbool("DEBUG", False)

_DEV_SECRET_KEY = "dev-only-insecure-key-never-use-in-production"
# What serves requests or runs tasks (gunicorn through segnapunti.wsgi, the Celery worker, runserver) must
# be given its SECRET_KEY when DEBUG is off. A command run by hand on the server (replay, verify_log,
# export_record...) signs nothing a visitor sees: it takes a key kept in LOCAL_SECRET_KEY_FILE, made on
# first use, so that the README's commands run as written.
SERVES = (
    os.environ.get("SEGNAPUNTI_SERVES") == "1"  # set by segnapunti.wsgi and .asgi
    or Path(sys.argv[0]).name == "celery"
    or sys.argv[1:2] == ["runserver"]
)
LOCAL_SECRET_KEY_FILE = Path(envstr("LOCAL_SECRET_KEY_FILE", str(BASE_DIR / ".secret_key")))


def _local_secret_key(path: Path) -> str:
    """The key in `path`, made (random, readable by its owner only) when the file does not exist yet."""
    try:
        if not path.exists():
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_urlsafe(50))
        key = path.read_text().strip()
    except FileExistsError:  # made by another process meanwhile
        key = path.read_text().strip()
    except OSError as e:
        raise ImproperlyConfigured(f"SECRET_KEY is not set and {path} cannot be used: {e}") from None
    if not key:
        raise ImproperlyConfigured(f"SECRET_KEY is not set and {path} is empty")
    return key


SECRET_KEY = envstr("SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
# True when SECRET_KEY is that local key, not the service's: what is sealed for the service to read back
# (a finished hand's kept fold) is then not written, since the service could never open it.
SECRET_KEY_IS_LOCAL = not SECRET_KEY
if not SECRET_KEY:
    if SERVES:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = _local_secret_key(LOCAL_SECRET_KEY_FILE)

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])

# Served over HTTPS (by a proxy in front that terminates TLS and says so in X-Forwarded-Proto): on by
# default with DEBUG off. HTTPS=false for plain HTTP on a club's own network (then cookies are not
# marked secure and nothing is redirected: `manage.py check --deploy` says so).
HTTPS = envbool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from the project: /api/docs/ works with no internet
    "clubs",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    "segnapunti.middleware.ContentSecurityPolicy",
    "segnapunti.middleware.RequestSizeLimit",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the one chosen with the switch (a cookie), else the browser's Accept-Language
    # among LANGUAGES, else LANGUAGE_CODE.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "segnapunti.middleware.PageMessages",  # Django's MessageMiddleware, for the pages only
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# Every answer's Content-Security-Policy (segnapunti/middleware.py): scripts, styles, images and requests
# from the site itself only, nothing inline, no plugins, no framing, forms posted only to the site. The
# browser tests hold the pages to it (no violation reported).
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

ROOT_URLCONF = "segnapunti.urls"
WSGI_APPLICATION = "segnapunti.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def _database(url: str) -> dict[str, object]:
    try:
        db: dict[str, object] = dict(
            # Connections are kept between requests (a new one per request cost more than the query it
            # served) and checked before reuse, so a connection the server dropped is replaced, not used.
            dj_database_url.parse(
                url, conn_max_age=envint("DATABASE_CONN_MAX_AGE", 60), conn_health_checks=True
            )
        )
    except ValueError as e:
        raise ImproperlyConfigured(f"DATABASE_URL={url!r} is not usable: {e}") from None
    if db["ENGINE"] == "django.db.backends.sqlite3":
        # BEGIN IMMEDIATE takes SQLite's write lock when a transaction starts, so two appends to the
        # event store queue up instead of one failing with "database is locked" half-way through.
        db["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    elif db["ENGINE"] == "django.db.backends.postgresql":
        # A statement sent a second time on a connection is prepared on the server and then only bound and
        # run: no parse or plan per call. Only the event store's statements qualify (its cursors bind
        # their parameters on the server, scoring/log/store.py); Django's own cursors bind in the client
        # and are never prepared. Measured (issue 29): 75 us less of the server's processor per append.
        # The messages of a move's reads and append are prepared by common.rows.execute_message instead.
        options = db.get("OPTIONS")
        db["OPTIONS"] = {**(options if isinstance(options, dict) else {}), "prepare_threshold": 2}
        # Django's backend with a health check that looks at the socket instead of sending SELECT 1 on
        # each request (a round trip a move less; common/postgresql/base.py says what it gives up).
        db["ENGINE"] = "common.postgresql"
    return db


DATABASES = {"default": _database(envstr("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"))}

# The cache holds the throttles' counts, shared by every process that serves the site so that a rate is
# the same whichever process answers: in the database by default (the table CACHE_TABLE, created by a
# migration of clubs), in Redis when CACHE_URL names one.
CACHE_TABLE = "segnapunti_cache"
_CACHE_URL = envstr("CACHE_URL", "")
if _CACHE_URL and not _CACHE_URL.startswith(("redis://", "rediss://")):
    raise ImproperlyConfigured(f"CACHE_URL={_CACHE_URL!r} is not a Redis URL (redis://host:port/db)")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _CACHE_URL}
        if _CACHE_URL
        else {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": CACHE_TABLE,
            # Past MAX_ENTRIES the table is culled by key order, not by age: with Django's 300, a flood
            # of sign-ins from many addresses could cull a user name's count. Counts expire with their
            # minute, so the table holds at most a minute's attempts.
            "OPTIONS": {"MAX_ENTRIES": 1_000_000},
        }
    )
}

# The proxies whose X-Forwarded-For is believed (addresses or networks, comma-separated): the address a
# request is throttled by is the rightmost one of that header that none of them wrote. By default only
# this machine (a proxy such as nginx on the loopback in front of gunicorn); nothing else can claim an
# address by sending the header.
TRUSTED_PROXIES = envlist("TRUSTED_PROXIES", ["127.0.0.1", "::1"])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_proxy!r} is not an address or network") from None

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The site speaks Italian, French and English. LANGUAGE_CODE is the language of a visitor whose browser
# asks for none of them (a club may set another one); each catalogue is compiled by the install step.
LANGUAGES = [("it", "Italiano"), ("fr", "Français"), ("en", "English")]
LANGUAGE_CODE = envstr("LANGUAGE_CODE", "it")
if LANGUAGE_CODE not in dict(LANGUAGES):
    raise ImproperlyConfigured(f"LANGUAGE_CODE={LANGUAGE_CODE!r} is not one of {', '.join(dict(LANGUAGES))}")
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Rome"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

REST_FRAMEWORK = {
    # Token first: an API call without credentials then answers 401 with "WWW-Authenticate: Token".
    # The session serves the browsable docs and pages that call the API, with Django's CSRF check.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "scoring.api.auth.QuickTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "segnapunti.openapi.AutoSchema",
    # One error body for the whole API: {"code", "message", "field"} (scoring/api/errors.py).
    "EXCEPTION_HANDLER": "scoring.api.errors.exception_handler",
    # DRF's negotiation, answering a plain JSON client's Accept (none, */*, application/json) at once.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "common.negotiation.QuickContentNegotiation",
    # JSON read so that no body can crash a request (common/safejson.py).
    # JSON only: the API's bodies are nested (moves, records), which forms cannot carry; the token
    # endpoint alone also reads forms (scoring/api/login.py).
    "DEFAULT_PARSER_CLASSES": ["common.safejson.SafeJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # Per address and per user name for sign-ins (the page and the token endpoint together); per user for
    # checking records. Counted in the cache (CACHES), shared by the server's processes.
    "DEFAULT_THROTTLE_RATES": {
        "login": envstr("THROTTLE_LOGIN", "20/min"),
        "login_name": envstr("THROTTLE_LOGIN_NAME", "10/min"),
        "record_check": envstr("THROTTLE_RECORD_CHECK", "30/min"),
    },
}

# Request bodies: every request at most REQUEST_MAX_BYTES, the record endpoints RECORD_MAX_BYTES
# (segnapunti/middleware.py answers 413 beyond).
REQUEST_MAX_BYTES = envint("REQUEST_MAX_BYTES", 256 * 1024)
RECORD_MAX_BYTES = envint("RECORD_MAX_BYTES", 8 * 1024 * 1024)

SPECTACULAR_SETTINGS = {
    "TITLE": "Segnapunti API",
    "DESCRIPTION": "Score sheets and tournaments for traditional Italian and French card games.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,  # request bodies their own components: non-blank texts say so
    "ENUM_NAME_OVERRIDES": {"GameName": "scoring.api.views.GAME_NAMES"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "segnapunti.openapi.forbid_nul",
    ],  # the schema does not describe its own endpoint
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Ids in paths: at most nine digits (common/converters.py).
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 999_999_999}},
}

# Celery: with no broker configured, tasks run eagerly in the calling process (and errors propagate).
CELERY_TASK_ALWAYS_EAGER = not envstr("CELERY_BROKER_URL", "")
# In-process, no broker is ever reached; "memory://" only keeps Celery from looking for one.
CELERY_BROKER_URL = envstr("CELERY_BROKER_URL", "memory://")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = (
    envstr("CELERY_RESULT_BACKEND", CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "")
    or None
)
# A task is acknowledged once it has run, and handed back to the broker if the worker running it dies:
# the tasks are idempotent (tournaments/tasks.py), so a re-delivery is harmless and nothing is lost.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A web request that queues a task never waits long for a broker that is down: short connection
# timeouts and a bounded publish retry; the work is then left to the periodic catch-up.
CELERY_BROKER_CONNECTION_TIMEOUT = 2.0
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "max_retries": 2,
    # Redis: a task taken by a worker that died is handed out again after this many seconds.
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", 600),
}
# The result store (Redis) gives up as quickly when it is down (Celery's default is 20 retries, a second
# apart); Redis sockets time out rather than hang.
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
CELERY_REDIS_SOCKET_TIMEOUT = 5
CELERY_BEAT_SCHEDULE = {
    "tournaments-catch-up": {
        "task": "tournaments.tasks.catch_up",
        "schedule": envint("CATCH_UP_SECONDS", 300),
    },
}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
    # Tasks run in-process say nothing unless they fail; a worker logs each task as usual.
    "loggers": {"celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"}},
}

# Tournaments: the queue their tasks go to (empty: Celery's default queue), and how long the seating
# planner may search when a director opens a round.
TOURNAMENTS_QUEUE = envstr("TOURNAMENTS_QUEUE", "")
SEATING_BUDGET_SECONDS = float(envint("SEATING_BUDGET_SECONDS", 8))
