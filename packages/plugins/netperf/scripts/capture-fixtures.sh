#!/usr/bin/env bash
# Re-captures the parser fixtures in src/__fixtures__/ from the netperf on this
# machine, between two network namespaces made for the purpose (and loopback).
# Needs root (ip netns). Every command is listed in src/__fixtures__/COMMANDS.txt.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/src/__fixtures__"
a="nbt-netperf-cap-$$-a"
b="nbt-netperf-cap-$$-b"
va="nbtnpc$$a"
vb="nbtnpc$$b"
server=10.251.9.2
ctl=20000
data=20001

cleanup() {
  for ns in "$a" "$b"; do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
  done
  sleep 0.2
  ip netns del "$a" 2>/dev/null || true
  ip netns del "$b" 2>/dev/null || true
  [ -n "${lo_pid:-}" ] && kill "$lo_pid" 2>/dev/null || true
}
trap cleanup EXIT

ip netns add "$a"
ip netns add "$b"
ip link add "$va" type veth peer name "$vb"
ip link set "$va" netns "$a"
ip link set "$vb" netns "$b"
ip -n "$a" addr add 10.251.9.1/24 dev "$va"
ip -n "$b" addr add "$server/24" dev "$vb"
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set "$va" up
ip -n "$b" link set "$vb" up

ip netns exec "$b" netserver -D -4 -p "$ctl" >/dev/null 2>&1 &
sleep 0.5

: >"$out/COMMANDS.txt"
# capture NAME ARGV... : stdout to NAME.txt, stderr to NAME.stderr.txt when not empty.
capture() {
  local name="$1"; shift
  echo "$name: $*" >>"$out/COMMANDS.txt"
  local rc=0
  "$@" >"$out/$name.txt" 2>"$out/$name.stderr.txt" || rc=$?
  [ -s "$out/$name.stderr.txt" ] || rm -f "$out/$name.stderr.txt"
  echo "  exit $rc" >>"$out/COMMANDS.txt"
}

np=(ip netns exec "$a" netperf -H "$server" -p "$ctl")
sel=THROUGHPUT,THROUGHPUT_UNITS,ELAPSED_TIME,PROTOCOL,DIRECTION,MIN_LATENCY,MEAN_LATENCY,MAX_LATENCY,STDDEV_LATENCY,P50_LATENCY,P90_LATENCY,P99_LATENCY,TRANSACTION_RATE,RT_LATENCY,LOCAL_TRANSPORT_RETRANS,REMOTE_TRANSPORT_RETRANS,TRANSPORT_MSS,CONFIDENCE_LEVEL,CONFIDENCE_INTERVAL,CONFIDENCE_ITERATION,THROUGHPUT_CONFID,LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,REQUEST_SIZE,RESPONSE_SIZE,LOCAL_SEND_SIZE,REMOTE_RECV_SIZE,LSS_SIZE,RSR_SIZE,LOCAL_SEND_THROUGHPUT,REMOTE_RECV_THROUGHPUT,LOCAL_BYTES_SENT,REMOTE_BYTES_RECVD,COMMAND_LINE

for t in TCP_RR TCP_CRR UDP_RR TCP_STREAM TCP_MAERTS UDP_STREAM; do
  lower="$(echo "$t" | tr 'A-Z' 'a-z')"
  extra=()
  [ "$t" = UDP_STREAM ] && extra=(-R 1)
  capture "omni-csv-$lower" "${np[@]}" -t "$t" -l 1 -- -P ",$data" "${extra[@]}" -o "$sel"
  capture "omni-keyval-$lower" "${np[@]}" -t "$t" -l 1 -- -P ",$data" "${extra[@]}" -k "$sel"
  capture "classic-$lower" "${np[@]}" -t "$t" -l 1
done

capture classic-cpu-tcp_rr "${np[@]}" -t TCP_RR -l 1 -c -C
capture classic-cpu-tcp_stream "${np[@]}" -t TCP_STREAM -l 1 -c -C
capture classic-cpu-udp_stream "${np[@]}" -t UDP_STREAM -l 1 -c -C
capture classic-v2-tcp_rr "${np[@]}" -t TCP_RR -l 1 -v 2
capture omni-csv-cpu-tcp_rr "${np[@]}" -t TCP_RR -l 1 -c -C -- -P ",$data" -o THROUGHPUT,THROUGHPUT_UNITS,LOCAL_CPU_UTIL,REMOTE_CPU_UTIL,P50_LATENCY
capture omni-csv-sizes-tcp_rr "${np[@]}" -t TCP_RR -l 1 -- -P ",$data" -r 64,1024 -D -o "$sel"
capture omni-csv-sizes-tcp_stream "${np[@]}" -t TCP_STREAM -l 1 -- -P ",$data" -m 8192 -s 262144 -S 262144 -o "$sel"
capture confidence-csv-tcp_rr "${np[@]}" -t TCP_RR -l 1 -I 99,5 -i 10,3 -- -P ",$data" -o "$sel"
capture confidence-csv-tcp_stream "${np[@]}" -t TCP_STREAM -l 1 -I 99,5 -i 10,3 -- -P ",$data" -o "$sel"
capture confidence-classic-tcp_rr "${np[@]}" -t TCP_RR -l 1 -I 99,5 -i 10,3
capture confidence-classic-tcp_stream "${np[@]}" -t TCP_STREAM -l 1 -I 99,5 -i 10,3
capture interval-attempt-tcp_rr "${np[@]}" -t TCP_RR -l 1 -w 10ms -b 1 -- -P ",$data" -o THROUGHPUT,THROUGHPUT_UNITS,P50_LATENCY
capture interval-probe-version netperf -w 1ms -b 1 -V
capture error-no-netserver ip netns exec "$a" netperf -H "$server" -p 20998 -t TCP_RR -l 1 -- -o THROUGHPUT,THROUGHPUT_UNITS
capture error-unknown-test "${np[@]}" -t TCP_BOGUS -l 1
capture error-bad-selector "${np[@]}" -t TCP_RR -l 1 -- -o THROUGHPUT,NOT_A_SELECTOR

# netserver killed in the middle of a test: the data and control connections break.
ip netns exec "$b" netserver -D -4 -p 20100 >/dev/null 2>&1 &
victim=$!
sleep 0.3
( sleep 1; kill "$victim"; pkill -P "$victim" 2>/dev/null || true; ip netns pids "$b" | xargs -r kill ) &
capture error-server-killed-tcp_rr ip netns exec "$a" netperf -H "$server" -p 20100 -t TCP_RR -l 3 -- -o THROUGHPUT,THROUGHPUT_UNITS,P50_LATENCY
wait
ip netns exec "$b" netserver -D -4 -p "$ctl" >/dev/null 2>&1 &
sleep 0.5

# loopback, default netserver family.
netserver -D -L 127.0.0.1 -p 20299 >/dev/null 2>&1 &
lo_pid=$!
sleep 0.5
capture loopback-omni-csv-tcp_rr netperf -H 127.0.0.1 -p 20299 -t TCP_RR -l 1 -- -o "$sel"
capture loopback-classic-tcp_stream netperf -H 127.0.0.1 -p 20299 -t TCP_STREAM -l 1
kill "$lo_pid"
lo_pid=
echo "fixtures written to $out"
