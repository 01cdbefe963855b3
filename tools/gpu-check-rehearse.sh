#!/usr/bin/env bash
# Rehearses tools/gpu-check.sh, here, on a machine like the lent GPU machine as far as a CPU machine can
# be: a bare Debian chroot with only a C++ compiler, Python and PyTorch from pip (the device's version),
# CMake and ninja from pip, none of the engine's other C++ dependencies, and no network while the script
# runs (unshare -n). It runs `GPU_CHECK_DRY=1 tools/gpu-check.sh` with the carried .gpu-check-pack, so a
# missing dependency, a configure or link problem or a crash with that PyTorch shows here, not in the
# device's few minutes. Needs root, debootstrap, and Debian's mirror and PyPI once (about 3 GB for torch).
#
#   tools/gpu-check-pack.sh && tools/gpu-check-rehearse.sh     prints the dry run's summary
#
# Environment: REHEARSE_ROOT (the chroot, default /srv/osprey-gpu-rehearsal; kept for the next run),
# REHEARSE_TORCH (default 2.11.0, the device image's; with its torchvision REHEARSE_TORCHVISION, 0.26.0).
set -euo pipefail
cd "$(dirname "$0")/.."
root=${REHEARSE_ROOT:-/srv/osprey-gpu-rehearsal}
torch=${REHEARSE_TORCH:-2.11.0}
torchvision=${REHEARSE_TORCHVISION:-0.26.0}
repo=$PWD
if [[ $(id -u) != 0 ]]; then
    echo "gpu-check-rehearse: needs root (debootstrap, chroot, mounts)" >&2
    exit 1
fi
if [[ ! -d .gpu-check-pack ]]; then
    echo "gpu-check-rehearse: no .gpu-check-pack; run tools/gpu-check-pack.sh first" >&2
    exit 1
fi
if [[ ! -x $root/usr/bin/g++ ]]; then
    command -v debootstrap >/dev/null || apt-get install -y -q debootstrap
    echo "gpu-check-rehearse: debootstrap into $root" >&2
    debootstrap --variant=minbase --include=g++,make,python3,python3-venv,ca-certificates bookworm "$root" \
        http://deb.debian.org/debian >/dev/null
fi
# This machine's CA bundle (a proxy may sign PyPI's certificates) and resolver, for the venv's install.
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mounts=()
bind() { # source target
    mkdir -p "$root$2"
    mountpoint -q "$root$2" || mount --bind "$1" "$root$2"
    mounts=("$root$2" "${mounts[@]}")
}
cleanup() { for m in "${mounts[@]}"; do umount "$m" 2>/dev/null || true; done; }
trap cleanup EXIT
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
mounts=("$root/proc")
bind /dev /dev
bind "$repo" /work/osprey
cuda=$(readlink -f /usr/local/cuda)
if [[ -d $cuda ]]; then
    bind "$cuda" /usr/local/cuda
fi
venv=/opt/torch/.venv
if [[ ! -f $root$venv/.complete-$torch ]]; then
    echo "gpu-check-rehearse: torch $torch and the device image's Python packages into $venv" >&2
    chroot "$root" bash -c "rm -rf $venv && python3 -m venv $venv && PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
        $venv/bin/pip install -q --progress-bar off torch==$torch torchvision==$torchvision cmake ninja numpy \
        opencv-python-headless matplotlib pillow pyyaml requests scipy psutil httpx nvidia-ml-py && \
        touch $venv/.complete-$torch"
fi
# A build folder of its own: the chroot's compiler and paths differ from this machine's.
echo "gpu-check-rehearse: GPU_CHECK_DRY=1 tools/gpu-check.sh, offline, with torch $torch" >&2
unshare -n chroot "$root" bash -c "cd /work/osprey && export PATH=$venv/bin:/usr/local/cuda/bin:\$PATH && \
    GPU_CHECK_DRY=1 GPU_CHECK_BUILD_DIR=build-gpu-rehearsal GPU_CHECK_BUILD_S=1800 GPU_CHECK_BUDGET_S=2700 \
    OUT=/tmp/gpu-check-rehearsal tools/gpu-check.sh"
