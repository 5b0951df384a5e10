# PrizePublication moved here from the API app (issue 28): the table taikai_api_prizepublication and its rows
# stay as they are; this migration only tells Django the model is now this app's (taikai_api 0005 lets go of it).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("taikai_api", "0004_webhook_disabling"),  # the table exists
        ("events", "0011_match_ruling"),
        ("judging", "0004_judgecall_ruling_and_extended_seconds"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="PrizePublication",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID"),
                        ),
                        ("published_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "event",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="prize_publication",
                                to="events.event",
                            ),
                        ),
                        (
                            "published_by",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={"db_table": "taikai_api_prizepublication"},
                ),
            ],
            database_operations=[],
        ),
    ]
