#!/usr/bin/env bash
# Fresh machine to first results: set up, then run the quickstart spec on the local lab.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec scripts/netbench run examples/quickstart.yaml "$@"
