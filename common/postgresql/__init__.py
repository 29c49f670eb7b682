"""Django's PostgreSQL backend with a cheaper health check (``base.DatabaseWrapper``)."""
