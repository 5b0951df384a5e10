# DeckArchetype moved to the decks app and PrizePublication to judging (issue 28): only Django's idea of which
# app owns them changes. Their tables (taikai_api_deckarchetype, taikai_api_prizepublication) and rows stay;
# the new owners name them with db_table and create nothing.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("taikai_api", "0004_webhook_disabling"),
        # the new owners take the models over first, so no state is ever without them
        ("decks", "0005_deckarchetype"),
        ("judging", "0005_prizepublication"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="DeckArchetype"),
                migrations.DeleteModel(name="PrizePublication"),
            ],
            database_operations=[],
        ),
    ]
