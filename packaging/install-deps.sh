#!/usr/bin/env bash
# Installs every Debian 12 package Osprey needs to build, test and run. Idempotent: when everything is
# already installed it only checks and exits.
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache pkg-config git
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-svg-dev libgl-dev
    libqcustomplot-dev libqcustomplot2.1-qt6
    libtorch-dev libopenblas0-pthread libgloo-dev
    libopencv-dev libfreetype-dev libfontconfig-dev
    libsqlite3-dev sqlite3
    libcurl4-openssl-dev
    nlohmann-json3-dev rapidjson-dev libyaml-cpp-dev libpugixml-dev
    libonnx-dev libprotobuf-dev protobuf-compiler
    libcli11-dev libspdlog-dev
    libsecret-1-dev
    xvfb xauth
    fonts-noto-cjk qt6-translations-l10n
    librsvg2-bin desktop-file-utils appstream lintian
    python3
)

missing=()
for package in "${packages[@]}"; do
    if [[ $(dpkg-query -W -f='${Status}' "$package" 2>/dev/null) != *"install ok installed"* ]]; then
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages are installed"
    exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
