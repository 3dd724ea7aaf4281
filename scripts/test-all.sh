#!/usr/bin/env bash
# Installs what is needed, starts PostgreSQL and Redis if they are down, then runs every check: type
# check, lint, and the whole test suite on both supported Node.js lines and both databases — on
# PostgreSQL under the checkout's Node.js (the machine's, or 22 from .tools/node when the machine's
# is older), on SQLite under Node.js 24. Every test file runs on each database it can differ by and
# on each line it can differ by (scripts/test-plan.mjs): a file that reaches no database and starts
# no process runs once, on the SQLite pass (--once-on=sqlite); the four combinations in full would
# take twice CI's time budget.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-tools.sh
bash scripts/install.sh --services
use_checkout_node
echo "== Node.js $(node --version)"
echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
status=0
# Each pass appends its counts and failed tests here; the run ends on both (a CI log's tail).
recap="$(mktemp)"
trap 'rm -f "$recap"' EXIT
echo "== tests, Node.js $(node --version)"
PARAPH_TEST_RECAP="$recap" npm test --silent -- postgres --once-on=sqlite || status=1
echo "== tests, Node.js $NODE_24"
PARAPH_TEST_RECAP="$recap" bash scripts/with-node.sh 24 npm test --silent -- sqlite --once-on=sqlite || status=1
echo
echo "== recap of both passes"
cat "$recap"
if [ "$status" -ne 0 ]; then echo "== FAILED (see the failed tests above)"; else echo "== all passed"; fi
exit "$status"
