"""On PostgreSQL, a trigger rejects UPDATE and DELETE on the events table, whatever the client.

Row triggers only: TRUNCATE fires no row trigger, so test databases can still be flushed (pytest-django's
transactional tests truncate every table between tests). Nothing happens on other databases.
"""

from django.db import migrations

INSTALL = """
CREATE FUNCTION scoring_storedevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'scoring_storedevent is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER scoring_storedevent_append_only
    BEFORE UPDATE OR DELETE ON scoring_storedevent
    FOR EACH ROW EXECUTE FUNCTION scoring_storedevent_append_only();
"""

REMOVE = """
DROP TRIGGER IF EXISTS scoring_storedevent_append_only ON scoring_storedevent;
DROP FUNCTION IF EXISTS scoring_storedevent_append_only();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(INSTALL, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(REMOVE, params=None)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
