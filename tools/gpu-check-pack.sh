#!/usr/bin/env bash
# Prepares, here, what tools/gpu-check.sh needs on the lent GPU machine and cannot fetch there (that machine
# reaches no network, and its image holds CUDA, CMake, ninja and PyTorch but not the engine's other C++
# dependencies, nor Ultralytics):
#
#   - prefix/: Debian's packages of the engine's C++ dependencies (nlohmann-json, spdlog with fmt, SQLite),
#     unpacked with dpkg -x; gpu-check.sh configures against them and puts their libraries on the loader
#     path. Debian 12's libraries need glibc 2.36 or newer, which that image's Ubuntu has.
#   - wheels/: Ultralytics and the packages it imports that the image lacks, for that image's Python, so
#     the same training runs with Ultralytics for the ratio. gpu-check.sh installs them with --no-index.
#
#   tools/gpu-check-pack.sh        writes .gpu-check-pack/ (git-ignored) and prints what will travel
#
# Then, with a lent device: run(command="tools/gpu-check.sh", carry=[".gpu-check-pack"], timeout_s=600).
# Environment: GPU_CHECK_PYTHON_VERSION (the device's Python, default 3.12), ULTRALYTICS_VERSION (default
# the one the CPU benchmarks were measured against).
set -euo pipefail
cd "$(dirname "$0")/.."
pack=.gpu-check-pack
python_version=${GPU_CHECK_PYTHON_VERSION:-3.12}
ultralytics_version=${ULTRALYTICS_VERSION:-8.4.190}
debs=(nlohmann-json3-dev libspdlog-dev libspdlog1.10 libfmt-dev libfmt9 libsqlite3-dev libsqlite3-0)
# ultralytics-thop and -platform are imported by Ultralytics at start; polars when it saves a checkpoint.
# polars 1.9 is one 33 MB wheel, where 2.x splits into a 54 MB runtime: the device tree must stay under 64 MiB.
wheels=("ultralytics==$ultralytics_version" ultralytics-thop==2.2.3 ultralytics-platform==0.1.99 polars==1.9.0)
limit_mib=62

staging=$(mktemp -d "$PWD/.gpu-check-pack.XXXXXX")
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/debs" "$staging/prefix" "$staging/wheels"

echo "gpu-check-pack: Debian packages: ${debs[*]}" >&2
if ! (cd "$staging/debs" && apt-get download "${debs[@]}" >"$staging/apt.log" 2>&1); then
    cat "$staging/apt.log" >&2
    echo "gpu-check-pack: apt-get download failed (run apt-get update first if the lists are missing)" >&2
    exit 1
fi
for deb in "$staging"/debs/*.deb; do
    dpkg -x "$deb" "$staging/prefix"
    dpkg-deb -f "$deb" Package Version | paste -sd ' ' >>"$staging/MANIFEST"
done
# Only headers, libraries and CMake configs travel; the docs do not.
rm -rf "$staging/prefix/usr/share/doc" "$staging/prefix/usr/share/lintian" "$staging/prefix/usr/share/man"
rm -rf "$staging/debs"
find "$staging/prefix" -name "*.a" -delete

echo "gpu-check-pack: wheels for Python $python_version: ${wheels[*]}" >&2
if ! python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version "$python_version" \
    --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 -d "$staging/wheels" "${wheels[@]}" 2>"$staging/pip.log"; then
    cat "$staging/pip.log" >&2
    echo "gpu-check-pack: pip download failed" >&2
    exit 1
fi
(cd "$staging/wheels" && ls -1 ./*.whl | sed 's|^\./|wheel |') >>"$staging/MANIFEST"
rm -f "$staging/apt.log" "$staging/pip.log"

# What travels to the device: the tracked and untracked-not-ignored files, and the pack.
tree_bytes=$(git ls-files -z -co --exclude-standard | xargs -0 stat -c %s 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
pack_bytes=$(du -sb "$staging" | cut -f1)
total_mib=$(((tree_bytes + pack_bytes) / 1048576))
if ((total_mib > limit_mib)); then
    echo "gpu-check-pack: the tree ($((tree_bytes / 1048576)) MiB) and the pack ($((pack_bytes / 1048576)) MiB) make" \
        "${total_mib} MiB, over the ${limit_mib} MiB that may travel; nothing written" >&2
    exit 1
fi
rm -rf "$pack"
mv "$staging" "$pack"
trap - EXIT
cat "$pack/MANIFEST"
echo "gpu-check-pack: wrote $pack ($((pack_bytes / 1048576)) MiB; with the tree ${total_mib} MiB of the 64 MiB" \
    "that may travel). On the device: tools/gpu-check.sh with carry [\"$pack\"]" >&2
