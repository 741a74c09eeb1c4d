#!/usr/bin/env bash
# Capture real `iperf3 -J` outputs for the parser tests (src/__fixtures__/).
# Needs root: builds throwaway network namespaces, a client (10.213.17.1) and
# a server (10.213.17.2) joined through a bridge in a third one, measures only
# inside them (and a refused connect on loopback), and deletes them on exit.
#
#   capture-fixtures.sh            capture everything
#   capture-fixtures.sh udp tcp-4  capture only these (the rest stay as they are)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../../../../scripts/lib/netns-lab.sh
source "$here/../../../../scripts/lib/netns-lab.sh"
cd "$here/../src/__fixtures__"
capture_selection "$@"
netns_lab "nbt-iperfcap-$$" nbic 10.213.17

port=5301
# One one-off server per capture, as the plugin does; the server's JSON is kept too.
cap() {
  local name="$1"; shift
  want "$name" || return 0
  ip netns exec "$B" iperf3 -s -1 -p "$port" -J >"server-$name.json" &
  local server=$!
  sleep 0.3
  ip netns exec "$A" iperf3 -c 10.213.17.2 -p "$port" -J "$@" >"$name.json" || true
  wait "$server" || true
  echo "captured $name.json"
}

cap tcp-1           -t 2 -O 1 -i 1
cap tcp-4           -t 2 -P 4 -i 1
cap tcp-reverse     -t 2 -R -i 1
cap tcp-bidir       -t 2 --bidir -i 1
cap udp             -t 2 -u -b 50M -i 1
cap udp-reverse     -t 2 -u -b 30M -R -i 0.5
cap udp-bidir       -t 2 -u -b 20M --bidir -i 1
# Loss: 80 Mbit/s of UDP into a 40 Mbit/s token bucket on the bridge port towards the server
# (no netem in this kernel; shaping the sender's own egress would only slow the sender down).
ip netns exec "$HUB" tc qdisc add dev port2 root tbf rate 40mbit burst 32kbit limit 64kb
cap udp-loss        -t 2 -u -b 80M -i 1
ip netns exec "$HUB" tc qdisc del dev port2 root
rm -f server-udp-loss.json server-tcp-4.json server-udp-reverse.json server-udp-bidir.json server-tcp-bidir.json

# Errors: nothing listens on this loopback port; a second server on a busy port.
if want errors; then
iperf3 -c 127.0.0.1 -p 5399 -J -t 1 >error-refused.json || true
ip netns exec "$B" iperf3 -s -1 -p "$port" -J >/dev/null &
server=$!
sleep 0.3
ip netns exec "$B" iperf3 -s -1 -p "$port" -J >error-address-in-use.json || true
kill "$server"; wait "$server" || true
echo "captured error fixtures"
fi

if want proc-net-tcp; then
# What the plugin reads to see a server listen: iperf3 on 5301 (dual-stack, so tcp6), netserver-style
# IPv4 listener on 12865, and both ends of an established connection to it (not listening).
ip netns exec "$B" iperf3 -s -p "$port" >/dev/null &
server=$!
ip netns exec "$B" python3 -c "
import socket, time
l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); l.bind(('0.0.0.0', 12865)); l.listen()
c = socket.socket(); c.connect(('127.0.0.1', 12865)); a = l.accept()
time.sleep(2)" &
helper=$!
sleep 0.5
ip netns exec "$B" cat /proc/net/tcp /proc/net/tcp6 >proc-net-tcp.txt
kill "$server" "$helper"; wait "$server" "$helper" || true
echo "captured proc-net-tcp.txt"
fi
