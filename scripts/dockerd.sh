#!/usr/bin/env bash
# Start or stop a Docker daemon for netbench's tests (as root).
#
#   scripts/dockerd.sh start   start dockerd unless one answers already;
#                              prints nothing, exits 0 when it answers
#   scripts/dockerd.sh stop    stop the dockerd this script started (and only it),
#                              remove what that dockerd leaves behind (its
#                              iptables chains and the rules jumping to them,
#                              docker0), and put back the iptables FORWARD
#                              policy and bridge netfilter switch it found
#
# The daemon runs with its defaults (overlay2 under /var/lib/docker, socket
# /var/run/docker.sock). Note: dockerd sets iptables' FORWARD policy to DROP
# and loads br_netfilter; netbench's local lab is built to keep working then.
set -euo pipefail
state=/run/netbench-dockerd
pidfile="$state/dockerd.pid"
log="$state/dockerd.log"

answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# What a stopped dockerd leaves: its DOCKER* chains in the filter and nat tables, the rules of the built-in
# chains that jump to them or name docker0 (MASQUERADE of its subnet), and the docker0 bridge.
remove_docker_net() {
  local table rule chain chains
  for table in filter nat; do
    iptables -w -t "$table" -S 2>/dev/null | { grep -E '^-A (INPUT|FORWARD|OUTPUT|PREROUTING|POSTROUTING) .*(-j DOCKER|docker0)' || true; } | while read -r rule; do
      # shellcheck disable=SC2086  # the rule as iptables printed it (Docker's have no quoted words), as -D's arguments
      iptables -w -t "$table" -D ${rule#-A } || true
    done
    chains=$(iptables -w -t "$table" -S 2>/dev/null | sed -n 's/^-N \(DOCKER[A-Za-z0-9_-]*\)$/\1/p')
    for chain in $chains; do iptables -w -t "$table" -F "$chain" || true; done
    for chain in $chains; do iptables -w -t "$table" -X "$chain" || true; done
  done
  if ip link show docker0 >/dev/null 2>&1; then ip link delete docker0 || true; fi
}

# Sourced (the tests call remove_docker_net in a namespace of their own): define, do nothing.
if [ "${BASH_SOURCE[0]}" != "$0" ]; then return 0; fi

case "${1:-}" in
  start)
    if answers; then exit 0; fi
    command -v dockerd >/dev/null || { echo "dockerd.sh: dockerd is not installed (apt-get install -y docker.io)" >&2; exit 1; }
    mkdir -p "$state"
    # What dockerd changes machine-wide, to put back on stop.
    iptables -w -S FORWARD 2>/dev/null | sed -n 's/^-P FORWARD //p' >"$state/forward-policy" || true
    cat /proc/sys/net/bridge/bridge-nf-call-iptables >"$state/bridge-nf" 2>/dev/null || echo absent >"$state/bridge-nf"
    # containerd is started by dockerd itself when none runs.
    setsid dockerd --pidfile "$state/daemon.pid" >"$log" 2>&1 < /dev/null &
    echo $! >"$pidfile"
    for _ in $(seq 1 150); do
      if answers; then exit 0; fi
      kill -0 "$(cat "$pidfile")" 2>/dev/null || break
      sleep 0.2
    done
    echo "dockerd.sh: dockerd did not answer; its log ($log):" >&2
    tail -n 20 "$log" >&2 || true
    exit 1
    ;;
  stop)
    [ -f "$pidfile" ] || exit 0
    pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid"
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    fi
    rm -f "$pidfile"
    remove_docker_net
    policy=$(cat "$state/forward-policy" 2>/dev/null || true)
    [ -n "$policy" ] && iptables -w -P FORWARD "$policy" || true
    nf=$(cat "$state/bridge-nf" 2>/dev/null || true)
    if [ "$nf" = 0 ] || [ "$nf" = 1 ]; then echo "$nf" >/proc/sys/net/bridge/bridge-nf-call-iptables || true; fi
    rm -f "$state/forward-policy" "$state/bridge-nf"
    ;;
  *)
    echo "usage: scripts/dockerd.sh start|stop" >&2
    exit 2
    ;;
esac
