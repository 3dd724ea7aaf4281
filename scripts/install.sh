#!/usr/bin/env bash
# Installs what Paraph needs on a fresh Debian machine with Node.js 20+.
#   scripts/install.sh             npm dependencies (and system packages, once later issues need them)
#   scripts/install.sh --services  also starts PostgreSQL and Redis for the test suite if they are down
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[install]\033[0m %s\n' "$*"; }

major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$major" -lt 20 ]; then
  echo "Paraph needs Node.js 20 or newer (found: $(node --version 2>/dev/null || echo none))." >&2
  exit 1
fi

# System packages, installed only when missing: qpdf builds the encrypted test PDFs and checks
# our output; poppler-utils (pdftoppm, pdftotext, pdfsig) is the outside reader the PDF tests use;
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

# npm ci when node_modules is missing or older than the lockfile (better-sqlite3 compiles: ~1 min).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci"
  npm ci --no-audit --no-fund
fi

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
