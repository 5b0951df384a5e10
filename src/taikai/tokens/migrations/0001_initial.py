# ApiToken moved here from the API app (issue 28): the table taikai_api_apitoken and its rows stay as they are;
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
                    name='ApiToken',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('organizer', 'Organizer'), ('head_judge', 'Head judge'), ('organizer_head_judge', 'Organizer and head judge'), ('judge', 'Judge')], max_length=20, verbose_name='role')),
                        ('label', models.CharField(blank=True, max_length=100, verbose_name='label')),
                        ('prefix', models.CharField(max_length=12)),
                        ('token_hash', models.CharField(max_length=64, unique=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('revoked_at', models.DateTimeField(blank=True, null=True)),
                        ('last_used_at', models.DateTimeField(blank=True, null=True)),
                        ('expires_at', models.DateTimeField(blank=True, null=True)),
                        ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('event', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to='events.event')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='api_tokens', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'taikai_api_apitoken',
                        'ordering': ['-created_at', '-id'],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
