#!/usr/bin/env bash
# Capture real iperf3 TEXT reports (no -J) for the text parser tests
# (src/__fixtures__/text-*.txt, server-text-*.txt, error-text-*.txt), the
# outputs `netbench import` reads when iperf3 was run by hand. The commands and
# exit codes go to capture-text-fixtures.commands.txt beside this script (the
# fixtures folder holds tool output only). Needs root: throwaway namespaces, a client
# (10.213.62.1) and a server (10.213.62.2) through a bridge in a third one;
# measures only inside them (and a refused connect on loopback); deletes them.
#
#   capture-text-fixtures.sh              capture everything
#   capture-text-fixtures.sh udp tcp-4    capture only these
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../../../../scripts/lib/netns-lab.sh
source "$here/../../../../scripts/lib/netns-lab.sh"
cd "$here/../src/__fixtures__"
capture_selection "$@"
netns_lab "nbt-import-$$" nbi3t 10.213.62

port=5700
commands="$here/capture-text-fixtures.commands.txt"
wants_all && : >"$commands"
# One one-off server per capture; its text report is kept as server-text-<name>.txt.
cap() {
  local name="$1"; shift
  port=$((port + 1))
  want "$name" || return 0
  ip netns exec "$B" iperf3 -s -1 -p "$port" >"server-text-$name.txt" 2>&1 &
  local server=$!
  sleep 0.3
  local code=0
  ip netns exec "$A" iperf3 -c 10.213.62.2 -p "$port" "$@" >"text-$name.txt" 2>&1 || code=$?
  wait "$server" || true
  printf 'text-%s: iperf3 -c 10.213.62.2 -p %s %s\n  exit %s\n' "$name" "$port" "$*" "$code" >>"$commands"
  echo "captured text-$name.txt"
}

cap tcp-1           -t 2 -i 1
cap tcp-4           -t 2 -P 4 -i 1
cap tcp-omit        -t 2 -O 1 -i 1
cap tcp-reverse     -t 2 -R -i 1
cap tcp-bidir       -t 2 --bidir -i 1
cap udp             -t 2 -u -b 50M -i 1
cap udp-p2          -t 2 -u -b 20M -P 2 -i 1
cap udp-bidir       -t 1 -u -b 10M -P 2 --bidir
cap tcp-timestamps  -t 1 --timestamps
cap tcp-verbose     -t 1 -V
cap udp-verbose     -t 1 -u -b 10M -V
want udp-loss && ip netns exec "$HUB" tc qdisc add dev port2 root tbf rate 40mbit burst 32kbit limit 64kb
cap udp-loss        -t 2 -u -b 80M -i 1
want udp-loss && ip netns exec "$HUB" tc qdisc del dev port2 root
# Server reports of these add nothing new.
rm -f server-text-tcp-omit.txt server-text-tcp-bidir.txt server-text-udp-p2.txt server-text-udp-bidir.txt server-text-tcp-timestamps.txt server-text-udp-loss.txt server-text-tcp-1.txt server-text-tcp-verbose.txt server-text-udp-verbose.txt

if want errors; then
  code=0
  iperf3 -c 127.0.0.1 -p 5799 -t 1 >error-text-refused.txt 2>&1 || code=$?
  printf 'error-text-refused: iperf3 -c 127.0.0.1 -p 5799 -t 1 (nothing listens)\n  exit %s\n' "$code" >>"$commands"
  echo "captured error-text-refused.txt"
fi
