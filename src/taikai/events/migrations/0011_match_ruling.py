from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0010_merge_round_plan_and_notices"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="ruling",
            field=models.CharField(blank=True, max_length=32),
        ),
    ]
