#!/usr/bin/env bash
# The whole suite: static checks, then every test on SQLite, then again on PostgreSQL when a server answers
# (with coverage printed, and a floor it must not fall below).
# `scripts/test.sh sqlite` or `scripts/test.sh postgres` runs the checks and one database (make test-sqlite,
# make test-postgres); postgres alone fails when no server answers.
set -uo pipefail
only="${1:-both}"
case "$only" in both|sqlite|postgres) ;; *) echo "usage: scripts/test.sh [sqlite|postgres]"; exit 2 ;; esac
cd "$(dirname "$0")/.."
BIN="${BIN:-.venv/bin}"
STAMP="${STAMP:-.venv/.installed}"
export TAIKAI_VAR_DIR="${TAIKAI_VAR_DIR:-$PWD/var/test}"
mkdir -p "$TAIKAI_VAR_DIR" test-artifacts

echo "== static checks (ruff, mypy --strict on src/taikai, import-layer contracts, no import circles) =="
make --no-print-directory check BIN="$BIN" STAMP="$STAMP" || exit 1

run_pytest() {
  # pytest exits 5 when it collects no tests: that is a failure of the suite, not a pass.
  "$BIN/pytest" "$@"
  local rc=$?
  if [ $rc -eq 5 ]; then echo "no tests were collected"; return 1; fi
  return $rc
}

ran=()
if [ "$only" != postgres ]; then
  echo "== tests on SQLite =="
  TAIKAI_DATABASE_URL="" run_pytest -q -n 2 --dist loadgroup || exit 1
  ran+=("SQLite")
fi
if [ "$only" = sqlite ]; then
  echo "== databases tested: ${ran[*]} =="
  exit 0
fi

PG_URL="${TAIKAI_TEST_POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/taikai}"
COVERAGE_FLOOR=86
if "$BIN/python" - "$PG_URL" <<'PY' 2>/dev/null
import sys, psycopg
from urllib.parse import urlparse
u = urlparse(sys.argv[1])
psycopg.connect(host=u.hostname, port=u.port or 5432, user=u.username, password=u.password,
                dbname="postgres", connect_timeout=3).close()
PY
then
  # Browser tests drive the same views and services already proven on SQLite; the PostgreSQL pass covers
  # every unit, property, service and API test.
  # Coverage is measured on this pass only (the shorter one; tracing the browser tests on SQLite would make the
  # suite much slower) and printed per module, fully covered ones left out, with the total last. The run fails
  # below COVERAGE_FLOOR percent of src/taikai's lines (no tests collected fails it too, as exit 1 with the
  # coverage message). The floor: the whole pass at 31a8546 (pytest-cov 6.0.0 / coverage 7.6.10, -n 2,
  # 2026-12-02) covered 89.7 % of 21,035 lines; the floor is a few points under it. Raise it as coverage grows.
  echo "== tests on PostgreSQL ($PG_URL), all but the browser tests, with coverage =="
  TAIKAI_DATABASE_URL="$PG_URL" run_pytest -q -n 2 --dist loadgroup -m "not sqlite_only and not browser" \
    --cov=taikai --cov-report=term:skip-covered --cov-fail-under="$COVERAGE_FLOOR" || exit 1
  ran+=("PostgreSQL")
elif [ -n "${TAIKAI_TEST_POSTGRES_URL:-}" ] || [ "$only" = postgres ]; then
  # A PostgreSQL server was asked for (by name, or make test-postgres): not finding it is a failure, never a quiet skip.
  echo "== PostgreSQL not reachable at TAIKAI_TEST_POSTGRES_URL=$PG_URL: failing =="
  exit 1
else
  echo "== PostgreSQL not reachable at $PG_URL: skipped the PostgreSQL run =="
fi
echo "== databases tested: ${ran[*]} =="
