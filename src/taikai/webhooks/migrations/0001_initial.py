# Webhook moved here from the API app (issue 28): the table taikai_api_webhook and its rows stay as they are;
# this migration only tells Django the model is now this app's (taikai_api 0006 lets go of it and moves its
# content type, so permissions given on it stay).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("taikai_api", "0005_archetypes_and_prize_publication_moved"),  # the table exists
        ('events', '0013_merge_0012_announcement_0012_event_imported_copy'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Webhook',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('url', models.URLField(max_length=500)),
                        ('secret', models.CharField(max_length=64)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('active', models.BooleanField(default=True)),
                        ('last_entry_id', models.BigIntegerField(default=0)),
                        ('failures', models.PositiveSmallIntegerField(default=0)),
                        ('next_attempt_at', models.DateTimeField(blank=True, null=True)),
                        ('delivered', models.PositiveIntegerField(default=0)),
                        ('skipped', models.PositiveIntegerField(default=0)),
                        ('last_error', models.CharField(blank=True, max_length=300)),
                        ('gave_up_in_row', models.PositiveIntegerField(default=0)),
                        ('disabled_at', models.DateTimeField(blank=True, null=True)),
                        ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='webhooks', to='events.event')),
                    ],
                    options={
                        'db_table': 'taikai_api_webhook',
                        'ordering': ['id'],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
