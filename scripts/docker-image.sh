#!/usr/bin/env bash
# Build the local image netbench/tools:bookworm for `cloud: docker` hosts,
# without pulling anything from an image registry: mmdebstrap makes a Debian
# bookworm root file system from the Debian mirror (main + non-free, for
# netperf) with the measuring tools installed, and `docker import` turns it
# into an image. Needs root (or a user in the docker group with mmdebstrap's
# unshare mode), mmdebstrap and a running dockerd.
#
#   scripts/docker-image.sh            build unless an image built from this
#                                      script's current package list exists
#   scripts/docker-image.sh --force    rebuild
#
# Environment: IMAGE (default netbench/tools:bookworm), MIRROR (a Debian
# mirror URL or a deb822 .sources file; default: mmdebstrap's, which also adds
# the updates and security suites), DOCKER_HOST (as the docker CLI reads it).
set -euo pipefail

IMAGE="${IMAGE:-netbench/tools:bookworm}"
SUITE=bookworm
# What netbench's tools and the docker plugin's transport need inside a host.
PACKAGES=(iputils-ping iproute2 netperf iperf3 procps ca-certificates)
# The recipe's identity: an image carrying the same label is up to date.
RECIPE="$SUITE ${PACKAGES[*]} v1"

force=0
[ "${1:-}" = "--force" ] && force=1

for tool in mmdebstrap docker; do
  command -v "$tool" >/dev/null || { echo "docker-image: $tool is not installed (apt-get install -y $([ "$tool" = docker ] && echo docker.io || echo "$tool"))" >&2; exit 1; }
done
docker info >/dev/null 2>&1 || { echo "docker-image: dockerd is not reachable (start it: scripts/dockerd.sh start)" >&2; exit 1; }

if [ "$force" = 0 ]; then
  have=$(docker image inspect --format '{{ index .Config.Labels "org.netbench.recipe" }}' "$IMAGE" 2>/dev/null || true)
  if [ "$have" = "$RECIPE" ]; then
    echo "docker-image: $IMAGE is up to date (recipe: $RECIPE)" >&2
    exit 0
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mirror=()
[ -n "${MIRROR:-}" ] && mirror=("$MIRROR")
began=$(date +%s)
include=$(IFS=,; echo "${PACKAGES[*]}")
# --variant=apt: essential packages plus apt (so options.install can add tools later);
# docs and man pages are left out to keep the image small.
mmdebstrap --quiet --variant=apt --components=main,non-free --include="$include" \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook='rm -f "$1"/etc/hostname "$1"/etc/resolv.conf' \
  "$SUITE" "$work/rootfs.tar" "${mirror[@]}"
docker import \
  --change 'CMD ["sleep", "infinity"]' \
  --change "LABEL org.netbench.recipe=\"$RECIPE\"" \
  --change 'LABEL org.opencontainers.image.description="netbench measuring tools on Debian bookworm (ping, netperf, iperf3)"' \
  --message "netbench: mmdebstrap $SUITE + ${PACKAGES[*]}" \
  "$work/rootfs.tar" "$IMAGE" >/dev/null
echo "docker-image: built $IMAGE in $(( $(date +%s) - began )) s ($(du -h "$work/rootfs.tar" | cut -f1) root file system)" >&2
