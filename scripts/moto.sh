#!/usr/bin/env bash
# Ensure a Python venv with moto[server] (the AWS emulator the AWS plugin's
# tests run against) and the official API definitions the cloud stand-ins
# check requests against — botocore's service models (a moto dependency) and
# the Compute Engine discovery document shipped in google-api-python-client —
# and print the path of its `moto_server`. Idempotent: a venv that already
# has both is reused without touching the network.
#   NETBENCH_MOTO_VERSION  pip requirement for moto (default: moto[server]>=5,<6)
#   NETBENCH_GOOGLE_API_CLIENT  pip requirement for the discovery documents (default: google-api-python-client>=2,<3)
set -euo pipefail
dir="${XDG_CACHE_HOME:-$HOME/.cache}/netbench/moto"
bin="$dir/bin/moto_server"
requirement="${NETBENCH_MOTO_VERSION:-moto[server]>=5,<6}"
discovery="${NETBENCH_GOOGLE_API_CLIENT:-google-api-python-client>=2,<3}"

if [[ -x "$bin" ]] && "$dir/bin/python" -c 'import moto.server' >/dev/null 2>&1; then
  # A venv made before the discovery documents were needed gets them added.
  if ! "$dir/bin/python" -c 'import googleapiclient' >/dev/null 2>&1; then
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$discovery" >&2
  fi
  echo "$bin"
  exit 0
fi

python=$(command -v python3 || true)
if [[ -z "$python" ]]; then
  echo "moto.sh: python3 is needed (Debian: apt-get install python3 python3-venv)" >&2
  exit 1
fi
mkdir -p "$(dirname "$dir")"
# A half-made venv from an interrupted run is rebuilt rather than patched.
rm -rf "$dir"
if ! "$python" -m venv "$dir" >&2; then
  rm -rf "$dir"
  # Debian and Ubuntu ship venv (ensurepip) separately: install it when we may.
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "moto.sh: installing python3-venv" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
  fi
  if ! "$python" -m venv "$dir" >&2; then
    echo "moto.sh: could not create a venv (Debian: apt-get install python3-venv)" >&2
    rm -rf "$dir"
    exit 1
  fi
fi
"$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$requirement" "$discovery" >&2
"$dir/bin/python" -c 'import moto.server, botocore, googleapiclient' >&2
echo "$bin"
