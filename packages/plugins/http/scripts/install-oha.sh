#!/usr/bin/env bash
# Install oha (the constant-rate HTTP load generator the `http` plugin's
# `generator: oha` uses) into ~/.cache/netbench/oha/bin, where the plugin
# looks when oha is not on PATH. Idempotent: does nothing when oha is
# already on PATH or in the cache. Builds from crates.io with
# `cargo install oha --locked` (about 8 minutes on 2 vCPUs); set
# OHA_VERSION to pin a version (default: the one netbench is tested with).
#
# On a fresh cloud host without Rust: install a current toolchain first
# (rustup; Debian 12's own cargo is too old for oha), or copy a release
# binary of oha to ~/.cache/netbench/oha/bin/oha.
set -euo pipefail
version="${OHA_VERSION:-1.16.0}"
root="${HOME}/.cache/netbench/oha"
if command -v oha >/dev/null 2>&1; then
  echo "install-oha: oha already on PATH ($(command -v oha))" >&2
  exit 0
fi
if [ -x "$root/bin/oha" ] && "$root/bin/oha" --version >/dev/null 2>&1; then
  echo "install-oha: $("$root/bin/oha" --version) already in $root/bin" >&2
  exit 0
fi
cargo_bin="$(command -v cargo || true)"
[ -n "$cargo_bin" ] || { [ -x "$HOME/.cargo/bin/cargo" ] && cargo_bin="$HOME/.cargo/bin/cargo"; }
if [ -z "$cargo_bin" ]; then
  echo "install-oha: no cargo here; install Rust (rustup) and run this again, or put an oha binary in $root/bin" >&2
  exit 1
fi
echo "install-oha: building oha $version with cargo install --locked (a few minutes)" >&2
"$cargo_bin" install oha --version "$version" --locked --root "$root" >&2
"$root/bin/oha" --version
