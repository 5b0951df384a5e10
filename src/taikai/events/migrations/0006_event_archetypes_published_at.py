from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('events', '0005_registration_closing_and_top_cut_declines'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='archetypes_published_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
