#!/usr/bin/env bash
# Creates (once) the Python venvs of the test peers that Osprey's tests and benchmarks run side by side
# (never linked, never a dependency of the product):
#   ~/.cache/osprey/ultralytics-venv  ultralytics 8.4.190, onnx, onnxruntime; its torch is the torch venv's
#                                     (packaging/setup-cuda-torch.sh), made visible through a .pth file,
#                                     so the 3 GB wheel is neither downloaded nor unpacked twice
#   ~/.cache/osprey/tracking-venv     mlflow 3.17.2 (a real tracking server) and tensorboard (its reader)
#
#   packaging/setup-test-peers.sh [ultralytics|tracking ...]   (default: both)
#
# Each venv is complete only once its stamp is written after a successful install and import; a stamp
# that names other versions (or another torch) makes it be built again. OSPREY_CI_DEADLINE (seconds since
# the epoch, set by .ci/run) bounds each install by the time CI has left less OSPREY_PEERS_KEEP_S (default
# 40 minutes, for the build and the tests). Every way a peer is left out prints one line that starts with
# "Test peers: SKIPPED", and the tests that need it then skip with their own message; the script exits 0
# unless it is used wrongly.
set -uo pipefail

ultralytics_version=8.4.190
mlflow_version=3.17.2
cache=${OSPREY_CACHE_DIR:-$HOME/.cache/osprey}
python=${OSPREY_PYTHON:-/usr/bin/python3}
keep=${OSPREY_PEERS_KEEP_S:-2400}
here=$(cd "$(dirname "$0")" && pwd)

skip() { echo "Test peers: SKIPPED - $*"; }

# Seconds an install may take: what CI has left less what the build and tests need, or 0 (no limit).
budget() {
    if [[ -z ${OSPREY_CI_DEADLINE:-} ]]; then
        echo 0
        return
    fi
    echo $((OSPREY_CI_DEADLINE - $(date +%s) - keep))
}

# install VENV STAMP_TEXT PACKAGES...: (re)creates VENV unless its stamp says STAMP_TEXT; returns 0 when ready.
install() {
    local venv=$1 stamp_text=$2
    shift 2
    local stamp=$venv/.osprey-peers-complete
    if [[ -f $stamp && $(<"$stamp") == "$stamp_text" ]]; then
        echo "setup-test-peers: $(basename "$venv") ready ($stamp_text)" >&2
        return 0
    fi
    local limit
    limit=$(budget)
    if [[ -n ${OSPREY_CI_DEADLINE:-} ]] && ((limit < 60)); then
        skip "$(basename "$venv"): too little of CI's time is left to install $*"
        return 1
    fi
    rm -rf "$venv"
    if ! "$python" -m venv "$venv"; then
        skip "$(basename "$venv"): $python cannot create a venv (install python3-venv)"
        return 1
    fi
    if [[ -n ${PEER_PTH:-} ]]; then
        local site
        site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
        echo "$PEER_PTH" >"$site/osprey-torch.pth"
    fi
    echo "setup-test-peers: installing $* into $venv$( ((limit > 0)) && echo " within $limit s")" >&2
    local log status=0
    log=$(mktemp)
    timeout "$((limit > 0 ? limit : 0))" nice -n 10 "$venv/bin/pip" install --progress-bar off "$@" \
        >"$log" 2>&1 || status=$?
    if ((status != 0)); then
        tail -n 5 "$log" >&2
        rm -f "$log"
        rm -rf "$venv"
        if ((status == 124)); then
            skip "$(basename "$venv"): installing $* took longer than the $limit s CI had for it"
        else
            skip "$(basename "$venv"): pip could not install $* (exit $status)"
        fi
        return 1
    fi
    rm -f "$log"
    echo "$stamp_text" >"$stamp"
    return 0
}

ultralytics_peer() {
    local torch_dir torch_site torch_version
    if ! torch_dir=$("$here/setup-cuda-torch.sh" --torch-dir 2>/dev/null); then
        skip "ultralytics-venv: no torch venv (packaging/setup-cuda-torch.sh did not complete), so no Ultralytics parity tests"
        return
    fi
    # .../site-packages/torch/share/cmake/Torch -> .../site-packages
    torch_site=$(cd "$torch_dir/../../../.." && pwd)
    torch_version=$(PYTHONPATH=$torch_site "$python" -c 'import importlib.metadata as m; print(m.version("torch"))')
    PEER_PTH=$torch_site install "$cache/ultralytics-venv" \
        "ultralytics==$ultralytics_version torch==$torch_version at $torch_site" \
        "ultralytics==$ultralytics_version" onnx onnxruntime || return
    if ! "$cache/ultralytics-venv/bin/python" -c 'import ultralytics, torch' >/dev/null 2>&1; then
        skip "ultralytics-venv: ultralytics does not import; removed"
        rm -rf "$cache/ultralytics-venv"
    fi
}

tracking_peer() {
    install "$cache/tracking-venv" "mlflow==$mlflow_version tensorboard" "mlflow==$mlflow_version" tensorboard ||
        return
    if ! "$cache/tracking-venv/bin/python" -c 'import mlflow, tensorboard' >/dev/null 2>&1; then
        skip "tracking-venv: mlflow or tensorboard does not import; removed"
        rm -rf "$cache/tracking-venv"
    fi
}

peers=("$@")
((${#peers[@]})) || peers=(ultralytics tracking)
for peer in "${peers[@]}"; do
    case $peer in
    ultralytics) ultralytics_peer ;;
    tracking) tracking_peer ;;
    *)
        echo "usage: $0 [ultralytics|tracking ...]" >&2
        exit 1
        ;;
    esac
done
exit 0
