#!/usr/bin/env python3
"""The network's forward and backward alone, Osprey against Ultralytics, side by side in one run.

The same step on both sides: a fixed random batch (uniform 0..1) through the network in training mode,
every head branch the loss reads (YOLO26: one-to-many and one-to-one), a scalar that touches every output
element (the sum of each map's mean), backward; median of --steps after two warm-up steps, at the same
torch thread count. Osprey's half is build/tests/bench/train/bench_network_step (float32 NCHW, float32
NHWC as its trainer runs, and bf16 autocast where the CPU has it); Ultralytics' is its DetectionModel built
from the model's YAML, float32 NCHW as it trains on the CPU. Neither includes data, loss or optimiser:
this is the ceiling the rest of a training step adds to (bench_train_vs_ultralytics.py is the end-to-end
figure).

With --ops one step of each is also recorded with the legacy profiler (Osprey's first mode: float32 NCHW,
or --mode's) and the operators compared, self time per operator (ms per step), the largest differences
first.

Usage (from the repository root, after `cmake --build build --target bench_network_step`):
  python3 tests/bench/train/bench_network_step_vs_ultralytics.py [--model yolo26n] [--imgsz 320]
      [--batch 16] [--threads 2] [--steps 6] [--mode all] [--ops] [--bench build/tests/bench/train/bench_network_step]
      [--python ~/.cache/osprey/ultralytics-venv/bin/python]
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

ULTRALYTICS_STEP = r"""
import json, statistics, sys, time, torch
from ultralytics.nn.tasks import DetectionModel
cfg = json.loads(sys.argv[1])
torch.set_num_threads(cfg["threads"])
torch.manual_seed(0)
net = DetectionModel(cfg["model"] + ".yaml", nc=80, verbose=False)
net.train()
images = torch.rand(cfg["batch"], 3, cfg["imgsz"], cfg["imgsz"])

def tensors(value, key=None):
    if key == "feats":  # the head's inputs, handed back beside its outputs
        return []
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in tensors(v, k)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors(v)]
    return []

def step():
    t0 = time.perf_counter()
    total = sum(t.float().mean() for t in tensors(net(images)))
    t1 = time.perf_counter()
    total.backward()
    t2 = time.perf_counter()
    net.zero_grad()
    return t1 - t0, t2 - t1

for _ in range(2):
    step()
times = [step() for _ in range(cfg["steps"])]
if cfg["trace"]:
    with torch.autograd.profiler.profile(use_kineto=False) as prof:
        step()
    prof.export_chrome_trace(cfg["trace"])
print("RESULT " + json.dumps({"forward": statistics.median(t[0] for t in times),
                              "backward": statistics.median(t[1] for t in times),
                              "threads": torch.get_num_threads()}))
"""


def self_times(trace_path):
    """Self time (ms) per operator name of one recorded step: each complete event's duration less that of
    the events nested directly inside it on the same thread."""
    with open(trace_path) as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    spans = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and "dur" in e:
            spans[e.get("tid")].append((float(e["ts"]), float(e["dur"]), e["name"]))
    totals, child = collections.Counter(), collections.Counter()
    for thread in spans.values():
        thread.sort(key=lambda s: (s[0], -s[1]))  # a parent before the children it encloses
        stack = []  # (end, name) of the enclosing events
        for start, duration, name in thread:
            while stack and start >= stack[-1][0]:
                stack.pop()
            if stack:
                child[stack[-1][1]] += duration
            stack.append((start + duration, name))
            totals[name] += duration
    return {name: (totals[name] - child[name]) / 1000.0 for name in totals}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="yolo26n")
    parser.add_argument("--imgsz", type=int, default=320)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--mode", default="all", help="Osprey's modes: all, fp32-nchw, fp32-nhwc, bf16-nhwc")
    parser.add_argument("--ops", action="store_true")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--bench", default="build/tests/bench/train/bench_network_step")
    parser.add_argument("--python", default=os.path.expanduser("~/.cache/osprey/ultralytics-venv/bin/python"))
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="osprey_step_")
    osprey_trace = os.path.join(work, "osprey.json") if args.ops else ""
    ultra_trace = os.path.join(work, "ultralytics.json") if args.ops else ""
    command = [args.bench, f"model={args.model}", f"imgsz={args.imgsz}", f"batch={args.batch}",
               f"threads={args.threads}", f"steps={args.steps}", f"mode={args.mode}"]
    if osprey_trace:
        command.append(f"trace={osprey_trace}")
    osprey = subprocess.run(command, capture_output=True, text=True)
    if osprey.returncode != 0:
        sys.exit(f"bench_network_step failed: {osprey.stderr}")
    print(osprey.stdout, end="")

    if not os.path.exists(args.python):
        print(f"Ultralytics: skipped ({args.python} does not exist; packaging/setup-test-peers.sh ultralytics)")
        return
    cfg = {"model": args.model, "imgsz": args.imgsz, "batch": args.batch, "threads": args.threads,
           "steps": args.steps, "trace": ultra_trace}
    env = dict(os.environ, YOLO_OFFLINE="1", YOLO_VERBOSE="False")
    peer = subprocess.run([args.python, "-c", ULTRALYTICS_STEP, json.dumps(cfg)], capture_output=True, text=True,
                          env=env, cwd=work)
    lines = [l for l in peer.stdout.splitlines() if l.startswith("RESULT ")]
    if peer.returncode != 0 or not lines:
        sys.exit(f"Ultralytics step failed: {peer.stderr[-3000:]}")
    result = json.loads(lines[-1][len("RESULT "):])
    forward, backward = 1000 * result["forward"], 1000 * result["backward"]
    print(f"Ultralytics {args.model} nc=80, batch {args.batch} at {args.imgsz}, {result['threads']} threads:")
    print(f"  {'fp32, NCHW':20s} forward {forward:7.1f} ms  backward {backward:7.1f} ms  step "
          f"{forward + backward:7.1f} ms  {1000 * args.batch / (forward + backward):6.2f} images/s")
    ours = {}
    for line in osprey.stdout.splitlines()[1:]:
        name = line[:22].strip()
        ours[name] = float(line.split("step")[1].split("ms")[0])
    for name, ms in ours.items():
        print(f"  Osprey {name}: {(forward + backward) / ms:.2f}x Ultralytics' step")

    if args.ops:
        a, b = self_times(osprey_trace), self_times(ultra_trace)
        names = sorted(set(a) | set(b), key=lambda n: -abs(a.get(n, 0) - b.get(n, 0)))
        print(f"Self time per operator, one step (ms): Osprey {sum(a.values()):.0f}, "
              f"Ultralytics {sum(b.values()):.0f}")
        print(f"  {'operator':52s} {'Osprey':>9s} {'Ultra':>9s} {'diff':>9s}")
        for n in names[:args.top]:
            print(f"  {n[:52]:52s} {a.get(n, 0):9.1f} {b.get(n, 0):9.1f} {a.get(n, 0) - b.get(n, 0):+9.1f}")


if __name__ == "__main__":
    main()
