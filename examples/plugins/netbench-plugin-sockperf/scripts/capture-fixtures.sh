#!/usr/bin/env bash
# Re-capture the parser fixtures from the real sockperf on loopback.
# Usage: scripts/capture-fixtures.sh   (writes src/__fixtures__/)
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/src/__fixtures__"
port=${PORT:-11911}
sockperf server -i 127.0.0.1 -p "$port" >/dev/null 2>&1 & udp=$!
sockperf server -i 127.0.0.1 -p "$port" --tcp >/dev/null 2>&1 & tcp=$!
trap 'kill $udp $tcp 2>/dev/null || true' EXIT
sleep 0.5
run() { local name=$1; shift; sockperf "$@" >"$out/$name" 2>&1 || true; echo "$name: sockperf ${*//$out\//}" >>"$out/COMMANDS.txt"; }
: >"$out/COMMANDS.txt"
run ping-pong-udp.txt ping-pong -i 127.0.0.1 -p "$port" -t 1 -m 64
run ping-pong-tcp.txt ping-pong -i 127.0.0.1 -p "$port" -t 1 -m 64 --tcp
run ping-pong-full-rtt.txt ping-pong -i 127.0.0.1 -p "$port" -t 1 -m 64 --full-rtt
run under-load-udp.txt under-load -i 127.0.0.1 -p "$port" -t 1 -m 64 --mps 10000 --reply-every 10
run under-load-tcp.txt under-load -i 127.0.0.1 -p "$port" -t 1 -m 64 --mps 10000 --reply-every 10 --tcp
run ping-pong-full-log.txt ping-pong -i 127.0.0.1 -p "$port" -t 1 -m 64 --mps 500 --full-log "$out/full-log.csv.tmp"
# The full log is parsed separately (histograms), not by parse(); keep it out of the tool-output fixtures.
mkdir -p "$out/../__full-logs__" && mv "$out/full-log.csv.tmp" "$out/../__full-logs__/ping-pong-mps500.csv"
kill $udp $tcp; wait 2>/dev/null || true
run error-tcp-refused.txt ping-pong -i 127.0.0.1 -p "$port" -t 1 --tcp
run error-udp-no-server.txt ping-pong -i 127.0.0.1 -p "$port" -t 1
