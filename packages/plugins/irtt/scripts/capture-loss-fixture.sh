#!/bin/sh
# Captures src/__fixtures__/irtt-loss.* with random drops both ways (iptables statistic), on
# loopback of a throw-away namespace, so nothing outside it is touched:
#   unshare --net scripts/capture-loss-fixture.sh src/__fixtures__/irtt-loss
set -e
ip link set lo up
iptables -A INPUT -i lo -p udp --dport 29113 -m statistic --mode random --probability 0.2 -j DROP
iptables -A INPUT -i lo -p udp --sport 29113 -m statistic --mode random --probability 0.2 -j DROP
irtt server -b 127.0.0.1:29113 -i 0 -l 0 >/dev/null 2>&1 &
S=$!
trap 'kill $S' EXIT
sleep 0.3
irtt client -i 50ms -d 2s -l 100 --wait=500ms -o - 127.0.0.1:29113 >"$1.json" 2>"$1.stderr.txt" || true
