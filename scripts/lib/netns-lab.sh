# shellcheck shell=bash
# Shared by the iperf and iperf3 fixture-capture scripts (sourced, not run).
#
#   capture_selection "$@"          the names asked for; `want NAME` is then true
#                                   for those, or for every name when none was given
#                                   (`wants_all`: none was given, a full capture)
#   netns_lab TAG VETH SUBNET       as root: throwaway namespaces $A (client,
#                                   SUBNET.1) and $B (server, SUBNET.2) joined by
#                                   bridge br0 in $HUB (ports port1, port2);
#                                   all deleted on exit, their processes killed first
#
# TAG names the namespaces (TAG-a, TAG-b, TAG-hub); VETH prefixes the veth
# names, which must stay under 16 characters with the pid appended.

capture_selection() {
  wanted=" $* "
}

wants_all() {
  [ "$wanted" = "  " ]
}

want() {
  wants_all || [[ "$wanted" == *" $1 "* ]]
}

netns_lab_cleanup() {
  local ns
  for ns in "$A" "$B" "$HUB"; do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
}

netns_lab() {
  local tag="$1" veth="$2" subnet="$3" ns i=0
  A="$tag-a"; B="$tag-b"; HUB="$tag-hub"
  trap netns_lab_cleanup EXIT
  for ns in "$A" "$B" "$HUB"; do ip netns add "$ns"; ip -n "$ns" link set lo up; done
  ip -n "$HUB" link add br0 type bridge
  ip -n "$HUB" link set br0 up
  for ns in "$A" "$B"; do
    i=$((i + 1))
    ip link add "$veth$$x$i" type veth peer name "$veth$$y$i"
    ip link set "$veth$$x$i" netns "$ns" name eth0
    ip link set "$veth$$y$i" netns "$HUB" name "port$i"
    ip -n "$HUB" link set "port$i" master br0 up
    ip -n "$ns" addr add "$subnet.$i/24" dev eth0
    ip -n "$ns" link set eth0 up
  done
}
