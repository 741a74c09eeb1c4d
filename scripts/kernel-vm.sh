#!/usr/bin/env bash
# A real Debian kernel for the lab's kernel features (netem, fq_codel, cake,
# pie, fq, kernel WireGuard, ESP, GRE, VXLAN, ifb, pktgen) on machines whose
# own kernel lacks them. QEMU boots Debian's linux-image-amd64 (TCG: no KVM
# needed) with a busybox initramfs; the guest's root is this machine's `/`,
# read-only over 9p under a tmpfs overlay, the project folder read-write at
# the same path, and the kernel's module tree where modprobe looks. No NIC:
# nothing can leave the VM.
#
#   scripts/kernel-vm.sh check              exit 0 when a VM can boot here, else say why (exit 1)
#   scripts/kernel-vm.sh setup              fetch and unpack the kernel once (~/.cache/netbench/kernel)
#   scripts/kernel-vm.sh run [-t SECONDS] [--] CMD [ARG...]
#                                           boot, run CMD as root in the project folder, power off;
#                                           exits with CMD's exit code (124 on time-out)
#
# Needs root (apt-get download, 9p as root). Environment: NETBENCH_KERNEL_CACHE (cache folder),
# NETBENCH_VM_MEMORY (MiB, default 1024), NETBENCH_VM_CPUS (default: this machine's, at most 2),
# NETBENCH_VM_HEARTBEAT (seconds: the guest prints its uptime and load on the console that often),
# NETBENCH_VM_LOGLEVEL (the guest kernel's console log level, default 1; 4 shows stalls and lockups),
# NETBENCH_VM_NICE (QEMU's nice value, e.g. -10: its guest's timers fire on time on a busy machine).
set -euo pipefail
cd "$(dirname "$0")/.."
project=$PWD

# shellcheck source=lib/as-root.sh
source scripts/lib/as-root.sh
as_root "boots a VM with this machine's files shared into it" "$PWD/scripts/kernel-vm.sh" "$@"

cache=${NETBENCH_KERNEL_CACHE:-${HOME:-/root}/.cache/netbench/kernel}
qemu=qemu-system-x86_64

say() { echo "kernel-vm: $*" >&2; }
script_sha() { sha256sum "$project/scripts/kernel-vm.sh" | cut -d' ' -f1; }

# The kernel package linux-image-amd64 points at (e.g. linux-image-6.1.0-57-amd64) and its version.
kernel_package() {
  apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}

ensure_packages() {
  local missing=()
  command -v "$qemu" >/dev/null || missing+=(qemu-system-x86)
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

setup() {
  ensure_packages
  local package
  package=$(kernel_package)
  if [ -z "$package" ]; then
    apt-get update -qq
    package=$(kernel_package)
  fi
  [ -n "$package" ] || { say "no linux-image-amd64 in the package lists (apt-get update?)"; exit 1; }
  local dir=$cache/$package
  if [ -f "$dir/ready" ]; then
    # The initramfs is made by this script: one per version of it, named by its hash and written whole
    # (checkouts with different versions share the cache and may boot at the same time).
    [ -f "$dir/initrd-$(script_sha).gz" ] || make_initrd "$dir" "$(cat "$dir/kernel-version")"
    echo "$dir"
    return 0
  fi
  say "setting up $package in $dir (once)"
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  (
    cd "$dir.tmp"
    # apt-get download runs as _apt where it can: give it a folder it may write.
    chmod 0755 .
    apt-get download -q "$package" busybox-static >/dev/null 2>&1 || apt-get download "$package" busybox-static
    mkdir -p deb bb
    dpkg-deb -x "$package"_*.deb deb
    dpkg-deb -x busybox-static_*.deb bb
  )
  local kver
  kver=$(basename "$(ls -d "$dir.tmp"/deb/lib/modules/*)")
  # The bzImage's payload is xz: the ELF vmlinux inside boots through its PVH entry (-M microvm).
  python3 - "$dir.tmp/deb/boot/vmlinuz-$kver" "$dir.tmp/vmlinux" <<'PY'
import lzma, sys
data = open(sys.argv[1], 'rb').read()
start = data.find(b'\xfd7zXZ\x00')
if start < 0: sys.exit('kernel-vm: no xz payload in ' + sys.argv[1])
out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[start:])
if out[:4] != b'\x7fELF': sys.exit('kernel-vm: the payload is not an ELF vmlinux')
open(sys.argv[2], 'wb').write(out)
PY
  mkdir -p "$dir.tmp/lib/modules"
  mv "$dir.tmp/deb/lib/modules/$kver" "$dir.tmp/lib/modules/$kver"
  # Only what a network lab loads (the tree is ~470 MB; these ~100 MB): net, its drivers, crypto, 9p/overlay.
  (cd "$dir.tmp/lib/modules/$kver/kernel" && find . -mindepth 1 -maxdepth 1 ! -name net ! -name lib ! -name crypto ! -name arch ! -name drivers ! -name fs -exec rm -rf {} + &&
    find drivers -mindepth 1 -maxdepth 1 ! -name net ! -name virtio ! -name char -exec rm -rf {} + &&
    find fs -mindepth 1 -maxdepth 1 ! -name 9p ! -name netfs ! -name fscache ! -name overlayfs -exec rm -rf {} +)
  "$dir.tmp/bb/bin/busybox" depmod -b "$dir.tmp" "$kver"
  make_initrd "$dir.tmp" "$kver"
  echo "$kver" > "$dir.tmp/kernel-version"
  rm -rf "$dir.tmp/deb" "$dir.tmp"/*.deb
  touch "$dir.tmp/ready"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  # Older kernels' caches go: one is enough.
  find "$cache" -mindepth 1 -maxdepth 1 -type d ! -name "$package" -exec rm -rf {} +
  echo "$dir"
}

# The initramfs: busybox, the modules that mount the host's root (virtio-mmio, 9p, overlay), and init.
make_initrd() {
  local dir=$1 kver=$2 root
  root=$(mktemp -d)
  mkdir -p "$root"/{bin,dev,proc,sys,modules,lower,rw,new}
  cp "$dir/bb/bin/busybox" "$root/bin/busybox"
  local m
  for m in drivers/virtio/virtio_ring drivers/virtio/virtio drivers/virtio/virtio_mmio fs/netfs/netfs fs/fscache/fscache net/9p/9pnet net/9p/9pnet_virtio fs/9p/9p fs/overlayfs/overlay; do
    cp "$dir/lib/modules/$kver/kernel/$m.ko" "$root/modules/"
  done
  cat > "$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
fail() { echo "kernel-vm init: $*"; echo 125 > /new/netbench-vm/status 2>/dev/null; poweroff -f; }
for m in virtio_ring virtio virtio_mmio netfs fscache 9pnet 9pnet_virtio 9p overlay; do insmod /modules/$m.ko || fail "insmod $m"; done
p9() { mount -t 9p -o "trans=virtio,version=9p2000.L,msize=524288,$2" "$1" "$3"; }
p9 host ro,cache=loose /lower || fail "cannot mount the host's root"
mount -t tmpfs -o mode=0755 tmpfs /rw && mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /new || fail "overlay"
mkdir -p /new/netbench-vm && p9 control cache=none /new/netbench-vm || fail "control share"
project=$(cat /new/netbench-vm/project)
kver=$(uname -r)
for d in proc sys dev; do mount --move /$d /new/$d; done
mkdir -p /new/dev/pts /new/dev/shm
mount -t devpts devpts /new/dev/pts
mount -t tmpfs -o mode=1777 tmpfs /new/dev/shm
mount -t tmpfs -o mode=1777 tmpfs /new/tmp
mount -t tmpfs -o mode=0755 tmpfs /new/run
# After the tmpfs mounts: a project folder under /tmp (a CI clone) must not be hidden by them.
mkdir -p "/new$project" && p9 project cache=none "/new$project" || fail "project share"
mkdir -p "/new/lib/modules/$kver" && p9 modules ro,cache=loose "/new/lib/modules/$kver" || fail "module tree"
# modprobe (tc, ip and the kernel load qdiscs and tunnels on demand) is busybox's, over the VM's module tree.
mkdir -p /new/opt/netbench-vm && cp /bin/busybox /new/opt/netbench-vm/busybox && ln -s busybox /new/opt/netbench-vm/modprobe
[ -e /new/usr/sbin/modprobe ] || ln -s /opt/netbench-vm/busybox /new/usr/sbin/modprobe
# The kernel starts modprobe from the initramfs' root: the same path and module tree there too.
mkdir -p /opt/netbench-vm "/lib/modules/$kver" && ln -s /bin/busybox /opt/netbench-vm/modprobe && mount --bind "/new/lib/modules/$kver" "/lib/modules/$kver"
echo /opt/netbench-vm/modprobe > /new/proc/sys/kernel/modprobe
hostname netbench-vm
ip link set lo up 2>/dev/null
# Where a stuck run stopped: a heartbeat on the console (NETBENCH_VM_HEARTBEAT seconds), beside the command's output.
beat=$(cat /new/netbench-vm/heartbeat 2>/dev/null)
if [ -n "$beat" ]; then
  echo "kernel-vm: guest up in $(cut -d' ' -f1 /new/proc/uptime) s, running the command" > /dev/console
  # /proc moved under /new: read the guest's state there. The newest processes say what it is waiting for.
  (while sleep "$beat"; do
    newest=$(for p in $(ls /new/proc | grep -E '^[0-9]+$' | sort -n | tail -n 12); do { tr '\0' ' ' < /new/proc/$p/cmdline; } 2>/dev/null | cut -c1-100; echo; done |
      grep -v -E '^(|ls|sort|tail|grep|tr|cut|sleep|sh|/bin/busybox)( |$)' | tail -n 3 | tr '\n' '|')
    echo "kernel-vm heartbeat: up $(cut -d' ' -f1 /new/proc/uptime) s, load $(cut -d' ' -f1-3 /new/proc/loadavg), newest: $newest" > /dev/console
  done) &
fi
chroot /new /bin/bash /netbench-vm/run.sh
echo $? > /new/netbench-vm/status
sync
poweroff -f
INIT
  chmod 0755 "$root/init"
  (cd "$root" && find . | "$dir/bb/bin/busybox" cpio -o -H newc 2>/dev/null | gzip -1 > "$dir/initrd.gz.$$")
  mv -f "$dir/initrd.gz.$$" "$dir/initrd-$(script_sha).gz"
  rm -rf "$root"
}

check() {
  command -v "$qemu" >/dev/null || { say "QEMU is not installed (apt-get install qemu-system-x86; scripts/kernel-vm.sh setup does it)"; return 1; }
  [ -e /dev/net/tun ] || true
  local out
  out=$(run_vm 60 true 2>&1) || { say "a VM does not boot here: ${out: -400}"; return 1; }
  return 0
}

# run_vm SECONDS CMD [ARG...]
run_vm() {
  local seconds=$1
  shift
  local dir
  dir=$(setup)
  local kver
  kver=$(cat "$dir/kernel-version")
  local control
  control=$(mktemp -d /tmp/netbench-vm-XXXXXX)
  trap 'rm -rf "$control"' RETURN
  echo "$project" > "$control/project"
  case ${NETBENCH_VM_HEARTBEAT:-} in '' | *[!0-9]*) ;; *) echo "$NETBENCH_VM_HEARTBEAT" > "$control/heartbeat" ;; esac
  {
    echo 'set -e'
    # What the command sees of this environment: CI flags, netbench's settings, the PATH.
    local name
    for name in $(compgen -e); do
      case $name in CI|NETBENCH_*|NODE_OPTIONS|PATH|HOME|TERM|NO_COLOR|FORCE_COLOR|VITEST_*) printf 'export %s=%q\n' "$name" "${!name}" ;; esac
    done
    echo 'export NETBENCH_IN_KERNEL_VM=1'
    # TCG starts processes 10-30x slower: netbench stretches the time limits of the commands it starts (the caller's value wins).
    printf 'export NETBENCH_TIMEOUT_SCALE=%q\n' "${NETBENCH_TIMEOUT_SCALE:-10}"
    printf 'cd %q\n' "$project"
    echo 'set +e'
    printf '%q ' "$@"
    echo
  } > "$control/run.sh"
  local khz cpus
  # microvm under TCG hangs calibrating the TSC: give it this machine's frequency.
  khz=$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
  cpus=${NETBENCH_VM_CPUS:-$(( $(nproc) < 2 ? 1 : 2 ))}
  local code=0 nice=${NETBENCH_VM_NICE:-0}
  case $nice in -[0-9] | -1[0-9] | [0-9] | 1[0-9]) ;; *) say "NETBENCH_VM_NICE=$nice: not a nice value (-19..19)"; return 2 ;; esac
  # The guest's clock is QEMU's threads getting the CPU when a timer is due (netem, cake and ping follow it): on a busy
  # machine they wait behind everything else. With autogroups (the scheduler's default) CPU is shared between sessions,
  # so the session's own nice is what counts; the process's nice where autogroups are off.
  if [ "$nice" != 0 ] && [ -w "/proc/$$/autogroup" ]; then echo "$nice" > "/proc/$$/autogroup" || say "cannot set this session's nice to $nice"; fi
  nice -n "$nice" timeout --foreground -k 5 "$seconds" "$qemu" \
    -M microvm,acpi=on -accel tcg,thread=multi -cpu max -smp "$cpus" -m "${NETBENCH_VM_MEMORY:-1024}" \
    -nodefaults -no-user-config -nographic -no-reboot -serial stdio \
    -kernel "$dir/vmlinux" -initrd "$dir/initrd-$(script_sha).gz" \
    -append "console=ttyS0 quiet loglevel=${NETBENCH_VM_LOGLEVEL:-1} tsc_early_khz=${khz:-2000000} tsc=reliable panic=-1" \
    -fsdev local,id=host,path=/,security_model=none,readonly=on,multidevs=remap -device virtio-9p-device,fsdev=host,mount_tag=host \
    -fsdev local,id=control,path="$control",security_model=none -device virtio-9p-device,fsdev=control,mount_tag=control \
    -fsdev local,id=project,path="$project",security_model=none,multidevs=remap -device virtio-9p-device,fsdev=project,mount_tag=project \
    -fsdev local,id=modules,path="$dir/lib/modules/$kver",security_model=none,readonly=on -device virtio-9p-device,fsdev=modules,mount_tag=modules \
    </dev/null || code=$?
  if [ "$code" -eq 124 ] || [ "$code" -eq 137 ]; then say "timed out after $seconds s"; return 124; fi
  [ -f "$control/status" ] || { say "the VM stopped before the command finished (QEMU exit $code)"; return 125; }
  return "$(cat "$control/status")"
}

case ${1:-} in
  setup) setup ;;
  check) check ;;
  run)
    shift
    seconds=1800
    if [ "${1:-}" = -t ]; then seconds=$2; shift 2; fi
    [ "${1:-}" = -- ] && shift
    [ $# -gt 0 ] || { say "run: which command? (scripts/kernel-vm.sh run -- CMD ARG...)"; exit 2; }
    run_vm "$seconds" "$@"
    ;;
  *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
