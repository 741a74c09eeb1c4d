#!/usr/bin/env bash
# The test suite, from a machine set up with scripts/setup.sh (as root: the
# end-to-end tests build network namespaces). Installs what only the tests
# need — PostgreSQL, Chromium, sockperf, iperf2, fping, flent (latency under load is checked against it), sudo, moto (AWS stand-in) with
# the official API definitions the cloud stand-ins check requests against
# (botocore models, Compute discovery document; scripts/moto.sh), Docker
# (dockerd, and the netbench/tools:bookworm image built with mmdebstrap,
# skipped when an image of the same recipe exists) — then runs `npm test` with
# Node >= 22.12, and stops the dockerd it started. That includes the
# property-based fuzz tests of the spec loader and every tool parser
# (tests/fuzz.test.ts, fast-check, fixed seed, time budget) and the full-disk
# teardown test (tests/disk-full.test.ts: mounts a small tmpfs, so it needs root).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/as-root.sh
source scripts/lib/as-root.sh
as_root "builds network namespaces and starts servers as other users" "$PWD/scripts/test.sh" "$@"

export DEBIAN_FRONTEND=noninteractive
# Each set-up step's wall time, so a slow CI run says where its time went.
mark=$SECONDS
took() {
  echo "test.sh step: $1: $(( SECONDS - mark )) s" >&2
  # .ci/run's table of the whole run.
  [ -z "${NETBENCH_STEP_LOG:-}" ] || printf 'test.sh: %s\t%s\n' "$1" "$(( SECONDS - mark ))" >> "$NETBENCH_STEP_LOG"
  mark=$SECONDS
}
# sudo: most users' machines have it, so the "install as a normal user" tests run their with-sudo branch
# here ("sudo needs a password"); they run the no-sudo branch on a PATH without sudo everywhere.
packages=(postgresql sockperf iperf fping chromium python3-venv sudo docker.io mmdebstrap iptables flent qemu-system-x86)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "test.sh: installing ${missing[*]}" >&2
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
took "test packages"
# The set-up jobs that build or download (oha's cargo build is minutes of CPU; moto's venv, the Docker
# image and the kernel are mostly downloads) run side by side: each prints its own time when it ends,
# and the "waiting" steps say how long the suite waited for them. Each caches what it made, keyed on its
# inputs, so a second run on the same machine skips it: oha in ~/.cache/netbench/oha (its version), moto's
# venv in ~/.cache/netbench/moto (its requirements), the image by its recipe label, the kernel in
# ~/.cache/netbench/kernel.
jobs_dir=$(mktemp -d)
background() {
  local name=$1; shift
  (
    t0=$SECONDS
    if "$@"; then rc=0; else rc=$?; fi
    echo "test.sh step: $name: $(( SECONDS - t0 )) s (in the background$([ "$rc" = 0 ] || echo ", failed, exit $rc"))" >&2
    [ -z "${NETBENCH_STEP_LOG:-}" ] || printf 'test.sh: %s (background)\t%s\n' "$name" "$(( SECONDS - t0 ))" >> "$NETBENCH_STEP_LOG" 2>/dev/null || true
    echo "$rc" > "$jobs_dir/$name.rc" 2>/dev/null || true
    exit "$rc"
  ) &
  echo $! > "$jobs_dir/$name.pid"
}
# A set-up job's result: its exit code, and its time counted as waiting.
finish() { local pid; pid=$(cat "$jobs_dir/$1.pid"); wait "$pid"; }

# oha, the http plugin's constant-rate generator: only the tests of vitest's e2e-oha project use it, and
# npm test runs them last, so its build (cargo, at the lowest CPU priority: the tests before come first)
# goes on while the others run; scripts/run-tests.mjs waits for $NETBENCH_OHA_PENDING (the build's exit
# code, written when it ends) before those. Without oha they skip, or fail under CI.
background oha nice -n 19 packages/plugins/http/scripts/install-oha.sh
export NETBENCH_OHA_PENDING="$jobs_dir/oha.rc"
if [ -x scripts/moto.sh ]; then background moto sh -c 'scripts/moto.sh > "$1"' sh "$jobs_dir/moto.out"; fi
# The kernel group (tests/kernel-lab.test.ts) boots Debian's kernel in QEMU: fetched and unpacked once (~70 MB).
background "kernel VM" sh -c 'scripts/kernel-vm.sh setup >/dev/null'

# The docker plugin's tests run against a real dockerd; the local lab's run with it too
# (dockerd turns on bridge netfilter and sets FORWARD to DROP).
# Stopped at the end only when this run started it: a dockerd already answering is another's (its pid
# file is machine-wide, so `dockerd.sh stop` would stop that one too).
started_dockerd=0
docker version --format '{{.Server.Version}}' >/dev/null 2>&1 || started_dockerd=1
# An oha build still going when the tests stop early finishes on its own (and is cached).
trap '[ "$started_dockerd" = 0 ] || scripts/dockerd.sh stop; rm -rf "$jobs_dir"' EXIT
scripts/dockerd.sh start
took "dockerd"
background "docker image" scripts/docker-image.sh
export NETBENCH_REQUIRE_DOCKER=1
# The group is opt-in (NETBENCH_KERNEL_VM_TESTS=1; about 3-4 minutes, docs/kernel-lab.md): with it, a fresh machine's CI
# run would come too near its 30-minute budget. With it on, a missing QEMU fails instead of skipping.
export NETBENCH_REQUIRE_KERNEL_VM=1

# A failed job fails the run here (set -e), named by its own step line above.
if [ -f "$jobs_dir/moto.pid" ]; then
  finish moto
  NETBENCH_MOTO_SERVER=$(cat "$jobs_dir/moto.out")
  export NETBENCH_MOTO_SERVER
fi
finish "docker image"
finish "kernel VM"
took "waiting for moto, the docker image, the kernel"
scripts/node24 npm test
