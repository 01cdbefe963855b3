#!/usr/bin/env bash
# CI's second build (run by .ci/run after the README's test command, which builds with pip's torch): the
# LibTorch modules (core/model, core/train, core/assist), osprey-cli and the fast tests of those modules
# against Debian's LibTorch 1.13 (-DOSPREY_TORCH=debian) in build-debian/, so the build the .deb is made
# from (and that machines without the wheel fall back to) keeps compiling and passing. Every way this
# part can be skipped prints a line that starts with "Debian build: SKIPPED"; a build or test failure fails.
#
#   tools/ci-debian.sh [build-dir]        (default build-debian; OSPREY_CI_JOBS sets -j, default 2)
#
# OSPREY_CI_DEADLINE (seconds since the epoch; .ci/run sets it) is when CI must be done: this part is
# skipped with a line when less than 25 minutes are left (measured: 20 minutes, 19 of them compiling, on a
# loaded 2-core machine with ccache partly warm).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-debian}
jobs=${OSPREY_CI_JOBS:-2}
start=$SECONDS

if [[ -n ${OSPREY_CI_DEADLINE:-} ]] && ((OSPREY_CI_DEADLINE - $(date +%s) < 25 * 60)); then
    echo "Debian build: SKIPPED - less than 25 minutes of CI's time are left for its build and tests"
    exit 0
fi
# When pip's torch could not be installed, the README's build above fell back to Debian's LibTorch and
# was tested whole; building the same again here would prove nothing.
if [[ -f build/CMakeCache.txt ]] && grep -q "^OSPREY_TORCH_DIR_USED:INTERNAL=/usr/" build/CMakeCache.txt; then
    echo "Debian build: SKIPPED - the README's build above already used Debian's LibTorch (no pip torch) and ran the whole suite"
    exit 0
fi

cmake -S . -B "$build" -G Ninja -DOSPREY_TORCH=debian >"$build.configure.log" 2>&1 || {
    cat "$build.configure.log" >&2
    exit 1
}
grep -A2 "Osprey: LibTorch =" "$build.configure.log" | sed 's/^-- /Debian build: /'
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
    echo "Debian build: no fast tests found under tests/core/{model,train,assist}" >&2
    exit 1
fi
echo "Debian build: configured ($((SECONDS - start)) s); building osprey-cli and" $tests
# shellcheck disable=SC2086 # one target per word
cmake --build "$build" -j"$jobs" --target osprey-cli $tests
# ldd's whole output first: with pipefail, `ldd | grep -q` fails whenever grep stops reading before ldd
# has written its last line (ldd then dies of SIGPIPE), which happened on a clean machine.
libraries=$(ldd "$build/app/osprey-cli")
if ! grep -q -E "libtorch.so.1.13 => (/usr)?/lib/" <<<"$libraries"; then
    echo "Debian build: $build/app/osprey-cli does not load Debian's libtorch.so.1.13:" >&2
    grep torch <<<"$libraries" >&2
    exit 1
fi
echo "Debian build: built ($((SECONDS - start)) s); osprey-cli loads Debian's libtorch.so.1.13"
regex="^($(echo $tests | tr ' ' '|'))\$"
ctest --test-dir "$build" --output-on-failure -j"$jobs" -R "$regex"
echo "Debian build: done in $((SECONDS - start)) s"
