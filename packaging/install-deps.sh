#!/usr/bin/env bash
# Installs every Debian 12 package Osprey needs to build, test and run, then pip's torch wheel, whose
# LibTorch the default build links (packaging/setup-cuda-torch.sh: a venv in ~/.cache/osprey, about 3 GB
# downloaded once, with pip's progress shown). Idempotent: when everything is already there it only
# checks and exits, downloading nothing.
#
# OSPREY_TORCH (the same values as the CMake option): auto (default) falls back to Debian's LibTorch 1.13
# with a line saying so when the wheel cannot be downloaded or does not fit on the disk; pip makes that an
# error; debian skips the wheel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
torch_choice=${OSPREY_TORCH:-auto}
case $torch_choice in
auto | pip | debian) ;;
*)
    echo "install-deps: OSPREY_TORCH=$torch_choice: use auto, pip or debian" >&2
    exit 1
    ;;
esac

# pip's torch after the Debian packages (it needs python3-venv); exit codes as setup-cuda-torch.sh's.
pip_torch() {
    if [[ $torch_choice == debian ]]; then
        echo "install-deps: OSPREY_TORCH=debian, so no pip torch; the build uses Debian's LibTorch 1.13 (CPU only)"
        return 0
    fi
    local status=0
    "$here/setup-cuda-torch.sh" >/dev/null || status=$?
    if ((status == 0)); then
        return 0
    elif [[ $torch_choice == auto ]] && ((status == 3 || status == 4)); then
        echo "install-deps: pip's torch is NOT installed (see above); the build falls back to Debian's LibTorch 1.13 (CPU only, float32). For the GPU-capable build, run packaging/setup-cuda-torch.sh later, then cmake -S . -B build again"
        return 0
    fi
    echo "install-deps: packaging/setup-cuda-torch.sh failed (exit $status)" >&2
    return 1
}

packages=(
    build-essential cmake ninja-build ccache pkg-config git
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev libgl-dev
    libqcustomplot-dev libqcustomplot2.1-qt6
    libtorch-dev libopenblas0-pthread libgloo-dev
    libopencv-dev libjpeg62-turbo-dev libfreetype-dev libfontconfig-dev
    libsqlite3-dev sqlite3
    libcurl4-openssl-dev
    nlohmann-json3-dev rapidjson-dev libyaml-cpp-dev libpugixml-dev
    libonnx-dev libprotobuf-dev protobuf-compiler
    libcli11-dev libspdlog-dev
    libsecret-1-dev
    xvfb xauth
    fonts-noto-cjk qt6-translations-l10n
    librsvg2-bin desktop-file-utils appstream lintian
    python3 python3-venv
)

missing=()
for package in "${packages[@]}"; do
    if [[ $(dpkg-query -W -f='${Status}' "$package" 2>/dev/null) != *"install ok installed"* ]]; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages are installed"
    pip_torch
    exit $?
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
pip_torch
