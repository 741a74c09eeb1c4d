#!/usr/bin/env bash
# The test suite, from a machine set up with scripts/setup.sh (as root: the
# end-to-end tests build network namespaces). Installs what only the tests
# need — PostgreSQL, Chromium, sockperf, iperf2, fping, moto (AWS stand-in) —
# then runs `npm test` with Node >= 22.12.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/as-root.sh
source scripts/lib/as-root.sh
as_root "builds network namespaces and starts servers as other users" "$PWD/scripts/test.sh" "$@"

export DEBIAN_FRONTEND=noninteractive
packages=(postgresql sockperf iperf fping chromium python3-venv)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "test.sh: installing ${missing[*]}" >&2
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# oha, the http plugin's constant-rate generator: built once with cargo and cached (~/.cache/netbench/oha); its tests skip without it.
packages/plugins/http/scripts/install-oha.sh || echo "test.sh: oha not installed; the http plugin's oha tests will be skipped" >&2
if [ -x scripts/moto.sh ]; then
  export NETBENCH_MOTO_SERVER="$(scripts/moto.sh)"
fi

exec scripts/node24 npm test
