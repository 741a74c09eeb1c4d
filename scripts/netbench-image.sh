#!/usr/bin/env bash
# Build the image netbench's Kubernetes Indexed Job runs (`netbench plan
# --shards N --emit k8s-job`, docs/long-studies.md), without pulling anything
# from an image registry: mmdebstrap makes a Debian bookworm root file system
# from the Debian mirror (main + non-free, for netperf) with the measuring
# tools, this checkout's built netbench goes in with its production
# dependencies and Node 24, and `docker import` turns it into an image whose
# entrypoint is `netbench`. Push it to your registry and give it to
# `plan --emit k8s-job --image`.
#
#   scripts/netbench-image.sh                 build IMAGE (default netbench:latest)
#   IMAGE=registry.example/netbench:1 scripts/netbench-image.sh
#
# Needs root (or mmdebstrap's unshare mode), mmdebstrap, a running dockerd,
# npm (the registry, for the production dependencies) and a build of this
# checkout (`npm run build`). Environment: IMAGE, MIRROR (as
# scripts/docker-image.sh), DOCKER_HOST.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${IMAGE:-netbench:latest}"
SUITE=bookworm
# The tools netbench runs on a host, and what the local lab needs (iproute2, tc).
PACKAGES=(iputils-ping iproute2 netperf iperf3 iperf fping irtt procps ca-certificates)

for tool in mmdebstrap docker npm; do
  command -v "$tool" >/dev/null || { echo "netbench-image: $tool is not installed" >&2; exit 1; }
done
docker info >/dev/null 2>&1 || { echo "netbench-image: dockerd is not reachable (start it: scripts/dockerd.sh start)" >&2; exit 1; }
[ -f packages/cli/dist/bundle/run.cjs ] || { echo "netbench-image: build first (scripts/node24 npm run build)" >&2; exit 1; }
node_bin=$(scripts/node24 sh -c 'command -v node')
node_home=$(dirname "$(dirname "$node_bin")")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
began=$(date +%s)

# The app: every workspace's manifest and build output, then only production dependencies.
app="$work/netbench"
mkdir -p "$app"
cp package.json package-lock.json "$app/"
while IFS= read -r manifest; do
  dir=$(dirname "$manifest")
  mkdir -p "$app/$dir"
  cp "$manifest" "$app/$dir/"
  for part in dist bin; do [ -e "$dir/$part" ] && cp -a "$dir/$part" "$app/$dir/"; done
done < <(git ls-files 'packages/*/package.json' 'packages/plugins/*/package.json')
repo=$PWD
(cd "$app" && ELECTRON_SKIP_BINARY_DOWNLOAD=1 "$repo/scripts/node24" npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
# The desktop app (Electron) is not for a Job's pod.
rm -rf "$app/node_modules/electron" "$app/packages/desktop/dist/renderer"
version=$(cd "$app" && "$node_bin" -p 'require("./packages/cli/package.json").version')

cat > "$work/netbench-entry" <<'EOF'
#!/bin/sh
exec /opt/node24/bin/node /opt/netbench/packages/cli/bin/run.js "$@"
EOF
chmod 0755 "$work/netbench-entry"

mirror=()
[ -n "${MIRROR:-}" ] && mirror=("$MIRROR")
include=$(IFS=,; echo "${PACKAGES[*]}")
mmdebstrap --quiet --variant=apt --components=main,non-free --include="$include" \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook='rm -f "$1"/etc/hostname "$1"/etc/resolv.conf' \
  --customize-hook="copy-in $node_home /opt" \
  --customize-hook="mv \"\$1\"/opt/$(basename "$node_home") \"\$1\"/opt/node24" \
  --customize-hook="copy-in $app /opt" \
  --customize-hook="copy-in $work/netbench-entry /usr/local/bin" \
  --customize-hook='mv "$1"/usr/local/bin/netbench-entry "$1"/usr/local/bin/netbench' \
  "$SUITE" "$work/rootfs.tar" "${mirror[@]}"
docker import \
  --change 'ENTRYPOINT ["/usr/local/bin/netbench"]' \
  --change 'ENV NETBENCH_HOME=/var/lib/netbench' \
  --change "LABEL org.netbench.version=\"$version\"" \
  --change 'LABEL org.opencontainers.image.description="netbench (CLI, plugins, Node 24) with ping, netperf, iperf3, iperf, fping and irtt on Debian bookworm"' \
  --message "netbench $version: mmdebstrap $SUITE + ${PACKAGES[*]}" \
  "$work/rootfs.tar" "$IMAGE" >/dev/null
echo "netbench-image: built $IMAGE (netbench $version) in $(( $(date +%s) - began )) s ($(du -h "$work/rootfs.tar" | cut -f1) root file system)" >&2
