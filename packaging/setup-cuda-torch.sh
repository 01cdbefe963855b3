#!/usr/bin/env bash
# Creates (once) a Python venv holding pip's CUDA-enabled `torch`, whose bundled LibTorch Osprey's default
# build links against (Debian's libtorch-dev is CPU-only). packaging/install-deps.sh runs it.
#
#   packaging/setup-cuda-torch.sh              install if missing; prints the Torch_DIR on the last line
#   packaging/setup-cuda-torch.sh --torch-dir  print only the Torch_DIR of an installed venv (fails if none)
#
# The venv lives outside the checkout, in ${OSPREY_TORCH_VENV:-~/.cache/osprey/torch-<version>}, so a
# second checkout, a rebuilt tree and CI on a warm machine reuse it (and pip's cache) instead of
# downloading about 3 GB again. It is complete only once the stamp file is written after a successful
# install and import, so an interrupted download is redone rather than trusted.
#
# OSPREY_TORCH_DOWNLOAD_TIMEOUT (seconds, default none) bounds the download and install: CI sets it, so
# a slow mirror ends in the fallback to Debian's LibTorch rather than in CI's own time limit.
#
# Exit codes: 0 ready, 1 usage or local failure, 3 the wheel could not be downloaded (no network answer,
# or not within OSPREY_TORCH_DOWNLOAD_TIMEOUT), 4 not enough free disk for the venv (install-deps.sh
# then says the build falls back to Debian's LibTorch instead of failing).
set -euo pipefail

version=${OSPREY_TORCH_VERSION:-2.15.0}
venv=${OSPREY_TORCH_VENV:-$HOME/.cache/osprey/torch-$version}
stamp=$venv/.osprey-torch-complete
python=${OSPREY_PYTHON:-/usr/bin/python3}

torch_dir() {
    "$venv/bin/python" -c 'import torch, os; print(os.path.join(torch.utils.cmake_prefix_path, "Torch"))' \
        2>/dev/null
}

if [[ ${1:-} == "--torch-dir" ]]; then
    if [[ ! -f $stamp ]]; then
        echo "setup-cuda-torch: no complete torch $version venv at $venv; run packaging/setup-cuda-torch.sh" >&2
        exit 1
    fi
    torch_dir
    exit 0
elif [[ $# -gt 0 ]]; then
    echo "usage: $0 [--torch-dir]" >&2
    exit 1
fi

if [[ -f $stamp ]] && [[ $("$venv/bin/python" -c 'import torch; print(torch.__version__.split("+")[0])' \
    2>/dev/null) == "$version" ]]; then
    echo "setup-cuda-torch: torch $version already installed in $venv" >&2
    torch_dir
    exit 0
fi

if [[ ! -x $python ]]; then
    echo "setup-cuda-torch: $python not found; install python3-venv (packaging/install-deps.sh)" >&2
    exit 1
fi
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
# The wheels (~3 GB while pip installs them) unpack to 5.3 GB; the CUDA build tree takes 2.8 GB more.
need_kib=$((12 * 1024 * 1024))
free_kib=$(df --output=avail -k "$(dirname "$venv")" | tail -n 1 | tr -d ' ')
if ((free_kib < need_kib)); then
    echo "setup-cuda-torch: only $((free_kib / 1024)) MiB free under $(dirname "$venv"); torch $version and its build need about 12 GiB" >&2
    exit 4
fi
"$python" -m venv "$venv"
limit=${OSPREY_TORCH_DOWNLOAD_TIMEOUT:-0}
within=""
((limit > 0)) && within=" within $limit s"
echo "setup-cuda-torch: installing torch==$version (CUDA wheel and its nvidia-* libraries, ~3 GB) into $venv$within" >&2
log=$(mktemp)
status=0
# pip's progress (its standard output) goes live to our standard error, which keeps our standard output
# free for the Torch_DIR; its warnings and errors are kept in $log, to tell a network failure from another,
# and shown after it.
timeout "$limit" nice -n 10 "$venv/bin/pip" install "torch==$version" 1>&2 2>"$log" || status=$?
cat "$log" >&2
if ((status == 124)); then
    rm -f "$log"
    rm -rf "$venv"
    echo "setup-cuda-torch: downloading torch==$version took longer than $limit s; stopped" >&2
    exit 3
elif ((status != 0)); then
    if grep -q -i -E "connection|resolve|network|timed out|No matching distribution|Could not find a version" \
        "$log"; then
        rm -f "$log"
        echo "setup-cuda-torch: could not download torch==$version from PyPI" >&2
        exit 3
    fi
    rm -f "$log"
    echo "setup-cuda-torch: pip install torch==$version failed" >&2
    exit 1
fi
rm -f "$log"
abi=$("$venv/bin/python" -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))' 2>/dev/null)
if [[ $abi != 1 ]]; then
    # Debian's Qt, OpenCV and the rest use the C++11 ABI; a pre-C++11-ABI LibTorch cannot link with them.
    echo "setup-cuda-torch: torch $version uses the pre-C++11 ABI (_GLIBCXX_USE_CXX11_ABI=$abi); choose a newer one" >&2
    exit 1
fi
touch "$stamp"
echo "setup-cuda-torch: torch $version ready" >&2
torch_dir
