#!/usr/bin/env bash
# Quick start: installs what is needed and starts Paraph on the embedded defaults (SQLite and files
# under ./data, mail kept in the outbox). The first start prints the default account's keys once.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-tools.sh
bash scripts/install.sh
use_checkout_node
exec node bin/paraph.mjs serve "$@"
