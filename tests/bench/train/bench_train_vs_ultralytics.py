#!/usr/bin/env python3
"""End-to-end CPU training speed, Osprey against Ultralytics, side by side in one run.

Both train yolov8n (or --model, e.g. yolo26n) from scratch on the same synthetic data (the demo generator's 200 train + 50 val
images, exported once as an Ultralytics dataset), at the same image size, batch, epochs and torch thread
count, each with its own defaults otherwise. Ultralytics resets torch to one thread on the CPU; a callback
sets it back to the same count before training starts. The figure is the training throughput (images/s of
the training phase, validation excluded) over the epochs after the first, and the final mAP50-95. For a
YOLO26 both heads are reported: the one-to-many head with NMS (both tools' default validation) and the
NMS-free one-to-one head (each tool's own val of its last weights with nms=False).

Usage (from the repository root, after a build):
  python3 tests/bench/train/bench_train_vs_ultralytics.py [--cli build/app/osprey-cli]
      [--python ~/.cache/osprey/ultralytics-venv/bin/python] [--model yolov8n] [--epochs 4] [--imgsz 320] [--batch 16]
      [--threads 2] [--images 250] [--work DIR] [--only osprey|ultralytics]
      [--osprey-variant "amp=false" ...] [--weights ../shared/fixtures/models/ultralytics-trained/yolov8n-shapes-best.pt]
      [--ceiling [--bench-train build/tests/bench/train/bench_train]] [--isa avx2]
--ceiling also runs bench_train's training step alone (yolov8n, the same imgsz, batch and thread count, the
demo generator's images; `ninja -C build bench_train` first) and prints the step's images/s in each compute
mode beside the end-to-end figures, and how close each Osprey run's training loop came to it.
Each --osprey-variant adds an Osprey run with those extra train arguments (e.g. amp=false beside the
default, which trains in bf16 on a CPU with AMX/AVX512-BF16 under LibTorch 2.x), all in the same run.
--isa avx2 stands in for a CPU without AVX-512 (so without fast bf16: a float32-only CPU) on one that has
it: both tools run with torch's CPU kernels, oneDNN, MKL and OpenCV held to AVX2 (ATEN_CPU_CAPABILITY,
ONEDNN_MAX_CPU_ISA, MKL_ENABLE_INSTRUCTIONS, OPENCV_CPU_DISABLE) and Osprey with amp=false, what it chooses
on such a CPU. Osprey's own kernels (the HSV pass, the warp's columns) still pick their AVX-512 clones, a
few percent of an epoch.
The Ultralytics venv is the one tst_ultralytics_fresh uses (`python3 -m venv V && V/bin/pip install
ultralytics`); without it the Ultralytics half is skipped with a message.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# A CPU without AVX-512, emulated (--isa avx2): torch's ATen kernels, oneDNN, MKL and OpenCV's dispatch.
AVX2_ONLY = {
    "ATEN_CPU_CAPABILITY": "avx2",
    "ONEDNN_MAX_CPU_ISA": "AVX2",
    "MKL_ENABLE_INSTRUCTIONS": "AVX2",
    "OPENCV_CPU_DISABLE": "AVX512_SKX,AVX512_COMMON,AVX512_KNL,AVX512_KNM,AVX512_CNL,AVX512_CLX,AVX512_ICL",
}

ULTRALYTICS_DRIVER = r"""
import json, sys, time, torch
from ultralytics import YOLO
cfg = json.loads(sys.argv[1])
threads = cfg["threads"]
epochs = []
state = {}
def start(trainer):
    torch.set_num_threads(threads)
def epoch_start(trainer):
    torch.set_num_threads(threads)
    state["t"] = time.perf_counter()
def epoch_end(trainer):
    epochs.append({"seconds": time.perf_counter() - state["t"],
                   "images": len(trainer.train_loader.dataset),
                   "threads": torch.get_num_threads()})
model = YOLO(cfg["model"])
model.add_callback("on_train_start", start)
model.add_callback("on_train_epoch_start", epoch_start)
model.add_callback("on_train_epoch_end", epoch_end)
results = model.train(data=cfg["data"], epochs=cfg["epochs"], imgsz=cfg["imgsz"], batch=cfg["batch"],
                      device="cpu", workers=cfg["workers"], project=cfg["project"], name="u", exist_ok=True,
                      plots=False, pretrained=cfg["model"].endswith(".pt"), amp=False, close_mosaic=0, seed=0, verbose=False)
out = {"epochs": epochs, "map50_95": float(results.box.map), "map50": float(results.box.map50)}
if "yolo26" in cfg["model"]:
    last = YOLO(str(model.trainer.last))
    e2e = last.val(data=cfg["data"], imgsz=cfg["imgsz"], batch=cfg["batch"], device="cpu", nms=False, plots=False,
                   verbose=False, project=cfg["project"], name="v", exist_ok=True)
    out["e2e_map50_95"] = float(e2e.box.map)
print("RESULT " + json.dumps(out))
"""


def run(command, env=None, cwd=None):
    started = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}")
    return done.stdout, time.perf_counter() - started


def throughput(epochs):
    """Images/s over the epochs after the first (all of them when there is only one)."""
    steady = epochs[1:] if len(epochs) > 1 else epochs
    images = sum(e["images"] for e in steady)
    seconds = sum(e["seconds"] for e in steady)
    return images / seconds


def osprey(args, project, extra=()):
    run_dir = os.path.join(project, "runs", "bench")
    shutil.rmtree(run_dir, ignore_errors=True)
    events = os.path.join(run_dir, "events.jsonl")
    command = [args.cli, "train", f"project={project}", f"model={args.model}", f"epochs={args.epochs}",
               f"imgsz={args.imgsz}", f"batch={args.batch}", "device=cpu", f"threads={args.threads}",
               "close_mosaic=0", "seed=0", "name=bench", *extra]
    if args.weights:
        command.append(f"weights={args.weights}")
    if args.workers is not None:
        command.append(f"workers={args.workers}")
    _, wall = run(command)
    precision = "float32 (no AMP line in the log)"
    cpu = ""
    with open(os.path.join(run_dir, "args.yaml")) as f:
        amp = next((l.split(":", 1)[1].strip() for l in f if l.startswith("amp:")), "?")
    epochs, final = [], {}
    with open(events) as f:
        for line in f:
            event = json.loads(line)
            if event.get("type") == "log" and event.get("message", "").startswith(("AMP:", "amp=false:")):
                precision = event["message"]
            if event.get("type") == "log" and event.get("message", "").startswith("CPU:"):
                cpu = event["message"]
            if event.get("type") == "epoch":
                rate = event["images_per_s"]
                train_images = args.train_images
                epochs.append({"seconds": train_images / rate, "images": train_images})
                final = event["metrics"]
    result = {"epochs": epochs, "map50_95": final.get("metrics/mAP50-95(B)", float("nan")),
              "map50": final.get("metrics/mAP50(B)", float("nan")), "wall": wall, "amp": amp,
              "precision": precision, "cpu": cpu}
    if args.model.startswith("yolo26"):
        out, _ = run([args.cli, "val", f"project={project}", f"weights={os.path.join(run_dir, 'weights', 'last.pt')}",
                      f"imgsz={args.imgsz}", f"batch={args.batch}", f"threads={args.threads}", "plots=false",
                      "nms=false"])
        words = out.split()
        result["e2e_map50_95"] = float(words[words.index("mAP50-95") + 1])
    return result


def step_ceiling(args):
    """bench_train's step alone, images/s by compute mode at args.threads, or a reason there is none."""
    bench = os.path.abspath(args.bench_train)
    if args.model != "yolov8n":
        return None, "the step ceiling is measured for yolov8n only (bench_train)"
    if args.isa == "avx2":
        return None, "not under --isa avx2 (bench_train also times bf16, which AVX2 runs emulated, for many minutes)"
    if not os.path.exists(bench):
        return None, f"{bench} not found (ninja -C build bench_train)"
    # Benchmarks are not in `all`: a bench_train older than the osprey-cli beside it times older code.
    cli = os.path.abspath(args.cli)
    if os.path.exists(cli) and os.path.getmtime(bench) < os.path.getmtime(cli):
        return None, f"{bench} is older than {cli} (ninja -C build bench_train)"
    # libgomp's default waits, as osprey-cli trains on an idle machine (docs/threads.md).
    out, _ = run([bench, "64", str(args.imgsz), str(args.batch), "8", "modes"])
    rates, threads = {}, None
    for line in out.splitlines():
        header = re.match(r"Training step by memory format and precision, threads=(\d+)", line)
        if header:
            threads = int(header.group(1))
            continue
        row = re.match(r"\s+(\S.*?)\s+([\d.]+) images/s \(", line)
        if row and threads == args.threads:
            rates[row.group(1)] = float(row.group(2))
    if not rates:
        return None, f"bench_train measured no step at {args.threads} threads (it measures 1 and all cores)"
    return rates, ""


def ultralytics(args, data):
    config = {"model": args.weights or f"{args.model}.yaml", "data": data, "epochs": args.epochs, "imgsz": args.imgsz, "batch": args.batch,
              "threads": args.threads, "workers": args.workers if args.workers is not None else 8,
              "project": os.path.join(args.work, "ultralytics-runs")}
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads), YOLO_OFFLINE="1", YOLO_CONFIG_DIR=os.path.join(args.work, "ultralytics-config"))
    out, wall = run([args.python, "-c", ULTRALYTICS_DRIVER, json.dumps(config)], env=env, cwd=args.work)
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    result = json.loads(line[len("RESULT "):])
    result["wall"] = wall
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default="build/app/osprey-cli")
    parser.add_argument("--python", default=os.path.expanduser("~/.cache/osprey/ultralytics-venv/bin/python"))
    parser.add_argument("--model", default="yolov8n", help="yolov8n, yolo11n, yolo26n, ...")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--imgsz", type=int, default=320)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None, help="both tools' default when not given")
    parser.add_argument("--images", type=int, default=250)
    parser.add_argument("--work", default=None)
    parser.add_argument("--only", choices=["osprey", "ultralytics"], default=None)
    parser.add_argument("--weights", default=None,
                        help="start both from this Ultralytics .pt (e.g. the shapes fixture) instead of scratch")
    parser.add_argument("--ceiling", action="store_true", help="also time the training step alone (bench_train)")
    parser.add_argument("--bench-train", default="build/tests/bench/train/bench_train")
    parser.add_argument("--isa", choices=["native", "avx2"], default="native",
                        help="avx2: hold both tools to AVX2, as on a CPU without AVX-512 (see above)")
    parser.add_argument("--osprey-variant", action="append", default=[],
                        help="an extra Osprey run with these space-separated train arguments")
    args = parser.parse_args()
    args.cli = os.path.abspath(args.cli)
    if args.weights:
        args.weights = os.path.abspath(args.weights)
    keep = args.work is not None
    args.work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="osprey-bench-train-"))
    os.makedirs(args.work, exist_ok=True)
    project = os.path.join(args.work, "demo")
    dataset = os.path.join(args.work, "yolo")
    if not os.path.exists(os.path.join(project, "project.osprey")):
        run([args.cli, "demo", f"path={project}", f"images={args.images}", f"imgsz={args.imgsz}", "seed=0"])
    if not os.path.exists(os.path.join(dataset, "data.yaml")):
        run([args.cli, "export", f"project={project}", "format=yolo", f"dest={dataset}", "images=copy"])
    with open(os.path.join(dataset, "data.yaml")) as f:
        print("dataset:", " ".join(l.strip() for l in f if l.strip()))
    train_dir = os.path.join(dataset, "images", "train")
    args.train_images = len(os.listdir(train_dir)) if os.path.isdir(train_dir) else int(args.images * 0.8)
    start = f"from {os.path.basename(args.weights)}" if args.weights else "from scratch"
    print(f"{args.model} {start}, imgsz {args.imgsz}, batch {args.batch}, {args.epochs} epochs, "
          f"{args.train_images} train images, torch threads {args.threads}, {os.cpu_count()} CPUs")

    base = []
    if args.isa == "avx2":
        os.environ.update(AVX2_ONLY)
        base = ["amp=false"]
        print("instruction sets held to AVX2: " + " ".join(f"{k}={v}" for k, v in AVX2_ONLY.items()))
    results = {}
    if args.only != "ultralytics":
        results["osprey"] = osprey(args, project, base)
        for variant in args.osprey_variant:
            results["osprey " + variant] = osprey(args, project, base + variant.split())
    ceiling, why_not = step_ceiling(args) if args.ceiling and args.only != "ultralytics" else (None, "")
    if args.only != "osprey":
        if not os.path.exists(args.python):
            print(f"ultralytics: skipped ({args.python} not found; create the venv to compare)")
        else:
            results["ultralytics"] = ultralytics(args, os.path.join(dataset, "data.yaml"))
    for name, r in results.items():
        if "precision" in r:
            print(f"{name}: amp={r['amp']}; {r['precision']}; {r['cpu'] or 'no CPU line in the log'}")
        per_epoch = ", ".join(f"{e['images'] / e['seconds']:.2f}" for e in r["epochs"])
        print(f"{name:12s} train {throughput(r['epochs']):6.2f} images/s (epochs: {per_epoch}); "
              f"mAP50-95 {r['map50_95']:.4f}, mAP50 {r['map50']:.4f}; wall {r['wall']:.1f} s")
        if "e2e_map50_95" in r:
            print(f"{name:12s} NMS-free one-to-one head (last weights, nms=False): mAP50-95 {r['e2e_map50_95']:.4f}")
    if ceiling:
        print(f"step ceiling (bench_train, yolov8n, {args.threads} threads, no data, validation or checkpoints): " +
              ", ".join(f"{mode} {rate:.2f} images/s" for mode, rate in ceiling.items()))
        for name, r in results.items():
            if name == "ultralytics":
                continue
            mode = "bf16 autocast, channels-last" if r.get("amp") == "true" and "bf16" in r.get("precision", "") \
                else "fp32, channels-last"
            if mode in ceiling:
                print(f"{name}: training loop at {100 * throughput(r['epochs']) / ceiling[mode]:.0f} % of the step "
                      f"alone ({mode})")
    elif why_not:
        print(f"step ceiling: skipped ({why_not})")
    if "ultralytics" in results:
        for name, r in results.items():
            if name != "ultralytics":
                ratio = throughput(r["epochs"]) / throughput(results["ultralytics"]["epochs"])
                print(f"ratio {name} / Ultralytics (training images/s, epochs 2+): {ratio:.2f}x")
    if not keep:
        shutil.rmtree(args.work, ignore_errors=True)


if __name__ == "__main__":
    main()
