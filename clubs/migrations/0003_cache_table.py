"""The table of the database cache, where the throttles count by default (settings.CACHES).

Created whatever CACHES says now, so that a site moving from Redis to the default finds it there.
"""

from django.conf import settings
from django.core.management.commands.createcachetable import Command as CreateCacheTable
from django.db import migrations


def create(apps, schema_editor):
    command = CreateCacheTable()
    command.verbosity = 0
    command.create_table(schema_editor.connection.alias, settings.CACHE_TABLE, dry_run=False)


def drop(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(settings.CACHE_TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("clubs", "0002_tables")]

    operations = [migrations.RunPython(create, drop)]
