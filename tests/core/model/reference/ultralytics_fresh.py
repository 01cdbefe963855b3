"""Writes fresh checkpoints with Ultralytics itself and records its raw outputs, for tst_ultralytics_fresh.

Usage: python ultralytics_fresh.py OUT_DIR
For each case (family+scale, nc): builds the network from Ultralytics' own yaml, gives its BatchNorm layers
random running statistics (so every layer matters), saves it with `YOLO.save` (Ultralytics' writer: float16
`model`, version, date), reloads that file, and records `model.float().eval()(x)[0]` for a seeded input.
Files: <case>.pt, <case>-input.f32 ([1,3,S,S]), <case>-output.f32 ([1,4+nc,A]), cases.txt. A YOLO26 case also
records its one-to-one head end to end (the head's `end2end` set): <case>-e2e.f32 ([1,300,6]).
Test tooling only (run, never copied): Ultralytics is AGPL-3.0.
"""
import sys
from pathlib import Path

import torch
from ultralytics import YOLO, __version__
from ultralytics.nn.tasks import DetectionModel

CASES = [("yolov8s", 80, 320), ("yolo11n", 3, 320), ("yolo11s", 5, 256), ("yolo26n", 80, 320), ("yolo26s", 3, 320)]


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    lines = []
    for name, nc, size in CASES:
        case = f"{name}-nc{nc}"
        yolo = YOLO(f"{name}.yaml")
        yolo.model = DetectionModel(f"{name}.yaml", nc=nc, verbose=False)
        for module in yolo.model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.uniform_(-0.5, 0.5)
                module.running_var.uniform_(0.5, 2.0)
                module.weight.data.uniform_(0.5, 1.5)
                module.bias.data.uniform_(-0.2, 0.2)
        path = out / f"{case}.pt"
        yolo.save(str(path))
        net = torch.load(path, map_location="cpu", weights_only=False)["model"].float().eval()
        x = torch.rand(1, 3, size, size)
        with torch.no_grad():
            y = net(x)[0]
        x.numpy().astype("<f4").tofile(out / f"{case}-input.f32")
        y.numpy().astype("<f4").tofile(out / f"{case}-output.f32")
        if getattr(net.model[-1], "one2one_cv2", None) is not None:
            net.model[-1].end2end = True
            with torch.no_grad():
                net(x)[0].numpy().astype("<f4").tofile(out / f"{case}-e2e.f32")
        lines.append(f"{case} {name} {nc} {size} {y.shape[1]} {y.shape[2]}")
    (out / "cases.txt").write_text("\n".join(lines) + "\n")
    print(f"ultralytics {__version__}, torch {torch.__version__}: {len(lines)} cases in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
