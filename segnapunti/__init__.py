"""Segnapunti: score sheets and tournaments for traditional card games."""

# Importing the Celery app here makes `@shared_task` bind to it whenever Django starts.
from segnapunti.celery import app as celery_app

__all__ = ["celery_app"]
