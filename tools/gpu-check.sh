#!/usr/bin/env bash
# The prepared check for a lent NVIDIA GPU machine. Run it from the repository root; it writes its
# figures to $OUT (default ./gpu-check-out) and stays within GPU_CHECK_BUDGET_S (default 480 s):
#
#   1. builds the engine (OSPREY_ENGINE_ONLY=ON: core/common, run, system, model and the training engine,
#      no Qt or OpenCV) and tools/gpu_check against that machine's PyTorch (python3 -c 'import torch');
#   2. one forward of the same seeded yolov8s weights on the CPU and the GPU: max difference (goal <= 1e-3);
#      then the validation pass on the GPU in float32 and under the run's autocast: images/s of both and
#      the relative difference of their losses;
#   3. trains yolov8n (batch 64) and yolov8s (batch 128, and AutoBatch) for a few epochs on synthetic
#      640 px images with bf16 autocast: images/s, peak memory, MFU against the GPU's bf16 peak (goal
#      >= 25 % for yolov8s at batch 128);
#   4. if `ultralytics` imports there, the same yolov8s training with Ultralytics for the ratio (goal
#      >= 1.2x).
#   5. one data-parallel rank over NCCL (RANK=0 WORLD_SIZE=1 MASTER_ADDR/MASTER_PORT): yolov8n, 1 epoch.
#
# Every step has a time limit; a step that fails or runs out of time is reported and the next one runs.
# Environment: OUT, GPU_CHECK_BUDGET_S, PYTHON (default python3), PEAK_TFLOPS (dense bf16 peak; guessed
# from the GPU name), GPU_CHECK_JOBS (build parallelism, default nproc), GPU_CHECK_DRY=1 (CPU only: build, diff on the CPU, a tiny training; to test this
# script on a machine without a GPU).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-check-out}
mkdir -p "$OUT"
PYTHON=${PYTHON:-python3}
budget=${GPU_CHECK_BUDGET_S:-480}
dry=${GPU_CHECK_DRY:-0}
build=build-gpu-check
summary=$OUT/summary.txt
: >"$summary"

log() { echo "[$(date -u +%H:%M:%S) +${SECONDS}s] $*" | tee -a "$OUT/gpu-check.log" >&2; }
say() { echo "$*" | tee -a "$summary"; }

# step NAME LIMIT_S COMMAND...: runs with the smaller of LIMIT_S and the time left; output in $OUT/NAME.*
step() {
    local name=$1 limit=$2
    shift 2
    local left=$((budget - SECONDS))
    if ((left < 15)); then
        say "$name: SKIPPED - the ${budget} s budget is spent"
        return 1
    fi
    ((limit > left)) && limit=$left
    log "$name (limit ${limit} s): $*"
    timeout --kill-after=10 "$limit" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
    local rc=$?
    if ((rc == 124 || rc == 137)); then
        say "$name: TIMED OUT after ${limit} s (see $name.err)"
    elif ((rc != 0)); then
        say "$name: FAILED (exit $rc): $(tail -n 3 "$OUT/$name.err" | tr '\n' ' ')"
    fi
    return $rc
}

# ---- the machine --------------------------------------------------------------------------------------
{
    nvidia-smi --query-gpu=index,name,memory.total,memory.used,driver_version,compute_cap --format=csv 2>&1 ||
        echo "nvidia-smi: not found"
    nproc
    "$PYTHON" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "available",
        torch.cuda.is_available(), "cxx11abi", torch._C._GLIBCXX_USE_CXX11_ABI)' 2>&1
} >"$OUT/machine.txt"
log "machine: $(tr '\n' ' ' <"$OUT/machine.txt")"
gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
if [[ -z ${PEAK_TFLOPS:-} ]]; then
    # Dense bf16 tensor-core peaks (NVIDIA data sheets, SXM parts where both exist).
    case $gpu_name in
    *H200* | *H100*) PEAK_TFLOPS=989 ;;
    *B200*) PEAK_TFLOPS=2250 ;;
    *A100*) PEAK_TFLOPS=312 ;;
    *L40S*) PEAK_TFLOPS=362 ;;
    *A10G* | *A10*) PEAK_TFLOPS=125 ;;
    *4090*) PEAK_TFLOPS=165 ;;
    *) PEAK_TFLOPS=989 ;;
    esac
fi
say "gpu: ${gpu_name:-none} (bf16 peak taken as $PEAK_TFLOPS TFLOPS)"

# ---- build ---------------------------------------------------------------------------------------------
torch_dir=$("$PYTHON" -c 'import torch, os; print(os.path.join(torch.utils.cmake_prefix_path, "Torch"))' 2>/dev/null)
if [[ -z $torch_dir ]]; then
    torch_dir=$(packaging/setup-cuda-torch.sh --torch-dir 2>/dev/null || packaging/setup-cuda-torch.sh | tail -n 1)
fi
if [[ -z $torch_dir || ! -d $torch_dir ]]; then
    say "build: FAILED - no PyTorch found ($PYTHON -c 'import torch'), and packaging/setup-cuda-torch.sh could not install one"
    exit 1
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
jobs=${GPU_CHECK_JOBS:-$(nproc)}
step configure 120 cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DOSPREY_ENGINE_ONLY=ON \
    -DOSPREY_BUILD_TESTS=OFF -DTorch_DIR="$torch_dir" || {
    say "build: configure failed; missing packages are named in configure.err (the engine needs a C++20 compiler, CMake 3.25, spdlog, SQLite3, nlohmann-json)"
    exit 1
}
step build "${GPU_CHECK_BUILD_S:-300}" cmake --build "$build" -j"$jobs" --target osprey-gpu-check || exit 1
check=$build/tools/osprey-gpu-check
say "build: ok in ${SECONDS} s (Torch_DIR $torch_dir)"

device=0
if [[ $dry == 1 ]]; then
    device=cpu
fi

# ---- CPU vs GPU forward --------------------------------------------------------------------------------
val_images=64
[[ $dry == 1 ]] && val_images=4
if step diff 90 "$check" diff model=yolov8s imgsz=640 device=$device val_images=$val_images; then
    say "diff: $(cat "$OUT/diff.out")"
fi

# ---- Osprey training -----------------------------------------------------------------------------------
train() { # name model batch images epochs
    if step "$1" 150 "$check" train model="$2" imgsz=640 batch="$3" images="$4" epochs="$5" device=$device \
        amp=true peak_tflops="$PEAK_TFLOPS"; then
        say "$1: $(tail -n 1 "$OUT/$1.out")"
        grep -h "AutoBatch" "$OUT/$1.err" | sed "s/^ */$1: /" | tee -a "$summary"
    fi
}
if [[ $dry == 1 ]]; then
    step dry_train 300 "$check" train model=yolov8n imgsz=64 batch=4 images=8 epochs=1 device=cpu amp=true &&
        say "dry_train: $(tail -n 1 "$OUT/dry_train.out")"
else
    train yolov8n_b64 yolov8n 64 2048 3
    train yolov8s_b128 yolov8s 128 2048 3
    train yolov8s_auto yolov8s -1 2048 2
fi

# ---- data parallel: one NCCL rank through the torchrun environment (issue 18) ---------------------------
# The engine's c10d path on this GPU: rank 0 of 1 hosts the store, joins NCCL (Gloo in a dry run), trains.
ddp_port=$((29500 + RANDOM % 2000))
ddp_size=(imgsz=320 batch=32 images=256)
[[ $dry == 1 ]] && ddp_size=(imgsz=64 batch=4 images=8)
if step ddp_1rank 120 env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$ddp_port \
    "$check" train model=yolov8n "${ddp_size[@]}" epochs=1 device=$device amp=true; then
    say "ddp_1rank: $(tail -n 1 "$OUT/ddp_1rank.out")"
    grep -h "Data parallel\|Weights identical" "$OUT/ddp_1rank.err" | sed "s/^ */ddp_1rank: /" | tee -a "$summary"
fi

# ---- Ultralytics, for the ratio --------------------------------------------------------------------------
if [[ $dry != 1 ]] && "$PYTHON" -c 'import ultralytics' 2>/dev/null; then
    cat >"$OUT/ultralytics_train.py" <<'PY'
# Ultralytics on the same kind of synthetic data: 2048 random 640 px images with 4 boxes each (16 distinct
# images, as osprey-gpu-check uses), yolov8s from its yaml, batch 128, bf16/fp16 AMP, no validation.
import os, sys, time, csv
import numpy as np, cv2
from ultralytics import YOLO
root = sys.argv[1]
os.makedirs(f"{root}/images/train", exist_ok=True); os.makedirs(f"{root}/labels/train", exist_ok=True)
rng = np.random.default_rng(7)
pool = [rng.integers(0, 256, (640, 640, 3), dtype=np.uint8) for _ in range(16)]
for i in range(2048):
    cv2.imwrite(f"{root}/images/train/{i}.jpg", pool[i % 16])
    with open(f"{root}/labels/train/{i}.txt", "w") as f:
        for b in range(4):
            x = 0.1 + 0.2 * b
            f.write(f"{(i + b) % 80} {x + 0.075:.4f} {x + 0.1:.4f} 0.15 0.2\n")
with open(f"{root}/data.yaml", "w") as f:
    f.write(f"path: {root}\ntrain: images/train\nval: images/train\nnames: {dict(enumerate(f'class{c}' for c in range(80)))}\n")
model = YOLO("yolov8s.yaml")
start = time.time()
model.train(data=f"{root}/data.yaml", imgsz=640, batch=128, epochs=3, workers=min(16, os.cpu_count()),
            amp=True, val=False, plots=False, pretrained=False, project=root, name="run", exist_ok=True,
            cache="ram", verbose=False)
rows = list(csv.DictReader(open(f"{root}/run/results.csv")))
times = [float(r["time"]) for r in rows]
last = times[-1] - times[-2] if len(times) > 1 else times[-1]
print(f"ultralytics images_per_s={2048 / last:.1f} epochs={len(rows)} total_s={time.time() - start:.0f}")
PY
    if step ultralytics 240 "$PYTHON" "$OUT/ultralytics_train.py" "$(mktemp -d)"; then
        say "ultralytics: $(tail -n 1 "$OUT/ultralytics.out")"
        ours=$(grep -o 'images_per_s=[0-9.]*' "$OUT/yolov8s_b128.out" 2>/dev/null | cut -d= -f2)
        theirs=$(grep -o 'images_per_s=[0-9.]*' "$OUT/ultralytics.out" | cut -d= -f2)
        if [[ -n $ours && -n $theirs ]]; then
            say "ratio: Osprey/Ultralytics yolov8s b128 = $(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')x"
        fi
    fi
else
    say "ultralytics: not importable here (or dry run); no ratio"
fi
log "done in ${SECONDS} s"
cat "$summary"
