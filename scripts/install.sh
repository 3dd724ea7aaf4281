#!/usr/bin/env bash
# Installs what Paraph needs on a fresh Debian machine, then builds it once (npm run build).
#   scripts/install.sh             system packages, Node.js 22+ if the machine's is older, npm dependencies, the build
#   scripts/install.sh --services  also starts PostgreSQL and Redis for the test suite if they are down
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-tools.sh

say() { printf '\033[1m[install]\033[0m %s\n' "$*"; }

# Node.js 22 or 24. An older machine Node.js (20 is end of life) is left alone: Node.js 22 comes from
# the npm registry into .tools/node, which bin/paraph.mjs, npm test and the scripts use instead.
if [ "$(node_major)" -lt "$NODE_MIN_MAJOR" ]; then
  home=$(node_home "$NODE_22")
  ln -sfn "node-$NODE_22" .tools/node
  say "Node.js $(node --version 2>/dev/null || echo '(none)') is older than $NODE_MIN_MAJOR: using $NODE_22 from .tools/node"
else
  rm -f .tools/node
fi
use_checkout_node
ensure_npm

# System packages, installed only when missing: qpdf builds the encrypted test PDFs and checks
# our output; poppler-utils (pdfinfo reads every final PDF back, pdftoppm draws the signing page's
# page images; pdftotext and pdfsig are the outside readers the PDF tests use);
# openssl makes test certificates and reads seals; chromium drives the signing page's browser tests
# (playwright-core, no browser download).
# Fonts drawn into final and audit PDFs, so every script prints (src/pdf/text/fonts.ts; subsets only are
# embedded): fonts-dejavu-core (3 MB) draws Latin, Greek, Cyrillic and Hebrew as before;
# fonts-noto-ui-core (5 MB) Arabic, Devanagari and Thai, its UI cut keeping their marks within a
# line's height; fonts-noto-cjk (91 MB) Chinese, Japanese and Korean. fonts-noto-core (42 MB) would
# add nothing these ten scripts need.
# python3, python3-pytest, python3-mypy and python3-pip run the Python SDK's tests, its type check and
# its install from the source folder (sdks/python/python-sdk.test.ts; no PyPI needed).
SYSTEM_PACKAGES=(qpdf poppler-utils openssl chromium fonts-dejavu-core fonts-noto-ui-core fonts-noto-cjk
  python3 python3-pytest python3-mypy python3-pip)
missing=()
for pkg in "${SYSTEM_PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
[ "${#missing[@]}" -eq 0 ] || apt_install "${missing[@]}"

# npm ci when node_modules is missing or older than the lockfile. better-sqlite3 is a Node-API module
# whose package carries builds for every Node.js line: npm 11.19+ runs only the install scripts that
# package.json's allowScripts allows (esbuild's; better-sqlite3's node-gyp is denied, so nothing
# compiles); an older npm compiles it (~1 min).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci (Node.js $(node --version))"
  npm ci --no-audit --no-fund
fi

# The one build: the server, its child processes and the web front ends into dist/ (a few seconds).
say "npm run build"
npm run --silent build

# The test suite's services: PostgreSQL (database `test`, trust authentication on 127.0.0.1) and
# Redis on their default ports. Reachable already: left alone. Installed but down: started. Not
# installed (a fresh machine): installed from Debian, and the new cluster set up as the tests expect.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_for() {
  for _ in $(seq 1 100); do listening "$1" && return 0; sleep 0.2; done
  echo "$2 is not reachable on 127.0.0.1:$1" >&2
  exit 1
}
if [ "${1:-}" = "--services" ]; then
  if ! listening 5432; then
    if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
      apt_install postgresql
      conf=$(ls -d /etc/postgresql/*/main | head -n1)
      # A cluster made just now, for tests only: trust on the loopback, as the tests connect.
      sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+$/\1trust/' "$conf/pg_hba.conf"
      fresh_cluster=1
    fi
    # A fresh cluster may have been started by its package: restarted, so that trust applies.
    if [ "${fresh_cluster:-0}" = 1 ] || ! listening 5432; then
      say "starting PostgreSQL"
      pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main "$([ "${fresh_cluster:-0}" = 1 ] && echo restart || echo start)"
    fi
    wait_for 5432 PostgreSQL
    if [ "${fresh_cluster:-0}" = 1 ]; then
      psql -h 127.0.0.1 -U postgres -qc 'create database test' postgres
    fi
  fi
  if ! listening 6379; then
    command -v redis-server >/dev/null || apt_install redis-server
    say "starting Redis"
    redis-server --daemonize yes --port 6379 --save "" --appendonly no
    wait_for 6379 Redis
  fi
fi
