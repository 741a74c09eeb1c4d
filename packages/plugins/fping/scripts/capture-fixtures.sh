#!/usr/bin/env bash
# Capture real fping outputs for the parser tests (src/__fixtures__/).
# Needs root: builds two throwaway network namespaces joined by a veth pair,
# a client (10.213.64.1) and a server (10.213.64.2), pings only inside them,
# and deletes them on exit. 10.213.64.99 has a neighbour entry but no host,
# so requests to it vanish (loss). fping prints per-packet lines on stdout
# and summaries on stderr; each fixture holds both, stdout first, exactly as
# the plugin reads them (`<name>.txt` = stdout then stderr).
set -euo pipefail
cd "$(dirname "$0")/../src/__fixtures__"
wanted=" $* "
want() { [ "$wanted" = "  " ] || [[ "$wanted" == *" $1 "* ]]; }
tag="nbt-import-$$"
A="$tag-a"; B="$tag-b"

cleanup() {
  for ns in "$A" "$B"; do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
}
trap cleanup EXIT

ip netns add "$A"; ip netns add "$B"
ip link add "nbfp$$a" type veth peer name "nbfp$$b"
ip link set "nbfp$$a" netns "$A" name eth0
ip link set "nbfp$$b" netns "$B" name eth0
ip -n "$A" addr add 10.213.64.1/24 dev eth0
ip -n "$B" addr add 10.213.64.2/24 dev eth0
for ns in "$A" "$B"; do ip -n "$ns" link set lo up; ip -n "$ns" link set eth0 up; done
ip -n "$A" neigh add 10.213.64.99 lladdr 02:00:00:00:00:99 dev eth0 nud permanent
# 10.213.65.0/24 is routed through the server, which refuses to forward it (ICMP "prohibited");
# 10.213.66.0/24 has no route at all on the client (fping cannot even send).
ip -n "$A" route add 10.213.65.0/24 via 10.213.64.2
ip netns exec "$B" sysctl -qw net.ipv4.ip_forward=1
ip -n "$B" route add prohibit 10.213.65.0/24
ip -n "$A" route add unreachable 10.213.66.0/24

[ "$wanted" = "  " ] && : >COMMANDS.txt
cap() {
  local name="$1"; shift
  want "$name" || return 0
  local code=0
  ip netns exec "$A" fping "$@" >"$name.txt" 2>"$name.stderr" || code=$?
  cat "$name.stderr" >>"$name.txt"; rm -f "$name.stderr"
  printf '%s: fping %s\n  exit %s\n' "$name" "$*" "$code" >>COMMANDS.txt
  echo "captured $name.txt"
}

cap count           -c 10 -p 20 10.213.64.2
cap count-quiet     -q -c 10 -p 20 10.213.64.2
cap vector          -C 10 -p 20 10.213.64.2
cap vector-quiet    -q -C 10 -p 20 10.213.64.2
cap multi-target    -c 5 -p 20 10.213.64.2 10.213.64.1 127.0.0.1
cap vector-loss     -C 8 -p 20 -t 100 10.213.64.2 10.213.64.99
cap count-loss      -c 8 -p 20 -t 100 10.213.64.2 10.213.64.99
cap timestamps      -D -c 5 -p 20 10.213.64.2
cap size-timeout    -c 5 -p 20 -b 1000 -t 200 -e 10.213.64.2
cap alive           10.213.64.2
cap icmp-errors     -c 3 -p 20 -t 100 10.213.64.2 10.213.65.1 10.213.66.1
