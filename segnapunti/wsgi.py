"""WSGI entry point."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "segnapunti.settings")
os.environ["SEGNAPUNTI_SERVES"] = "1"  # serving: SECRET_KEY is required with DEBUG off

application = get_wsgi_application()
