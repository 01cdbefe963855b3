#!/usr/bin/env python3
"""The training input pipeline alone, Osprey against Ultralytics, side by side in one run (issue 37).

Both read the SAME image files: a folder of synthetic JPEGs (coloured rectangles and ellipses on a noisy
gradient, 960x720 by default: larger than imgsz, as camera images are) with YOLO labels, generated once.
- Osprey: tests/bench/train/bench_pipeline (DataLoader::next() in Train mode, mosaic on, the recipe's
  default augmentation), `--workers 1` for the per-core figure, then `--all-workers` threads.
- Ultralytics: its own training dataset and loader (ultralytics.data.build_yolo_dataset and
  build_dataloader, mode "train", default hyperparameters from get_cfg(): mosaic 1.0, degrees 0, translate
  0.1, scale 0.5, HSV 0.015/0.7/0.4, fliplr 0.5, cache off), workers=0 (batches built in the main process)
  for the per-core figure, then `--all-workers` worker processes.
The per-core figures run under `taskset -c 0` (one core for everything: the consumer, the loader, its
threads); the all-core figures run unpinned. Each figure is the median of `--repeats` runs, interleaved
(Osprey, Ultralytics, Osprey, ...) so that load from other programs hurts both alike. The first `--warmup`
batches (Ultralytics' label cache, its empty buffer of recent images, Osprey's thread start) are not timed.

Usage (from the repository root, after `ninja -C build bench_pipeline`):
  python3 tests/bench/train/bench_pipeline_vs_ultralytics.py [--bench build/tests/bench/train/bench_pipeline]
      [--python ~/.cache/osprey/ultralytics-venv/bin/python] [--images 500] [--imgsz 640] [--batch 16]
      [--batches 20] [--repeats 3] [--all-workers 2] [--width 960 --height 720] [--work DIR] [--profile]
      [--ram] [--only per-core|all-cores]
--ram adds both with every decoded image kept in RAM (Osprey's LoaderOptions::cacheAll, timed in the second
epoch; Ultralytics' cache="ram", filled when its dataset is built), untimed fill.
The generator runs in the Ultralytics venv (numpy and cv2 are there); without the venv the script stops.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

GENERATOR = r"""
import sys, os, numpy as np, cv2
root, count, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
os.makedirs(os.path.join(root, "images", "train"), exist_ok=True)
os.makedirs(os.path.join(root, "labels", "train"), exist_ok=True)
rng = np.random.default_rng(0)
for i in range(count):
    gx = np.linspace(0, 1, width, dtype=np.float32)[None, :, None]
    gy = np.linspace(0, 1, height, dtype=np.float32)[:, None, None]
    base = rng.uniform(40, 200, 3).astype(np.float32)
    img = base + 50 * gx * rng.uniform(-1, 1, 3) + 50 * gy * rng.uniform(-1, 1, 3)
    img = img + rng.normal(0, 12, (height, width, 3))
    img = np.clip(img, 0, 255).astype(np.uint8)
    lines = []
    for _ in range(int(rng.integers(2, 9))):
        cls = int(rng.integers(0, 4))
        w, h = int(rng.integers(width // 20, width // 3)), int(rng.integers(height // 20, height // 3))
        x, y = int(rng.integers(0, width - w)), int(rng.integers(0, height - h))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        if cls % 2 == 0:
            cv2.rectangle(img, (x, y), (x + w - 1, y + h - 1), colour, -1)
        else:
            cv2.ellipse(img, (x + w // 2, y + h // 2), (w // 2, h // 2), 0, 0, 360, colour, -1)
        lines.append(f"{cls} {(x + w / 2) / width:.6f} {(y + h / 2) / height:.6f} {w / width:.6f} {h / height:.6f}")
    cv2.imwrite(os.path.join(root, "images", "train", f"{i:05d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    with open(os.path.join(root, "labels", "train", f"{i:05d}.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
with open(os.path.join(root, "data.yaml"), "w") as f:
    f.write(f"path: {root}\ntrain: images/train\nval: images/train\nnames:\n  0: a\n  1: b\n  2: c\n  3: d\n")
"""

ULTRALYTICS_DRIVER = r"""
import json, sys, time, torch
cfg_in = json.loads(sys.argv[1])
torch.set_num_threads(1)
from ultralytics.cfg import get_cfg
from ultralytics.data import build_dataloader, build_yolo_dataset
from ultralytics.data.utils import check_det_dataset
cfg = get_cfg(overrides={"data": cfg_in["data"], "imgsz": cfg_in["imgsz"], "batch": cfg_in["batch"],
                         "workers": cfg_in["workers"], "cache": cfg_in["cache"]})
data = check_det_dataset(cfg_in["data"])
dataset = build_yolo_dataset(cfg, data["train"], cfg_in["batch"], data, mode="train", rect=False, stride=32)
loader = build_dataloader(dataset, cfg_in["batch"], cfg_in["workers"], shuffle=True, rank=-1, pin_memory=False,
                          device="cpu")
it = iter(loader)
for _ in range(cfg_in["warmup"]):
    next(it)
start = time.perf_counter()
images = boxes = 0
for _ in range(cfg_in["batches"]):
    b = next(it)
    images += b["img"].shape[0]
    boxes += b["bboxes"].shape[0]
seconds = time.perf_counter() - start
assert tuple(b["img"].shape[2:]) == (cfg_in["imgsz"], cfg_in["imgsz"]), b["img"].shape
print("RESULT " + json.dumps({"images_per_s": images / seconds, "images": images,
                              "boxes_per_image": boxes / images}))
"""


def run(command, env=None):
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}")
    return done.stdout


def osprey(args, workers, pin, ram):
    command = [args.bench, args.dataset, str(args.imgsz), str(args.batch), str(args.batches), str(workers),
               "rate-ram" if ram else "rate", str(args.warmup)]
    out = run((["taskset", "-c", "0"] if pin else []) + command)
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    fields = dict(kv.split("=") for kv in line.split()[1:])
    return {"images_per_s": float(fields["images_per_s"]), "boxes_per_image": float(fields["boxes_per_image"])}


def ultralytics(args, workers, pin, ram):
    config = {"data": os.path.join(args.dataset, "data.yaml"), "imgsz": args.imgsz, "batch": args.batch,
              "workers": workers, "batches": args.batches, "warmup": args.warmup, "cache": "ram" if ram else False}
    env = dict(os.environ, OMP_NUM_THREADS="1", YOLO_OFFLINE="1",
               YOLO_CONFIG_DIR=os.path.join(args.work, "ultralytics-config"))
    out = run((["taskset", "-c", "0"] if pin else []) + [args.python, "-c", ULTRALYTICS_DRIVER, json.dumps(config)],
              env=env)
    line = next(l for l in out.splitlines() if l.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default="build/tests/bench/train/bench_pipeline")
    parser.add_argument("--python", default=os.path.expanduser("~/.cache/osprey/ultralytics-venv/bin/python"))
    parser.add_argument("--images", type=int, default=500)
    parser.add_argument("--width", type=int, default=960)
    parser.add_argument("--height", type=int, default=720)
    parser.add_argument("--imgsz", type=int, default=640)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--all-workers", type=int, default=os.cpu_count())
    parser.add_argument("--work", default=None, help="keep the generated images here (reused when present)")
    parser.add_argument("--profile", action="store_true", help="also print where a mosaic's time goes")
    parser.add_argument("--only", choices=["per-core", "all-cores"], default=None)
    parser.add_argument("--ram", action="store_true",
                        help="also both with every decoded image in RAM (Osprey cacheAll, Ultralytics cache=ram)")
    args = parser.parse_args()
    if not os.path.exists(args.python):
        raise SystemExit(f"{args.python} not found: create the Ultralytics venv (see tst_ultralytics_fresh)")
    args.bench = os.path.abspath(args.bench)
    keep = args.work is not None
    args.work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="osprey-bench-pipeline-"))
    args.dataset = os.path.join(args.work, f"synthetic-{args.images}-{args.width}x{args.height}")
    if not os.path.exists(os.path.join(args.dataset, "data.yaml")):
        run([args.python, "-c", GENERATOR, args.dataset, str(args.images), str(args.width), str(args.height)])
    print(f"{args.images} synthetic {args.width}x{args.height} JPEGs in {args.dataset}; imgsz {args.imgsz}, "
          f"batch {args.batch}, {args.batches} timed batches after {args.warmup}, median of {args.repeats}; "
          f"{os.cpu_count()} CPUs, load average before: {loadavg()}")
    if args.profile:
        print(run([args.bench, args.dataset, str(args.imgsz), str(args.batch), "4", "1", "profile"]), end="")

    setups = []
    for ram in [False, True] if args.ram else [False]:
        cache = ", images cached in RAM" if ram else ""
        if args.only != "all-cores":
            setups.append((f"per core (taskset -c 0){cache}", 1, 0, True, ram))
        if args.only != "per-core":
            setups.append((f"all cores ({args.all_workers} workers){cache}", args.all_workers, args.all_workers, False,
                           ram))
    for name, osprey_workers, ultralytics_workers, pin, ram in setups:
        ours, theirs = [], []
        for _ in range(args.repeats):
            ours.append(osprey(args, osprey_workers, pin, ram))
            theirs.append(ultralytics(args, ultralytics_workers, pin, ram))
        o = statistics.median(r["images_per_s"] for r in ours)
        u = statistics.median(r["images_per_s"] for r in theirs)
        print(f"{name}:")
        runs = lambda results: ", ".join(f"{r['images_per_s']:.1f}" for r in results)
        print(f"  osprey      {o:7.1f} images/s  (runs: {runs(ours)}; "
              f"{ours[0]['boxes_per_image']:.1f} boxes/image)")
        print(f"  ultralytics {u:7.1f} images/s  (runs: {runs(theirs)}; "
              f"{theirs[0]['boxes_per_image']:.1f} boxes/image)")
        print(f"  ratio osprey / ultralytics: {o / u:.2f}x")
    print(f"load average after: {loadavg()}")
    if not keep:
        shutil.rmtree(args.work, ignore_errors=True)


if __name__ == "__main__":
    main()
