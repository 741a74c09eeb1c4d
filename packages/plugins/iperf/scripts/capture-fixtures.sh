#!/usr/bin/env bash
# Capture real iperf 2 outputs for the parser tests (src/__fixtures__/).
# Needs root: builds throwaway network namespaces, a client (10.213.63.1) and
# a server (10.213.63.2) joined through a bridge in a third one, measures only
# inside them (and a refused connect on loopback), and deletes them on exit.
# Each capture gets its own server on its own port, killed afterwards, and
# keeps the server's output as server-<name>.txt.
#
#   capture-fixtures.sh              capture everything
#   capture-fixtures.sh udp-e tcp-p3 capture only these
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../../../../scripts/lib/netns-lab.sh
source "$here/../../../../scripts/lib/netns-lab.sh"
cd "$here/../src/__fixtures__"
capture_selection "$@"
netns_lab "nbt-import-$$" nbi2 10.213.63

port=5500
# COMMANDS.txt lists every command; a partial capture appends to it.
wants_all && : >COMMANDS.txt
# cap NAME SERVER-FLAGS -- CLIENT-FLAGS
cap() {
  local name="$1"; shift
  local server_flags=()
  while [ "$1" != "--" ]; do server_flags+=("$1"); shift; done
  shift
  port=$((port + 1))
  want "$name" || return 0
  ip netns exec "$B" iperf -s -p "$port" "${server_flags[@]}" >"server-$name.txt" 2>&1 &
  local server=$!
  sleep 0.4
  local code=0
  ip netns exec "$A" iperf -c 10.213.63.2 -p "$port" "$@" >"$name.txt" 2>&1 || code=$?
  sleep 0.5
  kill -INT "$server" 2>/dev/null || true
  wait "$server" || true
  printf '%s: iperf -c 10.213.63.2 -p %s %s\n  server: iperf -s -p %s %s\n  exit %s\n' "$name" "$port" "$*" "$port" "${server_flags[*]}" "$code" >>COMMANDS.txt
  echo "captured $name.txt"
}

cap tcp-e          -e -- -e -t 2 -i 1
cap tcp-e-fm       -e -- -e -t 1 -f m
cap tcp-p3         -e -- -e -P 3 -t 2 -i 1
cap tcp-p2-fm      -e -- -e --format m --time 1 --parallel 2
cap tcp-plain      -- -t 1
cap tcp-reverse    -e -- -e -R -t 1
cap tcp-tradeoff   -e -- -e -r -t 1
cap tcp-dual       -e -- -e -d -t 1
cap udp-e          -e -u -- -e -u -b 50M -t 2 -i 1
cap udp-p2         -e -u -- -e -u -b 20M -P 2 -t 2 -i 1
cap udp-plain      -u -- -u -b 10M -t 1
# Loss: 80 Mbit/s of UDP into a 40 Mbit/s token bucket on the bridge port towards the server (no netem here).
want udp-loss && ip netns exec "$HUB" tc qdisc add dev port2 root tbf rate 40mbit burst 32kbit limit 64kb
cap udp-loss       -e -u -- -e -u -b 80M -t 2 -i 1
want udp-loss && ip netns exec "$HUB" tc qdisc del dev port2 root
# iperf 2.1.8 lacks the long option PerfKit Benchmarker passes: it warns and runs without enhanced reports.
cap tcp-long-enhanced -e -- --enhancedreports --format m --time 1 --parallel 2
rm -f server-tcp-long-enhanced.txt server-tcp-e-fm.txt server-tcp-p2-fm.txt server-tcp-plain.txt server-udp-plain.txt server-tcp-dual.txt server-tcp-tradeoff.txt

if want errors; then
  code=0
  iperf -c 127.0.0.1 -p 5599 -e -t 1 >error-refused.txt 2>&1 || code=$?
  printf 'error-refused: iperf -c 127.0.0.1 -p 5599 -e -t 1 (nothing listens)\n  exit %s\n' "$code" >>COMMANDS.txt
  echo "captured error-refused.txt"
fi
