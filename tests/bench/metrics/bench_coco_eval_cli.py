#!/usr/bin/env python3
"""`osprey-cli eval style=coco` against pycocotools and faster-coco-eval on the same files, side by side.

5,000 images, 80 classes, about 94 detections per image (seeded synthetic data: every truth found with
jitter at a random confidence, plus false positives), written once as a COCO instances file and a COCO
results file. Each tool reads both files and prints the 12 summary numbers; the wall times include reading
the JSON, as a user runs each. The 12 numbers must equal pycocotools' within 1e-4.

Run with a Python that has pycocotools and faster-coco-eval (from PyPI, never a product dependency):
    python3 -m venv ~/.cache/osprey/cocoeval-venv
    ~/.cache/osprey/cocoeval-venv/bin/pip install pycocotools faster-coco-eval
    ~/.cache/osprey/cocoeval-venv/bin/python tests/bench/metrics/bench_coco_eval_cli.py build/app/osprey-cli
"""
import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tempfile
import time

IMAGES, CLASSES, TRUTHS_PER_IMAGE, FALSE_PER_IMAGE = 5000, 80, 7, 87
NAMES = ["AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"]


def generate(folder):
    rng = random.Random(0)
    images, annotations, results = [], [], []
    for i in range(1, IMAGES + 1):
        w, h = rng.randint(320, 640), rng.randint(240, 640)
        images.append({"id": i, "file_name": f"{i:06d}.jpg", "width": w, "height": h})
        for _ in range(TRUTHS_PER_IMAGE):
            bw, bh = rng.uniform(4, w * 0.6), rng.uniform(4, h * 0.6)
            x, y = rng.uniform(0, w - bw), rng.uniform(0, h - bh)
            c = rng.randint(1, CLASSES)
            annotations.append({"id": len(annotations) + 1, "image_id": i, "category_id": c,
                                "bbox": [round(x, 2), round(y, 2), round(bw, 2), round(bh, 2)],
                                "area": round(bw * bh, 2), "iscrowd": 1 if rng.random() < 0.01 else 0})
            jitter = lambda v, s: round(v + rng.gauss(0, s), 2)
            results.append({"image_id": i, "category_id": c if rng.random() < 0.9 else rng.randint(1, CLASSES),
                            "bbox": [jitter(x, bw * 0.05), jitter(y, bh * 0.05), max(1.0, jitter(bw, bw * 0.05)),
                                     max(1.0, jitter(bh, bh * 0.05))], "score": round(rng.random(), 4)})
        for _ in range(FALSE_PER_IMAGE):
            bw, bh = rng.uniform(2, w * 0.5), rng.uniform(2, h * 0.5)
            results.append({"image_id": i, "category_id": rng.randint(1, CLASSES),
                            "bbox": [round(rng.uniform(0, w - bw), 2), round(rng.uniform(0, h - bh), 2),
                                     round(bw, 2), round(bh, 2)], "score": round(rng.random() * 0.6, 4)})
    categories = [{"id": c, "name": f"class_{c}"} for c in range(1, CLASSES + 1)]
    gt, dt = os.path.join(folder, "gt.json"), os.path.join(folder, "dt.json")
    with open(gt, "w") as f:
        json.dump({"images": images, "annotations": annotations, "categories": categories}, f)
    with open(dt, "w") as f:
        json.dump(results, f)
    return gt, dt, len(results)


def run_osprey(cli, gt, dt):
    start = time.perf_counter()
    out = subprocess.run([cli, "eval", f"gt={gt}", f"pred={dt}", "style=coco", "json=true"],
                         check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    stats = json.loads(out.strip().splitlines()[-1])
    return seconds, [stats[k] for k in stats]


def run_python(module, gt, dt):
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        if module == "pycocotools":
            from pycocotools.coco import COCO
            from pycocotools.cocoeval import COCOeval as Eval
        else:
            from faster_coco_eval import COCO
            from faster_coco_eval import COCOeval_faster as Eval
        truth = COCO(gt)
        detections = truth.loadRes(dt)
        evaluation = Eval(truth, detections, "bbox")
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    return time.perf_counter() - start, [float(v) for v in evaluation.stats]


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else "build/app/osprey-cli"
    with tempfile.TemporaryDirectory() as folder:
        gt, dt, count = generate(folder)
        print(f"{IMAGES} images, {CLASSES} classes, {count} detections ({count / IMAGES:.1f} per image)")
        runs = {"osprey-cli eval": min((run_osprey(cli, gt, dt) for _ in range(3)), key=lambda r: r[0])}
        runs["pycocotools"] = run_python("pycocotools", gt, dt)
        runs["faster-coco-eval"] = min((run_python("faster", gt, dt) for _ in range(3)), key=lambda r: r[0])
    reference = runs["pycocotools"][1]
    print(f"{'tool':18s} {'seconds':>8s} {'max |diff| vs pycocotools':>27s}")
    worst = 0.0
    for name, (seconds, stats) in runs.items():
        diff = max(abs(a - b) for a, b in zip(stats, reference))
        if name == "osprey-cli eval":
            worst = diff
        print(f"{name:18s} {seconds:8.2f} {diff:27.2e}")
    print("stats (pycocotools): " + ", ".join(f"{n} {v:.4f}" for n, v in zip(NAMES, reference)))
    ratio = runs["osprey-cli eval"][0]
    print(f"osprey-cli eval: {ratio:.2f} s (target <= 2.00 s); pycocotools takes "
          f"{runs['pycocotools'][0] / ratio:.1f}x as long, faster-coco-eval {runs['faster-coco-eval'][0] / ratio:.2f}x")
    return 0 if worst <= 1e-4 else 1


if __name__ == "__main__":
    sys.exit(main())
