"""Loaded by pytest before Django starts (``-p segnapunti.testing`` in pyproject's addopts).

The suite runs with the development settings, as ``make run`` does (``DEBUG=true`` at import: the
development secret key, local host names, plain HTTP); pytest-django still runs every test with
``settings.DEBUG`` off, so error pages are the production ones. The tests of the safe defaults import
the settings in a fresh interpreter with exactly the variables they choose.
"""

import os

if not os.environ.get("DEBUG"):
    os.environ["DEBUG"] = "true"

# The suite reads its pages in English, the language of a visitor whose browser asks for none (a club
# may choose it, as this does); the tests of languages ask for theirs, as a browser does.
os.environ["LANGUAGE_CODE"] = "en"

# The compiled catalogues match their .po files, even when a test run follows an edit without `make`.
from segnapunti.catalogues import compile_stale  # noqa: E402

compile_stale()
