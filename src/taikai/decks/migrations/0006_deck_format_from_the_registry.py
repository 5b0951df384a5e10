# The deck format is a name from taikai.cards.deck_formats.FORMATS (issue 28): no choices on the field, so a new
# format is its module and its registry entry, with no migration.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0005_deckarchetype'),
    ]

    operations = [
        migrations.AlterField(
            model_name='deckregistration',
            name='format',
            field=models.CharField(max_length=10),
        ),
        migrations.AlterField(
            model_name='rejecteddecklist',
            name='format',
            field=models.CharField(max_length=10),
        ),
    ]
