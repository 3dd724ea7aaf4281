#!/usr/bin/env bash
# Installs what is needed, starts PostgreSQL and Redis if they are down, then runs every check:
# type check, lint, and the whole test suite once on SQLite and once on PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --services
echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
echo "== tests"; npm test --silent
