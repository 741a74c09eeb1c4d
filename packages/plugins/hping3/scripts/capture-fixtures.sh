#!/usr/bin/env bash
# Capture real hping3 outputs for the parser tests (src/__fixtures__/). Needs root: two throwaway
# namespaces joined by a veth pair, a client (10.213.77.1) and a server (10.213.77.2) with a TCP
# listener on 8080 (python3 -m http.server), deleted on exit. hping3 prints the per-probe lines on
# stdout and the statistics on stderr; each fixture holds both, stdout first, as the plugin saves them.
set -euo pipefail
cd "$(dirname "$0")/../src/__fixtures__"
A="nbt-h3a-$$"; B="nbt-h3b-$$"; VA="h3a$$"; VB="h3b$$"
cleanup() { for ns in "$A" "$B"; do ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true; ip netns del "$ns" 2>/dev/null || true; done; }
trap cleanup EXIT
ip netns add "$A"; ip netns add "$B"
ip link add "$VA" netns "$A" type veth peer name "$VB" netns "$B"
ip -n "$A" addr add 10.213.77.1/24 dev "$VA"; ip -n "$B" addr add 10.213.77.2/24 dev "$VB"
for ns in "$A" "$B"; do ip -n "$ns" link set lo up; done
ip -n "$A" link set "$VA" up; ip -n "$B" link set "$VB" up
ip netns exec "$B" python3 -m http.server 8080 --bind 10.213.77.2 >/dev/null 2>&1 &
sleep 1
cap() { local name=$1; shift; ip netns exec "$A" "$@" > "$name.out" 2> "$name.err" || true; cat "$name.out" "$name.err" > "$name.txt"; rm "$name.out" "$name.err"; }
cap syn-open hping3 -S -p 8080 -c 100 -i u10000 -- 10.213.77.2
cap syn-closed hping3 -S -p 9 -c 100 -i u10000 -- 10.213.77.2
# Every 4th SYN dropped at the server: 25 % loss.
ip netns exec "$B" iptables -A INPUT -p tcp --dport 9 -m statistic --mode nth --every 4 --packet 0 -j DROP
cap syn-loss-25 hping3 -S -p 9 -c 100 -i u10000 -- 10.213.77.2
cap syn-silent hping3 -S -p 9 -c 5 -i u10000 -- 10.213.77.99
cap syn-quiet hping3 -S -p 8080 -c 20 -i u10000 -q -- 10.213.77.2
cap flood-2s timeout -s INT 2 hping3 -S --flood -p 9 -- 10.213.77.2
