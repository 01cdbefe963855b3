#!/usr/bin/env bash
# The CUDA part of CI (run by .ci/run after the README's test command): builds the LibTorch modules
# (core/model, core/train, core/assist), osprey-cli and the fast tests of those modules against pip's CUDA
# LibTorch (packaging/setup-cuda-torch.sh) in build-cuda/, and runs those tests on the CPU (a CUDA
# LibTorch runs on the CPU when no GPU is there). Every way this part can be skipped prints a line that
# starts with "CUDA build: SKIPPED"; a build or test failure fails.
#
#   tools/ci-cuda.sh [build-dir]        (default build-cuda; OSPREY_CUDA_JOBS sets -j, default 2)
#
# OSPREY_CI_DEADLINE (seconds since the epoch; .ci/run sets it) is when CI must be done: the torch
# download then gets what is left less 25 minutes for the cold build and the tests (20 measured on 2
# cores without ccache), and is skipped with a line when that is under 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-cuda}
jobs=${OSPREY_CUDA_JOBS:-2}
start=$SECONDS

# A CUDA LibTorch's CMake files look for the CUDA toolkit (nvcc) even though Osprey compiles no CUDA code.
if ! command -v nvcc >/dev/null 2>&1; then
    if [[ -x /usr/local/cuda/bin/nvcc ]]; then
        export PATH=/usr/local/cuda/bin:$PATH
    else
        echo "CUDA build: SKIPPED - no CUDA toolkit (nvcc) on this machine; install it to build against a CUDA LibTorch"
        exit 0
    fi
fi

if [[ -n ${OSPREY_CI_DEADLINE:-} ]]; then
    left=$((OSPREY_CI_DEADLINE - $(date +%s) - 25 * 60))
    if ((left < 120)); then
        echo "CUDA build: SKIPPED - too little of CI's time is left for the torch download and the cold build"
        exit 0
    fi
    export OSPREY_TORCH_DOWNLOAD_TIMEOUT=$left
fi
set +e
torch_dir=$(packaging/setup-cuda-torch.sh | tail -n 1)
status=$?
set -e
if [[ $status -eq 3 ]]; then
    echo "CUDA build: SKIPPED - pip's torch wheel could not be downloaded (no answer from PyPI, or not in the time CI has left); the CPU build above was tested"
    exit 0
elif [[ $status -eq 4 ]]; then
    echo "CUDA build: SKIPPED - not enough free disk for pip's torch (setup-cuda-torch.sh says how much); the CPU build above was tested"
    exit 0
elif [[ $status -ne 0 || -z $torch_dir ]]; then
    echo "CUDA build: packaging/setup-cuda-torch.sh failed (exit $status)" >&2
    exit 1
fi
echo "CUDA build: pip torch ready ($((SECONDS - start)) s): $torch_dir"

cmake -S . -B "$build" -G Ninja -DTorch_DIR="$torch_dir" >"$build.configure.log" 2>&1 || {
    cat "$build.configure.log" >&2
    exit 1
}
rm -f "$build.configure.log"
# The fast tests of the torch modules: every fast test whose folder is tests/core/{model,train,assist}.
tests=$(ctest --test-dir "$build" -N -L fast --show-only=json-v1 | python3 -c '
import json, sys
for test in json.load(sys.stdin)["tests"]:
    props = {p["name"]: p["value"] for p in test.get("properties", [])}
    folder = props.get("WORKING_DIRECTORY", "")
    if any(folder.endswith("/tests/core/" + m) for m in ("model", "train", "assist")):
        print(test["name"])')
if [[ -z $tests ]]; then
    echo "CUDA build: no fast tests found under tests/core/{model,train,assist}" >&2
    exit 1
fi
echo "CUDA build: configured ($((SECONDS - start)) s); building osprey-cli, osprey-gpu-check and" $tests
# shellcheck disable=SC2086 # one target per word
cmake --build "$build" -j"$jobs" --target osprey-cli osprey-gpu-check $tests
# ldd's whole output first: with pipefail, `ldd | grep -q` fails whenever grep stops reading before ldd
# has written its last line (ldd then dies of SIGPIPE), which happened on a clean machine.
libraries=$(ldd "$build/app/osprey-cli")
if ! grep -q libtorch_cuda.so <<<"$libraries"; then
    echo "CUDA build: $build/app/osprey-cli does not load libtorch_cuda.so (a CPU-only LibTorch?)" >&2
    exit 1
fi
echo "CUDA build: built ($((SECONDS - start)) s); osprey-cli loads libtorch_cuda.so"
regex="^($(echo $tests | tr ' ' '|'))\$"
ctest --test-dir "$build" --output-on-failure -j"$jobs" -R "$regex"
echo "CUDA build: done in $((SECONDS - start)) s"
