#!/usr/bin/env bash
# Capture real ping outputs for the parser tests (src/__fixtures__/).
# Needs root: builds a throwaway lab of network namespaces, pings only inside
# it (and loopback), and deletes it on exit.
#
#   A ──veth── [br in HUB] ──veth── B      10.213.7.1 (A), .2 (B), .3 (C)
#                  └───────veth── C
# B also routes 10.213.9.0/24 to an `unreachable` route, so it answers with
# ICMP Destination Host Unreachable; 10.213.7.99 has a static neighbour entry
# nobody answers for (pure loss); 10.213.7.98 has none (ARP fails).
set -euo pipefail
cd "$(dirname "$0")/../src/__fixtures__"
tag="nbt-pingcap-$$"
A="$tag-a"; B="$tag-b"; C="$tag-c"; HUB="$tag-hub"

cleanup() {
  for ns in "$A" "$B" "$C" "$HUB"; do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
}
trap cleanup EXIT

for ns in "$A" "$B" "$C" "$HUB"; do ip netns add "$ns"; ip -n "$ns" link set lo up; done
ip -n "$HUB" link add br0 type bridge
ip -n "$HUB" link set br0 up
i=0
for ns in "$A" "$B" "$C"; do
  i=$((i + 1))
  ip link add "nbpc$$x$i" type veth peer name "nbpc$$y$i"
  ip link set "nbpc$$x$i" netns "$ns" name eth0
  ip link set "nbpc$$y$i" netns "$HUB"
  ip -n "$HUB" link set "nbpc$$y$i" master br0 up
  ip -n "$ns" addr add "10.213.7.$i/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip netns exec "$ns" sysctl -qw net.ipv4.icmp_echo_ignore_broadcasts=0
done
ip netns exec "$B" sysctl -qw net.ipv4.ip_forward=1
ip -n "$B" route add unreachable 10.213.9.0/24
ip -n "$A" route add 10.213.9.0/24 via 10.213.7.2
ip -n "$A" neigh add 10.213.7.99 lladdr 02:00:00:00:00:99 dev eth0 nud permanent
# Warm up ARP so the first RTT is not an outlier caused by neighbour resolution.
ip netns exec "$A" ping -n -c 1 -W 1 10.213.7.2 >/dev/null

inA() { ip netns exec "$A" "$@"; }
# ping exits 1 when replies are missing; that output is what we want.
cap() { local file="$1"; shift; "$@" >"$file" || true; echo "captured $file"; }

cap ping-normal.txt          inA ping -n -c 20 -i 0.2 -s 56 10.213.7.2
cap ping-timestamps.txt      inA ping -n -D -c 50 -i 0.01 -s 56 10.213.7.2
cap ping-quiet.txt           inA ping -n -q -c 10 -i 0.01 10.213.7.2
cap ping-flood.txt           inA ping -n -D -f -c 500 10.213.7.2
cap ping-no-time.txt         inA ping -n -D -c 3 -i 0.2 -s 8 10.213.7.2
cap ping-loss-100.txt        inA ping -n -D -c 3 -W 1 10.213.7.99
cap ping-unreachable.txt     inA ping -n -D -c 3 -i 0.2 -W 1 10.213.9.5
cap ping-unreachable-arp.txt inA ping -n -D -c 5 -i 1 -W 1 10.213.7.98
cap ping-duplicates.txt      inA ping -n -D -b -c 3 -i 0.2 10.213.7.255
cap ping-ipv6-loopback.txt   ping -n -D -c 5 -i 0.2 ::1
# Partial loss: a tiny token bucket on B's egress drops most big replies and
# delays the rest (no netem in this kernel).
ip netns exec "$B" tc qdisc add dev eth0 root tbf rate 64kbit burst 1600 limit 3000
cap ping-partial-loss.txt    inA ping -n -D -c 20 -i 0.02 -s 1400 -W 1 10.213.7.2
