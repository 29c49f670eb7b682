"""The event log's text columns lose the length in their type and keep it as a check (issue 29): the same
limits (100, 100, 150 and 200 characters), held by the database as before.

PostgreSQL's planner guesses a row's width from its columns' types while a table has no statistics (a new
database, before autovacuum has analysed it): with varchar(100) to varchar(200) it guessed rows about
six times wider than they are, so six times fewer rows, and read every page of a tailing reader
(``position > N ORDER BY position LIMIT 1000``) by scanning and sorting the whole table instead of
walking the primary key. A varchar without a length is guessed at 32 bytes. On PostgreSQL dropping a
varchar's length rewrites neither the table nor the position and version indexes; the key's partial
index (migration 0013), whose condition names the column, is built again (it holds only keyed rows).
"""

import django.db.models.functions.text
import django.db.models.lookups
import scoring.models
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0013_append_events_lighter'),
    ]

    operations = [
        migrations.AlterField(
            model_name='storedevent',
            name='event_type',
            field=scoring.models.CheckedCharField(max_length=100),
        ),
        migrations.AlterField(
            model_name='storedevent',
            name='idempotency_key',
            field=scoring.models.CheckedCharField(blank=True, max_length=200, null=True),
        ),
        migrations.AlterField(
            model_name='storedevent',
            name='recorded_by',
            field=scoring.models.CheckedCharField(blank=True, default='', max_length=150),
        ),
        migrations.AlterField(
            model_name='storedevent',
            name='stream_id',
            field=scoring.models.CheckedCharField(max_length=100),
        ),
        migrations.AddConstraint(
            model_name='storedevent',
            constraint=models.CheckConstraint(condition=django.db.models.lookups.LessThanOrEqual(django.db.models.functions.text.Length('stream_id'), 100), name='storedevent_stream_id_length'),
        ),
        migrations.AddConstraint(
            model_name='storedevent',
            constraint=models.CheckConstraint(condition=django.db.models.lookups.LessThanOrEqual(django.db.models.functions.text.Length('event_type'), 100), name='storedevent_event_type_length'),
        ),
        migrations.AddConstraint(
            model_name='storedevent',
            constraint=models.CheckConstraint(condition=django.db.models.lookups.LessThanOrEqual(django.db.models.functions.text.Length('recorded_by'), 150), name='storedevent_recorded_by_length'),
        ),
        migrations.AddConstraint(
            model_name='storedevent',
            constraint=models.CheckConstraint(condition=django.db.models.lookups.LessThanOrEqual(django.db.models.functions.text.Length('idempotency_key'), 200), name='storedevent_idempotency_key_length'),
        ),
    ]
