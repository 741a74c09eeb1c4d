# shellcheck shell=bash
# as_root WHY "$0" "$@": continue as root — as we are, or again through sudo
# when it exists (a fresh Debian often has none, and root needs none); else
# say why root is needed and stop.
as_root() {
  local why=$1
  shift
  [ "$(id -u)" -eq 0 ] && return 0
  if command -v sudo >/dev/null 2>&1; then
    exec sudo -- "$@"
  fi
  echo "$(basename "$1") $why: run it as root (there is no sudo here)" >&2
  exit 1
}
