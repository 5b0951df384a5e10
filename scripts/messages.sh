#!/usr/bin/env bash
# Extract translatable strings of every app that has a locale/ folder, fill known Japanese texts from
# scripts/ja.tsv, and compile. Review the .po files afterwards for entries still empty.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export DJANGO_SETTINGS_MODULE=taikai.settings TAIKAI_VAR_DIR="${TAIKAI_VAR_DIR:-/tmp/taikai-messages}"
admin="$root/.venv/bin/django-admin"
for loc in "$root"/src/taikai/*/locale; do
  app="$(dirname "$loc")"
  (cd "$app" && "$admin" makemessages -l ja --no-obsolete --no-location -v0)
  po="$loc/ja/LC_MESSAGES/django.po"
  sed -i 's/"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"/"Plural-Forms: nplurals=1; plural=0;\\n"/; s/charset=CHARSET/charset=UTF-8/' "$po"
  "$root/.venv/bin/python" "$root/scripts/po_fill.py" "$po" "$root/scripts/ja.tsv"
  (cd "$app" && "$admin" compilemessages -v0)
  missing=$(grep -c -A1 '^msgid "[^"]' "$po" | true)
  awk '/^msgid "/{id=$0} /^msgstr ""$/{if (id != "msgid \"\"") print FILENAME": untranslated: "id}' "$po"
done
