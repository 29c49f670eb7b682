# `make run` and `make test` each set up what they need first: a .venv with the project installed.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

.PHONY: install catalogues messages run serve proxy test browser lint typecheck pytest bench worker constraints schema

install: $(INSTALLED) catalogues

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall whenever the dependencies change; constraints.txt pins the versions last tested.
$(INSTALLED): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]' -c constraints.txt
	touch $@

# The translations (Italian, French, English): each catalogue whose .po file changed is compiled, with
# Babel (a Python package, so no system tool is needed). The compiled .mo files are not committed.
catalogues: $(INSTALLED)
	$(BIN)/python -m segnapunti.catalogues compile

# For developers, after changing a text: gather every marked string into the .po files (needs GNU
# gettext's xgettext), then translate the new entries and run `make test`.
messages: export DEBUG ?= true
messages: install
	$(BIN)/python manage.py makemessages -l it -l fr -l en --no-wrap --no-location --no-obsolete
	$(BIN)/python -m segnapunti.catalogues tidy
	$(BIN)/python -m segnapunti.catalogues check || true

# The API's OpenAPI schema as committed (docs/openapi.yaml, in English): a test holds the API to it, so
# that an API change shows in review. Run after changing the API on purpose.
schema: export DEBUG ?= true
schema: install
	$(BIN)/python manage.py spectacular --lang en --file docs/openapi.yaml

# Local development: DEBUG on (the settings are safe by default: off). `make run PORT=8001` for another port.
PORT ?= 8000
run: export DEBUG ?= true
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Production serving: nginx in front of gunicorn (deploy/serve, deploy/nginx.conf), with the settings from
# the environment (see the README's production part). With DATABASE_OWNER_URL set, migrations run as that owner, which then grants the service's own role
# (the user of DATABASE_URL) no more than it needs: SELECT and INSERT only on the event log.
serve: install proxy
	@if [ -n "$$DATABASE_OWNER_URL" ]; then \
	  DATABASE_URL="$$DATABASE_OWNER_URL" $(BIN)/python manage.py migrate --noinput && \
	  DATABASE_URL="$$DATABASE_OWNER_URL" $(BIN)/python manage.py grant_app_role --user-of "$$DATABASE_URL"; \
	else $(BIN)/python manage.py migrate --noinput; fi
	$(BIN)/python manage.py collectstatic --noinput -v 0
	BIN=$(BIN) exec deploy/serve

# nginx, the buffering proxy `make serve` puts in front of gunicorn, from Debian: installed here when it
# is missing and apt can (as root); otherwise `make serve` runs gunicorn alone, warning, and the
# slow-client test is skipped, saying why.
proxy:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || apt-get install -y -q nginx >/dev/null 2>&1 \
	  || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q nginx >/dev/null 2>&1; } \
	  || echo "nginx is not installed (apt install nginx): make serve runs gunicorn alone"

test: install browser proxy lint typecheck pytest

# The browser tests drive Debian's chromium (no browser download): installed here when it is missing and
# apt can (as root); otherwise those tests are skipped, saying why.
browser:
	@command -v chromium >/dev/null 2>&1 || apt-get install -y -q chromium >/dev/null 2>&1 \
	  || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; } \
	  || echo "chromium is not installed (apt install chromium): the browser tests will be skipped"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check --quiet .
	$(BIN)/lint-imports --no-cache

# mypy's Django plugin loads the settings: the development ones.
typecheck: export DEBUG ?= true
typecheck: install
	$(BIN)/mypy

pytest: install
	$(BIN)/pytest

bench: install
	$(BIN)/python bench/bench_engine.py
	$(BIN)/python bench/bench_store.py
	$(BIN)/python bench/bench_seating.py
	$(BIN)/python bench/bench_standings.py

# -B: the worker also runs the beat (the periodic catch-up of standings and ratings).
worker: install
	$(BIN)/celery -A segnapunti worker -B --loglevel=INFO

constraints: install
	{ sed -n '1,2p' constraints.txt; $(BIN)/python -m pip freeze --exclude-editable; } > constraints.tmp
	mv constraints.tmp constraints.txt
