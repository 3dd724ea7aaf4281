#!/usr/bin/env bash
# Runs a command under a given supported Node.js line, from the same checkout and node_modules:
#   bash scripts/with-node.sh 24 npm test --silent -- sqlite
# The release comes from the npm registry (scripts/node-tools.sh). No rebuild is needed: the only
# native addon, better-sqlite3 13, is a Node-API module, whose one build runs on every line.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-tools.sh

line="${1:?usage: with-node.sh 22|24 COMMAND...}"
shift
case "$line" in
  22) version=$NODE_22 ;;
  24) version=$NODE_24 ;;
  *) echo "with-node.sh: Paraph supports Node.js 22 and 24, not $line" >&2; exit 2 ;;
esac
home=$(node_home "$version")
printf '\033[1m[node %s]\033[0m %s\n' "$version" "$*" >&2
PATH="$home/bin:$PATH" exec "$@"
