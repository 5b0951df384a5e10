# DeckArchetype moved here from the API app (issue 28): the table taikai_api_deckarchetype and its rows stay as
# they are; this migration only tells Django the model is now this app's (taikai_api 0005 lets go of it).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("taikai_api", "0004_webhook_disabling"),  # the table exists
        ("decks", "0004_deck_format_omega_code"),
        ("events", "0011_match_ruling"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DeckArchetype",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID"),
                        ),
                        ("name", models.CharField(max_length=60, verbose_name="deck archetype")),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "player",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE, related_name="archetype", to="events.player"
                            ),
                        ),
                    ],
                    options={"db_table": "taikai_api_deckarchetype"},
                ),
            ],
            database_operations=[],
        ),
    ]
