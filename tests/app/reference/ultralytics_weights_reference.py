"""What Ultralytics 8.4.190 does with the weights Osprey wrote (tst_ultralytics_weights_cli).

    python ultralytics_weights_reference.py CONFIG.json OUT.json

CONFIG: {"data": data.yaml, "imgsz": 320, "conf": 0.25, "iou": 0.7, "images": [...], "work": folder,
         "models": [{"name": "yolov8n", "best": best.pt, "last": last.pt}, ...]}
For each model: loads best.pt as YOLO() does (and once more with Ultralytics' weights-only safe loader),
recording every warning; compares its module tree with Ultralytics' own build of the same YAML; predicts the
images; validates on the data; exports to ONNX and predicts the same images with the export; fine-tunes one
epoch from best.pt; asks to resume last.pt. Writes what it saw to OUT.
Run only as a test peer, never by Osprey itself.
"""

import json
import logging
import sys
import traceback
import warnings
from pathlib import Path


TORCH_BOOKKEEPING = {
    "training", "_parameters", "_buffers", "_non_persistent_buffers_set", "_backward_pre_hooks", "_backward_hooks",
    "_is_full_backward_hook", "_forward_hooks", "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
    "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_state_dict_hooks", "_state_dict_pre_hooks",
    "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks", "_modules",
}
SET_BY_LOADING = {"args", "pt_path", "task"}  # attempt_load attaches these to the root
SET_BY_INFERENCE = {"anchors", "strides", "shape"}  # Detect caches these on its first eval-mode forward


def structure_diff(loaded, fresh):
    """Every module of `loaded` against Ultralytics' own build of the same YAML: class and attribute names."""
    problems = []
    # Without removing duplicates: Ultralytics' Conv blocks share one SiLU instance, Osprey's each hold one.
    ours = dict(loaded.named_modules(remove_duplicate=False))
    theirs = dict(fresh.named_modules(remove_duplicate=False))
    for name in sorted(set(ours) | set(theirs)):
        if name not in ours or name not in theirs:
            problems.append(f"{name or '<root>'}: only in {'ours' if name in ours else 'theirs'}")
            continue
        a, b = ours[name], theirs[name]
        if type(a) is not type(b):
            problems.append(f"{name}: {type(a).__name__} vs {type(b).__name__}")
            continue
        keys_a = set(vars(a)) - TORCH_BOOKKEEPING - SET_BY_INFERENCE - (SET_BY_LOADING if not name else set())
        keys_b = set(vars(b)) - TORCH_BOOKKEEPING - SET_BY_INFERENCE
        if keys_a != keys_b:
            problems.append(f"{name or '<root>'} ({type(a).__name__}): ours {sorted(keys_a - keys_b)}, "
                            f"theirs {sorted(keys_b - keys_a)}")
    return problems


def boxes_of(results):
    out = []
    for r in results:
        b = r.boxes
        out.append(
            [
                [int(c), float(s), *[float(v) for v in xyxy]]
                for c, s, xyxy in zip(b.cls.tolist(), b.conf.tolist(), b.xyxy.tolist())
            ]
        )
    return out


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []
        self.warnings = []

    def emit(self, record):
        self.lines.append(record.getMessage())
        if record.levelno >= logging.WARNING:
            self.warnings.append(record.getMessage())


def main():
    config = json.loads(Path(sys.argv[1]).read_text())
    out_path = Path(sys.argv[2])
    import torch
    from ultralytics import YOLO
    from ultralytics.cfg import DEFAULT_CFG_DICT
    from ultralytics.nn.tasks import DetectionModel, torch_safe_load

    torch.set_num_threads(2)
    logger = logging.getLogger("ultralytics")
    report = {"models": {}}
    work = Path(config["work"])
    work.mkdir(parents=True, exist_ok=True)
    common = dict(imgsz=config["imgsz"], device="cpu", verbose=False)
    for spec in config["models"]:
        name = spec["name"]
        entry = report["models"].setdefault(name, {})
        collect = Collect()
        logger.addHandler(collect)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                model = YOLO(spec["best"])
                entry["names"] = {str(k): v for k, v in model.names.items()}
                entry["task"] = model.task
                entry["nc"] = len(model.names)
            entry["load_warnings"] = [str(w.message) for w in caught] + collect.warnings
            fresh = DetectionModel(model.model.yaml, nc=len(model.names), verbose=False)
            entry["structure_diff"] = structure_diff(model.model, fresh)
            try:
                ckpt, _ = torch_safe_load(spec["best"], safe_only=True)
                entry["safe_load"] = "ok"
                # Ultralytics' resume hands train_args to get_cfg, which refuses keys it does not know.
                entry["unknown_train_args"] = sorted(set(ckpt["train_args"]) - set(DEFAULT_CFG_DICT))
            except Exception as e:  # noqa: BLE001 - reported to the test
                entry["safe_load"] = f"{type(e).__name__}: {e}"
            entry["predict"] = boxes_of(
                model.predict(source=config["images"], conf=config["conf"], iou=config["iou"], **common)
            )
            metrics = model.val(
                data=config["data"], batch=16, conf=0.001, iou=0.7, plots=False, workers=0,
                project=str(work / "val"), name=name, exist_ok=True, **common
            )
            entry["val"] = {"map50_95": float(metrics.box.map), "map50": float(metrics.box.map50)}
            # simplify=False: onnxslim is not among the peer's packages, and Ultralytics would try to install it.
            onnx = model.export(format="onnx", imgsz=config["imgsz"], device="cpu", simplify=False, verbose=False)
            entry["onnx"] = str(onnx)
            # The export's raw output against the network it came from, on the same input: NMS over near-equal
            # scores (a network trained for two epochs has many) may keep either box of a tie, this may not.
            import numpy as np
            import onnxruntime

            session = onnxruntime.InferenceSession(str(onnx), providers=["CPUExecutionProvider"])
            x = torch.rand(1, 3, config["imgsz"], config["imgsz"], generator=torch.Generator().manual_seed(0))
            network = YOLO(spec["best"]).model.float().eval()
            with torch.no_grad():
                expected = network(x)
            expected = (expected[0] if isinstance(expected, (list, tuple)) else expected).numpy()
            got = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
            entry["onnx_raw"] = {
                "shape": list(got.shape),
                "box_max_diff": float(np.abs(got[:, :4] - expected[:, :4]).max()),
                "score_max_diff": float(np.abs(got[:, 4:] - expected[:, 4:]).max()),
            }
            # The network's raw output on an RGB image the test wrote (uint8, HWC, imgsz square), as Osprey's
            # predictor feeds it (/255, CHW): Osprey's raw output on the same bytes must match it. For a
            # network trained from scratch for an epoch or two, whose scores are all alike, this is the check
            # that counts; which box of an equal-score pair NMS keeps is arbitrary on either side.
            size = config["imgsz"]
            pixels = np.fromfile(config["raw_image"], dtype=np.uint8).reshape(size, size, 3)
            image = torch.from_numpy(pixels.copy()).permute(2, 0, 1).unsqueeze(0).float() / 255.0
            with torch.no_grad():
                decoded = network(image)
            decoded = (decoded[0] if isinstance(decoded, (list, tuple)) else decoded).contiguous().numpy()
            raw_path = work / f"{name}-raw-output.f32"
            decoded.astype(np.float32).tofile(raw_path)
            entry["raw_output"] = {"path": str(raw_path), "shape": list(decoded.shape)}
            entry["onnx_predict"] = boxes_of(
                YOLO(onnx, task="detect").predict(
                    source=config["images"], conf=config["conf"], iou=config["iou"], **common
                )
            )
            collect.lines.clear()
            tuned = YOLO(spec["best"])
            tuned.train(
                data=config["data"], epochs=1, batch=16, workers=0, plots=False, val=True, amp=False,
                project=str(work / "finetune"), name=name, exist_ok=True, **common
            )
            entry["finetune"] = {
                "ok": True,
                "transferred": [line for line in collect.lines if "Transferred" in line],
                "map50_95": float(tuned.trainer.metrics.get("metrics/mAP50-95(B)", -1)),
            }
        except Exception as e:  # noqa: BLE001 - reported to the test
            entry["error"] = f"{type(e).__name__}: {e}\n{traceback.format_exc()[-2000:]}"
        finally:
            logger.removeHandler(collect)
        # Resume: Ultralytics goes on from a checkpoint with its own optimiser state; from any other (its own
        # finished files, Osprey's last.pt) it says so and starts a new training, kept to one short epoch here.
        collect = Collect()
        logger.addHandler(collect)
        try:
            YOLO(spec["last"]).train(
                resume=True, data=config["data"], epochs=1, fraction=0.25, val=False, plots=False, workers=0,
                device="cpu", imgsz=config["imgsz"], project=str(work / "resume"), name=name, exist_ok=True,
            )
            refused = [line for line in collect.warnings if "resum" in line]
            entry["resume"] = f"refused: {refused[0]}" if refused else "resumed"
        except Exception as e:  # noqa: BLE001 - Ultralytics says why it cannot
            entry["resume"] = f"{type(e).__name__}: {e}"
        finally:
            logger.removeHandler(collect)
    out_path.write_text(json.dumps(report, indent=1))
    print(json.dumps({k: {kk: v.get(kk) for kk in ("val", "resume", "safe_load")} for k, v in report["models"].items()}))


if __name__ == "__main__":
    main()
