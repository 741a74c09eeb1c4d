#!/bin/sh
# Captures src/__fixtures__/irtt-dscp-fill.* on loopback of a throw-away namespace:
#   unshare --net scripts/capture-fixture.sh src/__fixtures__/irtt-dscp-fill
set -e
ip link set lo up
irtt server -b 127.0.0.1:29113 -i 0 -l 0 >/dev/null 2>&1 &
S=$!
trap 'kill $S' EXIT
sleep 0.3
irtt client -i 10ms -d 300ms -l 172 --dscp=46 --fill=rand -o - -- 127.0.0.1:29113 >"$1.json" 2>"$1.stderr.txt"
