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
took() { echo "test.sh step: $1: $(( SECONDS - mark )) s" >&2; mark=$SECONDS; }
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
# oha, the http plugin's constant-rate generator: built once with cargo and cached (~/.cache/netbench/oha); its tests skip
# without it. The build (minutes of CPU) runs while the stand-ins, dockerd and the Docker image (mostly downloads) are set up.
packages/plugins/http/scripts/install-oha.sh &
oha_build=$!
if [ -x scripts/moto.sh ]; then
  export NETBENCH_MOTO_SERVER="$(scripts/moto.sh)"
fi
took "moto"

# The docker plugin's tests run against a real dockerd; the local lab's run with it too
# (dockerd turns on bridge netfilter and sets FORWARD to DROP).
scripts/dockerd.sh start
trap 'scripts/dockerd.sh stop' EXIT
took "dockerd"
scripts/docker-image.sh
took "docker image"
export NETBENCH_REQUIRE_DOCKER=1
# The kernel group (tests/kernel-lab.test.ts) boots Debian's kernel in QEMU: fetched and unpacked once (~70 MB).
scripts/kernel-vm.sh setup >/dev/null
# The group runs by default in CI (about 4 minutes; docs/kernel-lab.md), opt-in elsewhere (NETBENCH_KERNEL_VM_TESTS=1);
# with it on, a missing QEMU fails instead of skipping.
if [ -n "${CI:-}" ]; then export NETBENCH_KERNEL_VM_TESTS=${NETBENCH_KERNEL_VM_TESTS:-1}; fi
export NETBENCH_REQUIRE_KERNEL_VM=1
took "kernel VM"
wait "$oha_build" || echo "test.sh: oha not installed; the http plugin's oha tests will be skipped" >&2
took "oha (rest of its build)"

scripts/node24 npm test
