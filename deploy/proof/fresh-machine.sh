#!/usr/bin/env bash
# Runs the README's two commands on a fresh Debian bookworm, as a newcomer would: a debootstrap tree
# (minbase: no Node.js, no npm, no PostgreSQL, no Redis, no Chromium, no curl) holding a clone of this
# repository's HEAD, entered with chroot in namespaces of its own: mount, PID, and a network of its
# own with its own loopback (the host's PostgreSQL and Redis are out of sight), reaching Debian's
# mirror and the npm registry through slirp4netns.
#   deploy/proof/fresh-machine.sh [all|tree|start|test|clean]     (root; a Debian bookworm host)
# Steps:
#   tree   debootstrap bookworm (minbase) once into $PROOF_DIR/rootfs; then a fresh clone of HEAD.
#   start  ./scripts/start.sh in the tree: waits for /readyz, reads the printed test key, sends the
#          README's first API call (from_html: Chromium) and checks its 201, then stops it.
#   test   CI=true ./scripts/test-all.sh in the tree (what .ci/run runs): it installs PostgreSQL and
#          Redis itself, since none is reachable there.
#   run CMD…  brings the tree's clone up to HEAD and runs CMD there, with what start and
#          test installed: `run npm test --silent -- sqlite src/render/chromium-sandbox.test.ts`.
#   clean  removes the tree.
# One thing differs from a real fresh machine: this one reaches registries through a TLS proxy that
# only its own trust store knows, so its CA bundle is handed to curl and npm in the tree
# (CURL_CA_BUNDLE, npm_config_cafile, NODE_EXTRA_CA_CERTS). Debian's mirror is reached over http.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${PROOF_DIR:-/var/tmp/paraph-fresh-machine}
rootfs=$work/rootfs
checkout=/home/newcomer/paraph
netns=paraph-fresh-$$
say() { printf '\033[1m[fresh-machine]\033[0m %s\n' "$*"; }

need() {
  local missing=()
  for tool in debootstrap slirp4netns ip; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap slirp4netns iproute2
  fi
}

tree() {
  if [ ! -f "$rootfs/etc/debian_version" ]; then
    say "debootstrap bookworm (minbase) into $rootfs"
    rm -rf "$rootfs"
    mkdir -p "$work"
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian
    printf 'deb http://deb.debian.org/debian %s main\n' bookworm bookworm-updates >"$rootfs/etc/apt/sources.list"
    printf 'deb http://deb.debian.org/debian-security bookworm-security main\n' >>"$rootfs/etc/apt/sources.list"
    # The tree is a copy to throw away: keep it pristine for the next run.
    tar -C "$rootfs" -czf "$work/pristine.tgz" .
  else
    say "the tree again from its pristine copy"
    rm -rf "$rootfs" && mkdir -p "$rootfs"
    tar -C "$rootfs" -xzf "$work/pristine.tgz"
  fi
  say "clone of $(git -C "$repo" rev-parse --short HEAD) into $checkout"
  mkdir -p "$rootfs/home/newcomer"
  git clone -q "$repo" "$rootfs$checkout"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/opt/host-ca.crt"
  printf 'nameserver 10.0.2.3\n' >"$rootfs/etc/resolv.conf"
}

# Runs STEP's script inside the tree: its own network (slirp4netns) and mount and PID namespaces;
# every process it started dies with it.
inside() {
  local step=$1
  ip netns add "$netns"
  slirp4netns --configure --mtu=65520 --disable-host-loopback --netns-type=path "/run/netns/$netns" tap0 \
    >"$work/slirp4netns.log" 2>&1 &
  local slirp=$!
  # EXIT as well: a failing step ends the script through errexit, which skips RETURN traps.
  trap 'kill '"$slirp"' 2>/dev/null; ip netns del '"$netns"' 2>/dev/null || true' RETURN EXIT
  for _ in $(seq 1 50); do ip netns exec "$netns" ip -4 addr show tap0 2>/dev/null | grep -q inet && break; sleep 0.1; done
  ip netns exec "$netns" ip link set lo up
  step_script "$@" >"$rootfs/opt/step.sh"
  ip netns exec "$netns" unshare --mount --pid --fork --propagation private bash -c '
    set -e
    r=$1
    mount -t proc proc "$r/proc"
    mount --rbind /sys "$r/sys"
    mount --rbind /dev "$r/dev"
    mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm"
    mount -t tmpfs -o mode=1777 tmpfs "$r/tmp"
    exec chroot "$r" /bin/bash /opt/step.sh' _ "$rootfs"
}

step_script() {
  cat <<EOF
set -euo pipefail
export HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export CURL_CA_BUNDLE=/opt/host-ca.crt npm_config_cafile=/opt/host-ca.crt NODE_EXTRA_CA_CERTS=/opt/host-ca.crt
cd $checkout
EOF
  case $1 in
    start)
      cat <<'EOF'
./scripts/start.sh >/tmp/start.log 2>&1 &
for i in $(seq 1 600); do
  if (exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null && grep -q 'test key' /tmp/start.log; then break; fi
  if ! kill -0 $! 2>/dev/null; then cat /tmp/start.log; echo "start.sh stopped" >&2; exit 1; fi
  sleep 1
done
cat /tmp/start.log
key=$(grep -o 'sk_test_[A-Za-z0-9]*' /tmp/start.log | head -n1)
[ -n "$key" ] || { echo "no test key printed" >&2; exit 1; }
ready=$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8080/readyz)
[ "$ready" = 200 ] || { echo "/readyz answered $ready" >&2; exit 1; }
answer=$(curl -s -w '\n%{http_code}' -X POST http://127.0.0.1:8080/v1/submissions/from_html \
  -H "Authorization: Bearer $key" -H "Content-Type: application/json" \
  -H "Idempotency-Key: $(cat /proc/sys/kernel/random/uuid)" \
  -d '{"name":"Consulting agreement","html":"<h1>Consulting agreement</h1><p>The parties agree.</p><p>Signed: {{Signature;role=Client}}</p>","submitters":[{"role":"Client","email":"alice@example.com","name":"Alice Martin"}]}')
echo "$answer"
[ "$(tail -n1 <<<"$answer")" = 201 ] || { echo "from_html did not answer 201" >&2; exit 1; }
echo "PROOF start: /readyz 200, from_html 201 with the printed test key"
kill -TERM %1; wait %1 || true
EOF
      ;;
    run)
      shift
      printf 'source scripts/node-tools.sh\nuse_checkout_node\n'
      printf '%q ' "$@"
      echo
      ;;
    test)
      cat <<'EOF'
started=$SECONDS
CI=true ./scripts/test-all.sh
echo "PROOF test: scripts/test-all.sh passed in $(( (SECONDS - started) / 60 )) min"
EOF
      ;;
  esac
}

case "${1:-all}" in
  tree) need; tree ;;
  start) need; inside start ;;
  test) need; inside test ;;
  run)
    need
    # The tree has no git: its clone is brought up to HEAD from here.
    git -C "$rootfs$checkout" fetch -q "$repo" HEAD
    git -C "$rootfs$checkout" merge -q --ff-only FETCH_HEAD
    inside "$@"
    ;;
  all) need; tree; inside start; inside test ;;
  clean) rm -rf "$work" ;;
  *) echo "usage: $0 [all|tree|start|test|clean]" >&2; exit 2 ;;
esac
