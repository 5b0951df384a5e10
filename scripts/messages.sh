#!/usr/bin/env bash
# Extract translatable strings of the named apps (default: every app with a locale/ folder), fill known Japanese texts from
# scripts/ja*.tsv, and compile. Review the .po files afterwards for entries still empty.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export DJANGO_SETTINGS_MODULE=taikai.settings TAIKAI_VAR_DIR="${TAIKAI_VAR_DIR:-/tmp/taikai-messages}"
admin="$root/.venv/bin/django-admin"
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=($(cd "$root/src/taikai" && ls -d */locale | cut -d/ -f1))
for name in "${apps[@]}"; do
  app="$root/src/taikai/$name"
  loc="$app/locale"
  (cd "$app" && "$admin" makemessages -l ja --no-obsolete --no-location -v0)
  po="$loc/ja/LC_MESSAGES/django.po"
  sed -i 's/"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"/"Plural-Forms: nplurals=1; plural=0;\\n"/; s/charset=CHARSET/charset=UTF-8/' "$po"
  for tsv in "$root"/scripts/ja*.tsv; do "$root/.venv/bin/python" "$root/scripts/po_fill.py" "$po" "$tsv"; done
  touch "$po"  # compilemessages skips a .mo newer than its .po (a merge or checkout makes it so)
  (cd "$app" && "$admin" compilemessages -v0)
  awk '/^msgid "/{id=$0} /^msgstr ""$/{getline nx; if (nx !~ /^"/ && id != "msgid \"\"") print FILENAME": untranslated: "id}' "$po" || true
done
