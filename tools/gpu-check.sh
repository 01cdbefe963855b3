#!/usr/bin/env bash
# The prepared check for a lent NVIDIA GPU machine. Run it from the repository root; it writes its
# figures to $OUT (default ./gpu-check-out) and stays within GPU_CHECK_BUDGET_S (default 540 s, inside the
# device tool's 600 s for one command):
#
#   1. builds the engine (OSPREY_ENGINE_ONLY=ON: core/common, run, system, model and the training engine,
#      no Qt or OpenCV) and tools/gpu_check against that machine's PyTorch (python3 -c 'import torch');
#   2. one forward of the same seeded yolov8s weights on the CPU and the GPU: max difference (goal <= 1e-3);
#      then the validation pass on the GPU in float32 and under the run's autocast: images/s of both and
#      the relative difference of their losses;
#   3. trains yolov8n (batch 64) and yolov8s (batch 128, and AutoBatch) for a few epochs on synthetic
#      640 px images with bf16 autocast: images/s, peak memory, MFU against the GPU's bf16 peak (goal
#      >= 25 % for yolov8s at batch 128);
#   4. if `ultralytics` imports there (or its wheels were carried), the same yolov8s training with
#      Ultralytics for the ratio (goal >= 1.2x), with its augmentation off as Osprey's side here has none;
#      it runs right after Osprey's; the run with its default augmentation comes last, as context.
#   5. one data-parallel rank over NCCL (RANK=0 WORLD_SIZE=1 MASTER_ADDR/MASTER_PORT): yolov8n, 1 epoch.
#
# That machine reaches no network and its image lacks the engine's other C++ dependencies and Ultralytics:
# tools/gpu-check-pack.sh prepares them here in .gpu-check-pack/, and the run carries it:
#   run(command="tools/gpu-check.sh", carry=[".gpu-check-pack"], timeout_s=600)
# Without the pack, the build uses the machine's own packages (and fails at configure where they are absent).
#
# Every step has a time limit; a step that fails or runs out of time is reported and the next one runs.
# Environment: OUT, GPU_CHECK_BUDGET_S, PYTHON (default python3), PEAK_TFLOPS (dense bf16 peak; guessed
# from the GPU name), GPU_CHECK_JOBS (build parallelism, default nproc), GPU_CHECK_BUILD_DIR (default
# build-gpu-check), GPU_CHECK_DRY=1 (CPU only: the build, the diff on the CPU and tiny trainings,
# Ultralytics' too; to test this script without a GPU; tools/gpu-check-rehearse.sh runs it so in a
# device-like chroot).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-check-out}
mkdir -p "$OUT"
PYTHON=${PYTHON:-python3}
budget=${GPU_CHECK_BUDGET_S:-540}
dry=${GPU_CHECK_DRY:-0}
build=${GPU_CHECK_BUILD_DIR:-build-gpu-check}
summary=$OUT/summary.txt
: >"$summary"
: >"$OUT/gpu-check.log"
# Each step's output goes to a work folder that ends up as one archive in $OUT: the device tool returns at
# most 8 files, so $OUT holds only summary.txt, gpu-check.log, machine.txt and steps.tar.gz.
work=$(mktemp -d)
finish() { tar -czf "$OUT/steps.tar.gz" -C "$work" . 2>/dev/null; }
trap finish EXIT

log() { echo "[$(date -u +%H:%M:%S) +${SECONDS}s] $*" | tee -a "$OUT/gpu-check.log" >&2; }
say() { echo "$*" | tee -a "$summary"; }

# step NAME LIMIT_S COMMAND...: runs with the smaller of LIMIT_S and the time left; output in $work/NAME.*
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
    timeout --kill-after=10 "$limit" "$@" >"$work/$name.out" 2>"$work/$name.err"
    local rc=$?
    if ((rc == 124 || rc == 137)); then
        say "$name: TIMED OUT after ${limit} s (see $name.err)"
    elif ((rc != 0)); then
        # The first compiler or linker error, if any, then the end of the step's stderr.
        say "$name: FAILED (exit $rc): $(grep -h -m 1 -E 'error:|undefined reference' "$work/$name.out" "$work/$name.err" 2>/dev/null | cut -c1-300)" \
            "$(tail -n 3 "$work/$name.err" | tr '\n' ' ')"
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
# The carried C++ dependencies (tools/gpu-check-pack.sh): named one by one, so neither the machine's own
# copies nor a missing multiarch setting can mix in another version. Their libraries go on the loader path
# of the build and of osprey-gpu-check only (with_pack): Python keeps the machine's own SQLite.
pack=$PWD/.gpu-check-pack
deps=()
with_pack=()
if [[ -d $pack/prefix/usr ]]; then
    usr=$pack/prefix/usr
    lib=$usr/lib/x86_64-linux-gnu
    deps=("-DCMAKE_PREFIX_PATH=$usr" "-Dnlohmann_json_DIR=$usr/share/cmake/nlohmann_json" "-Dspdlog_DIR=$lib/cmake/spdlog"
        "-Dfmt_DIR=$lib/cmake/fmt" "-DSQLite3_INCLUDE_DIR=$usr/include" "-DSQLite3_LIBRARY=$lib/libsqlite3.so")
    with_pack=(env "LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    say "deps: carried in .gpu-check-pack ($(grep -c '^Package' "$pack/MANIFEST") Debian packages)"
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
jobs=${GPU_CHECK_JOBS:-$(nproc)}
step configure 120 "${with_pack[@]}" cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DOSPREY_ENGINE_ONLY=ON \
    -DOSPREY_BUILD_TESTS=OFF -DTorch_DIR="$torch_dir" "${deps[@]}" || {
    say "build: configure failed; configure.err in steps.tar.gz names what is missing (the engine needs a C++20" \
        "compiler, CMake 3.25, spdlog, SQLite3, nlohmann-json: tools/gpu-check-pack.sh carries the last three)"
    exit 1
}
step build "${GPU_CHECK_BUILD_S:-300}" "${with_pack[@]}" cmake --build "$build" -j"$jobs" --target osprey-gpu-check || exit 1
check=("${with_pack[@]}" "$build/tools/osprey-gpu-check")
say "build: ok in ${SECONDS} s (Torch_DIR $torch_dir)"

device=0
if [[ $dry == 1 ]]; then
    device=cpu
fi

# ---- CPU vs GPU forward --------------------------------------------------------------------------------
val_images=64
[[ $dry == 1 ]] && val_images=4
if step diff 90 "${check[@]}" diff model=yolov8s imgsz=640 device=$device val_images=$val_images; then
    say "diff: $(cat "$work/diff.out")"
fi

# ---- Osprey training -----------------------------------------------------------------------------------
train() { # name model imgsz batch images epochs
    if step "$1" 150 "${check[@]}" train model="$2" imgsz="$3" batch="$4" images="$5" epochs="$6" device=$device \
        amp=true peak_tflops="$PEAK_TFLOPS"; then
        say "$1: $(tail -n 1 "$work/$1.out")"
        grep -h "AutoBatch" "$work/$1.err" | sed "s/^ */$1: /" | tee -a "$summary"
    fi
}

# ---- Ultralytics on the same kind of data, for the ratio -------------------------------------------------
# osprey-gpu-check feeds the engine batches from memory (this machine has no OpenCV for C++, so Osprey's
# decode and augmentation are not built here). The like-for-like ratio is therefore against Ultralytics
# with its augmentation off (images cached in RAM, letterbox only); the run with its default augmentation
# (mosaic, HSV, flips) comes last, as context, where time is left. Its wheels come from the pack when the
# machine's Python lacks them; it runs offline (YOLO_OFFLINE), with its AMP self-check (which downloads a
# model) taken as passed: AMP stays on, as by Ultralytics' default.
ultralytics_data=$(mktemp -d)
export YOLO_OFFLINE=1 YOLO_CONFIG_DIR=$ultralytics_data/config
cat >"$work/ultralytics_train.py" <<'PY'
# The synthetic data osprey-gpu-check trains on: random images with 4 boxes each (16 distinct images,
# repeated), 80 classes; the model from its yaml, AMP, no validation, images cached in RAM. save=False: an
# epoch's time then holds no checkpoint (the final one is written after the last time stamp), as Osprey's
# images/s counts only its training loop.
import csv, os, sys, time
import cv2, numpy as np
import ultralytics.engine.trainer as trainer
from ultralytics import YOLO
root, model_name, imgsz, batch, images, epochs, device, augment = sys.argv[1:9]
imgsz, batch, images, epochs = int(imgsz), int(batch), int(images), int(epochs)
trainer.check_amp = lambda model: True  # offline: its check needs a download; AMP on, as by default
data = f"{root}/data-{imgsz}-{images}"
if not os.path.exists(f"{data}/data.yaml"):
    os.makedirs(f"{data}/images/train", exist_ok=True); os.makedirs(f"{data}/labels/train", exist_ok=True)
    rng = np.random.default_rng(7)
    pool = [rng.integers(0, 256, (imgsz, imgsz, 3), dtype=np.uint8) for _ in range(16)]
    for i in range(images):
        cv2.imwrite(f"{data}/images/train/{i}.jpg", pool[i % 16])
        with open(f"{data}/labels/train/{i}.txt", "w") as f:
            for b in range(4):
                x = 0.1 + 0.2 * b
                f.write(f"{(i + b) % 80} {x + 0.075:.4f} {x + 0.1:.4f} 0.15 0.2\n")
    with open(f"{data}/data.yaml", "w") as f:
        f.write(f"path: {data}\ntrain: images/train\nval: images/train\nnames: {dict(enumerate(f'class{c}' for c in range(80)))}\n")
off = {} if augment == "1" else dict(mosaic=0.0, hsv_h=0.0, hsv_s=0.0, hsv_v=0.0, fliplr=0.0, translate=0.0, scale=0.0)
start = time.time()
YOLO(f"{model_name}.yaml").train(data=f"{data}/data.yaml", imgsz=imgsz, batch=batch, epochs=epochs, device=device,
    workers=min(16, os.cpu_count()), amp=True, val=False, plots=False, pretrained=False, project=root,
    name=f"run-{augment}", exist_ok=True, cache="ram", save=False, verbose=False, **off)
times = [float(r["time"]) for r in csv.DictReader(open(f"{root}/run-{augment}/results.csv"))]
last = times[-1] - times[-2] if len(times) > 1 else times[-1]
print(f"ultralytics augment={'default' if augment == '1' else 'off'} images_per_s={images / last:.1f} "
      f"epochs={len(times)} total_s={time.time() - start:.0f}")
PY
ultralytics_train() { # name model imgsz batch images epochs device augment(0|1)
    if step "$1" 240 "$PYTHON" "$work/ultralytics_train.py" "$ultralytics_data" "${@:2}"; then
        say "$1: $(tail -n 1 "$work/$1.out")"
    fi
}
ratio() { # osprey_step ultralytics_step label
    local ours theirs
    ours=$(grep -o 'images_per_s=[0-9.]*' "$work/$1.out" 2>/dev/null | cut -d= -f2)
    theirs=$(grep -o 'images_per_s=[0-9.]*' "$work/$2.out" 2>/dev/null | cut -d= -f2)
    if [[ -n $ours && -n $theirs ]]; then
        say "ratio: Osprey/Ultralytics $3 = $(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')x"
    fi
}
have_ultralytics=0
if "$PYTHON" -c 'import ultralytics' 2>/dev/null; then
    have_ultralytics=1
elif compgen -G "$pack/wheels/*.whl" >/dev/null; then
    site=$(mktemp -d)
    if "$PYTHON" -m pip install --quiet --no-index --no-deps --no-compile --no-cache-dir --target "$site" \
        "$pack"/wheels/*.whl >"$work/wheels.log" 2>&1; then
        export PYTHONPATH=$site${PYTHONPATH:+:$PYTHONPATH}
        "$PYTHON" -c 'import ultralytics' 2>>"$work/wheels.log" && have_ultralytics=1
    fi
    ((have_ultralytics)) ||
        say "ultralytics: the carried wheels did not install or import: $(tail -n 2 "$work/wheels.log" | tr '\n' ' ')"
fi
if ! ((have_ultralytics)) && ! compgen -G "$pack/wheels/*.whl" >/dev/null; then
    say "ultralytics: not importable here and no wheels carried (tools/gpu-check-pack.sh); no ratio"
fi

if [[ $dry == 1 ]]; then
    # The same steps, tiny and on the CPU: they test this script, not the speed.
    train dry_train yolov8n 64 4 8 1
    if ((have_ultralytics)); then
        ultralytics_train dry_ultralytics yolov8n 64 4 8 1 cpu 0 &&
            ratio dry_train dry_ultralytics "yolov8n, dry run on the CPU (not a speed)"
    fi
else
    train yolov8s_b128 yolov8s 640 128 2048 3
    if ((have_ultralytics)); then
        ultralytics_train ultralytics_noaug yolov8s 640 128 2048 3 0 0 &&
            ratio yolov8s_b128 ultralytics_noaug "yolov8s b128, both without augmentation"
    fi
    train yolov8n_b64 yolov8n 640 64 2048 3
    train yolov8s_auto yolov8s 640 -1 2048 2
fi

# ---- data parallel: one NCCL rank through the torchrun environment (issue 18) ---------------------------
# The engine's c10d path on this GPU: rank 0 of 1 hosts the store, joins NCCL (Gloo in a dry run), trains.
ddp_port=$((29500 + RANDOM % 2000))
ddp_size=(imgsz=320 batch=32 images=256)
[[ $dry == 1 ]] && ddp_size=(imgsz=64 batch=4 images=8)
if [[ $dry == 1 ]] && grep -q "^OSPREY_GLOO_INCLUDE_DIR:PATH=.*NOTFOUND" "$build/CMakeCache.txt"; then
    say "ddp_1rank: SKIPPED - a dry run trains data parallel over Gloo, and this build found no gloo headers"
elif step ddp_1rank 120 env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$ddp_port \
    "${check[@]}" train model=yolov8n "${ddp_size[@]}" epochs=1 device=$device amp=true; then
    say "ddp_1rank: $(tail -n 1 "$work/ddp_1rank.out")"
    grep -h "Data parallel\|Weights identical" "$work/ddp_1rank.err" | sed "s/^ */ddp_1rank: /" | tee -a "$summary"
fi
if [[ $dry != 1 ]] && ((have_ultralytics)); then
    ultralytics_train ultralytics_aug yolov8s 640 128 2048 3 0 1 &&
        ratio yolov8s_b128 ultralytics_aug "yolov8s b128, Ultralytics with its default augmentation (context)"
fi
rm -rf "$ultralytics_data"
log "done in ${SECONDS} s"
cat "$summary"
