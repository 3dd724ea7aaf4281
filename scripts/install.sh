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

# System packages, installed only when missing: qpdf builds the encrypted test PDFs and checks
# our output; poppler-utils (pdfinfo reads every final PDF back, pdftoppm draws the signing page's
# page images; pdftotext and pdfsig are the outside readers the PDF tests use);
# openssl makes test certificates and reads seals; chromium drives the signing page's browser tests
# (playwright-core, no browser download).
# Fonts drawn into final and audit PDFs, so every script prints (src/pdf/fonts.ts; subsets only are
# embedded): fonts-dejavu-core (3 MB) draws Latin, Greek, Cyrillic and Hebrew as before;
# fonts-noto-ui-core (5 MB) Arabic, Devanagari and Thai, its UI cut keeping their marks within a
# line's height; fonts-noto-cjk (91 MB) Chinese, Japanese and Korean. fonts-noto-core (42 MB) would
# add nothing these ten scripts need.
SYSTEM_PACKAGES=(qpdf poppler-utils openssl chromium fonts-dejavu-core fonts-noto-ui-core fonts-noto-cjk)
missing=()
for pkg in "${SYSTEM_PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi

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

if [ "${1:-}" = "--services" ]; then
  if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
    say "starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  fi
  if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    say "starting Redis"
    redis-server --daemonize yes --port 6379 --save "" --appendonly no
  fi
  for _ in $(seq 1 50); do
    pg_isready -h 127.0.0.1 -p 5432 -q && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break
    sleep 0.2
  done
  pg_isready -h 127.0.0.1 -p 5432 -q || { echo "PostgreSQL is not reachable on 127.0.0.1:5432" >&2; exit 1; }
  redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null || { echo "Redis is not reachable on 127.0.0.1:6379" >&2; exit 1; }
fi
