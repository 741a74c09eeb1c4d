#!/usr/bin/env bash
# Set up a Debian/Ubuntu machine for netbench, from scratch (as root):
# the measuring tools from the distribution, Node >= 22.13, npm ci, build.
# oha (the http plugin's constant-rate generator) is not in Debian and builds
# with cargo for minutes: NETBENCH_SETUP_OHA=1 scripts/setup.sh builds it too
# (packages/plugins/http/scripts/install-oha.sh); `netbench doctor` says
# whether it is there, and a run with an oha trial refuses in prepare without it.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/as-root.sh
source scripts/lib/as-root.sh
as_root "installs Debian packages" "$PWD/scripts/setup.sh" "$@"

export DEBIAN_FRONTEND=noninteractive
# netperf lives in Debian's non-free component (Ubuntu: multiverse).
if [ -f /etc/apt/sources.list.d/debian.sources ] && ! grep -q 'non-free' /etc/apt/sources.list.d/debian.sources; then
  sed -i -E 's/^(Components:.*\bmain\b)(.*)$/\1 non-free\2/' /etc/apt/sources.list.d/debian.sources
elif [ -f /etc/apt/sources.list ] && grep -qE '^deb .*debian' /etc/apt/sources.list && ! grep -q 'non-free' /etc/apt/sources.list; then
  sed -i -E '/^deb .*debian/ s/\bmain\b/main non-free/' /etc/apt/sources.list
fi
if grep -qi ubuntu /etc/os-release 2>/dev/null; then
  command -v add-apt-repository >/dev/null && add-apt-repository -y multiverse >/dev/null || true
fi

packages=(iputils-ping iproute2 netperf iperf3 irtt nginx apache2-utils wrk openssh-server openssh-client procps ca-certificates fonts-dejavu-core openssl strongswan-charon strongswan-swanctl libcharon-extra-plugins libstrongswan-standard-plugins wireguard-go wireguard-tools openvpn hping3)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
command -v npm >/dev/null || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The Debian packages start their daemons; netbench starts its own per run.
systemctl disable --now iperf3 netperf nginx 2>/dev/null || true

scripts/node24 npm ci --no-audit --no-fund
scripts/node24 npm run build
if [ "${NETBENCH_SETUP_OHA:-}" = 1 ]; then packages/plugins/http/scripts/install-oha.sh; fi
echo "setup: done. Run the CLI with scripts/netbench (e.g. scripts/netbench doctor)." >&2
command -v oha >/dev/null || [ -x "$HOME/.cache/netbench/oha/bin/oha" ] || echo "setup: oha (the http plugin's constant-rate generator) is not installed: NETBENCH_SETUP_OHA=1 scripts/setup.sh, or packages/plugins/http/scripts/install-oha.sh (cargo, takes minutes)" >&2
