#!/usr/bin/env bash
# Fresh machine to first results: set up, then run the quickstart spec on the local lab.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/as-root.sh
source scripts/lib/as-root.sh
as_root "installs Debian packages and builds network namespaces" "$PWD/scripts/quickstart.sh" "$@"
scripts/setup.sh
exec scripts/netbench run examples/quickstart.yaml "$@"
