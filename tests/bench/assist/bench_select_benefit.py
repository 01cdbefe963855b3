#!/usr/bin/env python3
"""What choosing the images to label buys: a fixed label budget, three selection strategies, three seeds.

The simulation (issue 36): the demo generator's synthetic shapes, exported once as a YOLO dataset, split
into a held-out test set (never trained on, never selected from), a small val set that picks each run's
best epoch, and the rest. Per seed, 50 of the rest are the labelled start and 500 others the unlabelled
pool. Then:
  1. fine-tune a pretrained yolov8n (--weights0: by default the Ultralytics-trained shapes model of the
     fixtures, standing for the pretrained weights users start from; "" trains from scratch) on the 50
     (--epochs0 epochs);
  2. for each strategy, `osprey-cli select` picks --pick images from the pool with that model (the pool's
     labels are hidden: it is imported as plain images);
  3. the picked images get their true labels (a perfect annotator) and the model is fine-tuned from the
     step-1 weights on the 50 + picked, the same --epochs1 epochs and seed for every strategy;
  4. each run's best.pt is validated on the held-out set (mAP50-95, Osprey's val = pycocotools-equal).
Prints one row per seed and strategy, then the mean and spread per strategy, and whether the default
strategy (uncertainty) beats random on the mean and never loses to it by more than the seed spread.
Also prints the selection speed (images/s of each select run).

Usage (from the repository root, after a build):
  python3 tests/bench/assist/bench_select_benefit.py [--cli build/app/osprey-cli] [--seeds 0 1 2]
      [--start 50] [--pool 500] [--pick 50] [--heldout 200] [--epochs0 10] [--epochs1 10] [--imgsz 320]
      [--weights0 PT] [--threads 2] [--work DIR] [--keep]
From scratch, 50 images give a model near mAP 0 (0.006 after 40 epochs at 320), whose uncertainty says
little; starting from pretrained weights is also what users do.
"""

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

STRATEGIES = ["uncertainty", "diversity", "random"]


def run(cmd, **kw):
    result = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(cmd)}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result.stdout


def make_yolo_set(root, items, val_items, names_yaml):
    """A YOLO dataset folder of symlinks: train = items, val = val_items (each (image, label) paths)."""
    for split, chosen in (("train", items), ("val", val_items)):
        os.makedirs(os.path.join(root, "images", split))
        os.makedirs(os.path.join(root, "labels", split))
        for image, label in chosen:
            os.symlink(image, os.path.join(root, "images", split, os.path.basename(image)))
            if os.path.exists(label):
                os.symlink(label, os.path.join(root, "labels", split, os.path.basename(label)))
    with open(os.path.join(root, "data.yaml"), "w") as f:
        f.write(f"path: {root}\ntrain: images/train\nval: images/val\n{names_yaml}")


def import_yolo(cli, project, dataset):
    run([cli, "import", f"project={project}", f"source={dataset}/data.yaml", "format=yolo"])


def train(cli, project, args, seed, epochs, weights=None):
    cmd = [cli, "train", f"project={project}", "model=yolov8n", f"epochs={epochs}", f"imgsz={args.imgsz}",
           f"batch={args.batch}", f"seed={seed}", f"threads={args.threads}", "name=run", "patience=1000",
           "close_mosaic=5"]
    if weights:
        cmd.append(f"weights={weights}")
    start = time.perf_counter()
    run(cmd)
    best = os.path.join(project, "runs", "run", "weights", "best.pt")
    if not os.path.exists(best):
        sys.exit(f"no {best} after training")
    return best, time.perf_counter() - start


def validate(cli, project, weights, args):
    out = run([cli, "val", f"project={project}", f"weights={weights}", f"imgsz={args.imgsz}", "plots=false",
               f"threads={args.threads}"])
    match = re.search(r"mAP50-95 ([0-9.]+)", out)
    if not match:
        sys.exit(f"no mAP50-95 in the val output:\n{out}")
    return float(match.group(1))


def select(cli, pool_project, weights, strategy, n, seed, args):
    out = run([cli, "select", f"project={pool_project}", f"model={weights}", f"n={n}", f"strategy={strategy}",
               f"seed={seed}", "propose=false", f"imgsz={args.imgsz}"])
    header = re.search(r"\((\d+) measured in ([0-9.]+) s, ([0-9.]+) images/s\)", out)
    picked = []
    for line in out.splitlines():
        match = re.match(r"\s*\d+\s+\d+\s+[0-9.]+\s+(\S+)\t", line)
        if match:
            picked.append(os.path.basename(match.group(1)))
    if len(picked) != n:
        sys.exit(f"select picked {len(picked)} images, expected {n}:\n{out[-2000:]}")
    return picked, float(header.group(3)) if header else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default="build/app/osprey-cli")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--start", type=int, default=50)
    parser.add_argument("--pool", type=int, default=500)
    parser.add_argument("--pick", type=int, default=50)
    parser.add_argument("--heldout", type=int, default=200)
    parser.add_argument("--val", type=int, default=30)
    parser.add_argument("--epochs0", type=int, default=10)
    parser.add_argument("--epochs1", type=int, default=10)
    parser.add_argument("--weights0", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "../../../../shared/fixtures/models/ultralytics-trained/yolov8n-shapes-best.pt"))
    parser.add_argument("--imgsz", type=int, default=320)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--strategies", nargs="+", default=STRATEGIES)
    parser.add_argument("--work")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    cli = os.path.abspath(args.cli)
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="osprey-select-bench-")
    os.makedirs(work, exist_ok=True)
    if os.listdir(work):
        sys.exit(f"{work} is not empty: give an empty or new --work folder")
    begun = time.perf_counter()
    print(f"work folder {work}; yolov8n from {args.weights0 or 'scratch'} at {args.imgsz}, {args.threads} threads; start {args.start} "
          f"labelled, pool {args.pool}, pick {args.pick}, held-out {args.heldout}, val {args.val}; epochs "
          f"{args.epochs0} then {args.epochs1} (fine-tuned from the first model)", flush=True)

    total = args.heldout + args.val + args.start + args.pool
    demo = os.path.join(work, "demo")
    run([cli, "demo", f"path={demo}", f"images={total}", f"imgsz={args.imgsz}", "seed=36"])
    run([cli, "split", f"project={demo}", "train=1", "val=0"])
    exported = os.path.join(work, "all")
    run([cli, "export", f"project={demo}", f"dest={exported}", "images=copy"])
    with open(os.path.join(exported, "data.yaml")) as f:
        text = f.read()
    names_yaml = text[text.index("nc:"):]
    image_dir = os.path.join(exported, "images", "train")
    images = sorted(os.listdir(image_dir))
    items = [(os.path.join(image_dir, name), os.path.join(exported, "labels", "train", os.path.splitext(name)[0] + ".txt"))
             for name in images]
    by_name = {os.path.basename(i): (i, l) for i, l in items}
    heldout, val, rest = items[:args.heldout], items[args.heldout:args.heldout + args.val], items[args.heldout + args.val:]

    evaluation = os.path.join(work, "heldout")
    make_yolo_set(os.path.join(work, "heldout-set"), [], heldout, names_yaml)
    import_yolo(cli, evaluation, os.path.join(work, "heldout-set"))

    if args.weights0:
        print(f"pretrained weights alone: held-out mAP50-95 {validate(cli, evaluation, os.path.abspath(args.weights0), args):.4f}",
              flush=True)
    rows = []
    speeds = []
    for seed in args.seeds:
        order = list(rest)
        random.Random(seed).shuffle(order)
        start, pool = order[:args.start], order[args.start:args.start + args.pool]
        base = os.path.join(work, f"seed{seed}")
        make_yolo_set(os.path.join(base, "start-set"), start, val, names_yaml)
        import_yolo(cli, os.path.join(base, "start"), os.path.join(base, "start-set"))
        first, seconds = train(cli, os.path.join(base, "start"), args, seed, args.epochs0,
                               weights=os.path.abspath(args.weights0) if args.weights0 else None)
        first_map = validate(cli, evaluation, first, args)
        print(f"seed {seed}: start model ({args.start} images, {args.epochs0} epochs, {seconds:.0f} s): held-out "
              f"mAP50-95 {first_map:.4f}", flush=True)
        pool_dir = os.path.join(base, "pool-images")
        os.makedirs(pool_dir)
        for image, _ in pool:
            os.symlink(image, os.path.join(pool_dir, os.path.basename(image)))
        pool_project = os.path.join(base, "pool")
        run([cli, "import", f"project={pool_project}", f"source={pool_dir}", "format=images"])
        for strategy in args.strategies:
            picked, rate = select(cli, pool_project, first, strategy, args.pick, seed, args)
            speeds.append((strategy, rate))
            chosen = [by_name[name] for name in picked]
            folder = os.path.join(base, strategy)
            make_yolo_set(folder + "-set", start + chosen, val, names_yaml)
            import_yolo(cli, folder, folder + "-set")
            best, seconds = train(cli, folder, args, seed, args.epochs1, weights=first)
            score = validate(cli, evaluation, best, args)
            boxes = sum(sum(1 for _ in open(label)) for _, label in chosen if os.path.exists(label))
            rows.append((seed, strategy, score, boxes))
            print(f"seed {seed}: {strategy:11s} picked {args.pick} ({boxes} boxes; select {rate:.1f} images/s), "
                  f"retrained {seconds:.0f} s: held-out mAP50-95 {score:.4f}", flush=True)

    print("\nstrategy     mean mAP50-95  stdev   per seed")
    means = {}
    for strategy in args.strategies:
        scores = [r[2] for r in rows if r[1] == strategy]
        means[strategy] = statistics.mean(scores)
        spread = statistics.stdev(scores) if len(scores) > 1 else 0.0
        print(f"{strategy:12s} {means[strategy]:.4f}         {spread:.4f}  " + " ".join(f"{s:.4f}" for s in scores))
    if "uncertainty" in means and "random" in means:
        gains = [u[2] - r[2] for u in rows for r in rows
                 if u[1] == "uncertainty" and r[1] == "random" and u[0] == r[0]]
        random_scores = [r[2] for r in rows if r[1] == "random"]
        spread = statistics.stdev(random_scores) if len(random_scores) > 1 else 0.0
        worst = min(gains)
        print(f"uncertainty - random: mean {statistics.mean(gains):+.4f}, per seed "
              + " ".join(f"{g:+.4f}" for g in gains) + f"; random's seed spread {spread:.4f}")
        verdict = means["uncertainty"] > means["random"] and worst >= -spread
        print("default strategy beats random on the mean and never loses by more than the seed spread: "
              + ("yes" if verdict else "NO"))
    for strategy in args.strategies:
        rates = [r for s, r in speeds if s == strategy]
        print(f"select {strategy}: {statistics.mean(rates):.1f} images/s over the {args.pool}-image pool")
    print(f"total {time.perf_counter() - begun:.0f} s")
    if not args.keep and not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
