# ApiToken moved to the tokens app and Webhook to the webhooks app (issue 28): only Django's idea of which app
# owns them changes. Their tables (taikai_api_apitoken, taikai_api_webhook) and rows stay; the new owners name them
# with db_table and create nothing. Their content types move too, so permissions given on them stay attached.

from typing import Any

from django.db import migrations

MOVED = {"apitoken": "tokens", "webhook": "webhooks"}  # model -> its new app


def _move_content_types(apps: Any, schema_editor: Any, *, back: bool = False) -> None:
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    for model, app in MOVED.items():
        old, new = (app, "taikai_api") if back else ("taikai_api", app)
        if not content_types.filter(app_label=new, model=model).exists():  # else Django made the new one already
            content_types.filter(app_label=old, model=model).update(app_label=new)


def _forward(apps: Any, schema_editor: Any) -> None:
    _move_content_types(apps, schema_editor)


def _back(apps: Any, schema_editor: Any) -> None:
    _move_content_types(apps, schema_editor, back=True)


class Migration(migrations.Migration):
    dependencies = [
        ("taikai_api", "0005_archetypes_and_prize_publication_moved"),
        ("contenttypes", "0002_remove_content_type_name"),
        # the new owners take the models over first, so no state is ever without them
        ("tokens", "0001_initial"),
        ("webhooks", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="ApiToken"),
                migrations.DeleteModel(name="Webhook"),
            ],
            database_operations=[],
        ),
        migrations.RunPython(_forward, _back),
    ]
