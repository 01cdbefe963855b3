"""What Ultralytics 8.4.190 makes of one set of predictions: its curves, best-F1 confidence and the
platform's training_complete pieces, for tst_run_curves_ultralytics.

Runs Ultralytics (AGPL) as a peer in the test venv; nothing of it is copied into Osprey. The predictions are
the Ultralytics-trained fixture's own (predict at conf 0.001, IoU 0.7, imgsz 320 on the 100 val images of
shapes13), so both sides score the same boxes against the same labels:

  python run_curves_reference.py FIXTURE_DIR OUT.json
"""

import json
import sys
from pathlib import Path

import numpy as np
import torch
from ultralytics import YOLO
from ultralytics.models.yolo.detect import DetectionValidator
from ultralytics.utils.callbacks.platform import _interp_plot, _validation_payload
from ultralytics.utils.metrics import Metric, ap_per_class, box_iou, smooth


def main(fixture: Path, out: Path) -> None:
    names = ["circle", "square", "triangle", "star"]
    images = sorted((fixture / "shapes13" / "images" / "val").glob("*.jpg"))
    model = YOLO(str(fixture / "yolov8n-shapes-best.pt"))
    validator = DetectionValidator()  # for match_predictions and its IoU thresholds only
    validator.iouv = torch.linspace(0.5, 0.95, 10)
    stats = {"tp": [], "conf": [], "pred_cls": [], "target_cls": []}
    per_image = Metric()
    rows = []
    for path in images:
        result = model.predict(str(path), conf=0.001, iou=0.7, imgsz=320, max_det=300, device="cpu", verbose=False)[0]
        height, width = result.orig_shape
        labels = np.loadtxt(fixture / "shapes13" / "labels" / "val" / (path.stem + ".txt"), ndmin=2)
        gt_cls = torch.tensor(labels[:, 0], dtype=torch.float32)
        cx, cy, w, h = (torch.tensor(labels[:, k], dtype=torch.float32) for k in range(1, 5))
        gt = torch.stack(((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height), 1)
        boxes = result.boxes
        pred_cls, conf, xyxy = boxes.cls.float(), boxes.conf.float(), boxes.xyxy.float()
        tp = validator.match_predictions(pred_cls, gt_cls, box_iou(gt, xyxy)).cpu().numpy()
        stats["tp"].append(tp)
        stats["conf"].append(conf.numpy())
        stats["pred_cls"].append(pred_cls.numpy())
        stats["target_cls"].append(gt_cls.numpy())
        per_image.update_image_metrics(tp, gt_cls.numpy(), pred_cls.numpy(), path.name)
        rows.append(
            {
                "name": path.name,
                "truths": [[int(c)] + b for c, b in zip(gt_cls.tolist(), gt.tolist())],
                "detections": [[int(c), s] + b for c, s, b in zip(pred_cls.tolist(), conf.tolist(), xyxy.tolist())],
            }
        )
    stats = {k: np.concatenate(v, 0) for k, v in stats.items()}
    (_, _, p, r, f1, ap, classes, p_curve, r_curve, f1_curve, x, prec_values) = ap_per_class(
        stats["tp"], stats["conf"], stats["pred_cls"], stats["target_cls"], plot=False, names=dict(enumerate(names))
    )
    best = int(smooth(f1_curve.mean(0), 0.1).argmax())
    plots = [
        _interp_plot({"type": "pr_curve", "x": x.tolist(), "y": prec_values.tolist(), "ap": ap.tolist()}),
        _interp_plot({"type": "f1_curve", "x": x.tolist(), "y": f1_curve.tolist()}),
        _interp_plot({"type": "p_curve", "x": x.tolist(), "y": p_curve.tolist()}),
        _interp_plot({"type": "r_curve", "x": x.tolist(), "y": r_curve.tolist()}),
    ]
    json.dump(
        {
            "classNames": names,
            "images": rows,
            "classes": classes.tolist(),
            "bestConfidence": float(x[best]),
            "map50": float(ap[:, 0].mean()),
            "map50to95": float(ap.mean()),
            "plots": plots,
            "validation": _validation_payload(per_image.image_metrics),
        },
        open(out, "w"),
    )
    print(f"{len(rows)} images, {len(stats['conf'])} detections, mAP50-95 {ap.mean():.5f}, best conf {x[best]:.3f}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
