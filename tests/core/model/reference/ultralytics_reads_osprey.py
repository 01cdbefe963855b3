"""What Ultralytics 8.4.190 makes of the YOLO26 checkpoints Osprey writes (tst_ultralytics_fresh).

Usage: python ultralytics_reads_osprey.py CONFIG.json OUT.json
CONFIG: {"imgsz": 320, "conf": 0.25, "iou": 0.7, "images": [...], "cases": [{"name": case, "pt": Osprey's .pt,
         "input": [1,3,S,S] float32 file, "size": S, "predict": bool, "reference": an Ultralytics .pt of the same
         network or null, "names_tsv": Ultralytics' state_dict listing or null}, ...]}
For each case: loads the .pt as YOLO() does (recording every warning) and with Ultralytics' weights-only safe
loader; compares its module tree with Ultralytics' own build of the same YAML (and with `reference`, an
Ultralytics-written checkpoint of the same network: class and attribute names, module by module); lists its
state_dict against a fresh build and `names_tsv`; loads it into a fresh build as fine-tuning does; records the
raw outputs of both heads on the input (<case>-o2m.f32 [1,4+nc,A] with the head's default mode, and
<case>-e2e.f32 [1,300,6] with end2end set) and, when `predict`, the predictions of the images in the default
mode (one-to-many + NMS) and with nms=False. Writes what it saw to OUT.
Test tooling only (run, never copied): Ultralytics is AGPL-3.0.
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
SET_BY_LOADING = {"args", "pt_path", "task", "nc", "criterion"}  # attempt_load and the trainer set these
SET_BY_INFERENCE = {"anchors", "strides", "shape"}  # Detect caches these on its first eval-mode forward
# Ultralytics' validator sets these on the head of every model it trains: its best.pt holds them, a YAML build not.
SET_BY_VALIDATION = {"max_det", "_end2end"}


def structure_diff(loaded, other, detect_extra=()):
    """Every module of `loaded` against `other`: class, children and attribute names, and the values that
    describe the network. `detect_extra`: attributes the head may have that `other`'s lacks."""
    problems = []
    # Without removing duplicates: Ultralytics' Conv blocks share one SiLU instance, Osprey's each hold one.
    ours = dict(loaded.named_modules(remove_duplicate=False))
    theirs = dict(other.named_modules(remove_duplicate=False))
    for name in sorted(set(ours) | set(theirs)):
        if name not in ours or name not in theirs:
            problems.append(f"{name or '<root>'}: only in {'ours' if name in ours else 'theirs'}")
            continue
        a, b = ours[name], theirs[name]
        if type(a) is not type(b):
            problems.append(f"{name}: {type(a).__name__} vs {type(b).__name__}")
            continue
        if list(a._modules) != list(b._modules):
            problems.append(f"{name}: children {list(a._modules)} vs {list(b._modules)}")
        skip = TORCH_BOOKKEEPING | SET_BY_INFERENCE | (SET_BY_LOADING if not name else set())
        keys_a = set(vars(a)) - skip
        keys_b = set(vars(b)) - skip
        if type(a).__name__ == "Detect":
            keys_a -= set(detect_extra)
        if keys_a != keys_b:
            problems.append(f"{name or '<root>'} ({type(a).__name__}): ours {sorted(keys_a - keys_b)}, "
                            f"theirs {sorted(keys_b - keys_a)}")
        for key in sorted(keys_a & keys_b):
            va, vb = getattr(a, key), getattr(b, key)
            if key in {"np", "f", "i", "type", "n", "add", "c", "nc", "nl", "reg_max", "no", "legacy", "num_heads",
                       "key_dim", "head_dim", "max_det", "_end2end"} and va != vb:
                problems.append(f"{name}.{key}: ours {va!r}, theirs {vb!r}")
    return problems


def boxes_of(results):
    out = []
    for r in results:
        b = r.boxes
        out.append([[int(c), float(s), *[float(v) for v in xyxy]]
                    for c, s, xyxy in zip(b.cls.tolist(), b.conf.tolist(), b.xyxy.tolist())])
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
    import numpy as np
    import torch
    from ultralytics import YOLO, __version__
    from ultralytics.cfg import DEFAULT_CFG_DICT
    from ultralytics.nn.tasks import DetectionModel, torch_safe_load

    torch.set_num_threads(2)
    logger = logging.getLogger("ultralytics")
    report = {"ultralytics": __version__, "cases": {}}
    common = dict(imgsz=config["imgsz"], conf=config["conf"], iou=config["iou"], device="cpu", verbose=False)
    for case in config["cases"]:
        name = case["name"]
        entry = report["cases"].setdefault(name, {})
        collect = Collect()
        logger.addHandler(collect)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                model = YOLO(case["pt"])
            entry["load_warnings"] = [str(w.message) for w in caught] + collect.warnings
            entry["task"] = model.task
            entry["names"] = {str(k): v for k, v in model.names.items()}
            net = model.model
            head = net.model[-1]
            entry["head"] = {"class": type(head).__name__, "reg_max": head.reg_max, "no": head.no,
                             "dfl": type(head.dfl).__name__, "one2one": getattr(head, "one2one_cv2", None) is not None,
                             "end2end": bool(head.end2end), "max_det": head.max_det}
            sppf = net.model[9]
            entry["sppf"] = {"n": sppf.n, "add": sppf.add, "cv1_act": type(sppf.cv1.act).__name__}
            entry["yaml"] = {k: v for k, v in net.yaml.items() if k not in ("backbone", "head", "scales")}
            entry["stride"] = net.stride.tolist()
            ckpt, _ = torch_safe_load(case["pt"], safe_only=True)
            entry["safe_load"] = "ok"
            entry["unknown_train_args"] = sorted(set(ckpt["train_args"]) - set(DEFAULT_CFG_DICT))

            nc = len(model.names)
            fresh = DetectionModel(net.yaml, nc=nc, verbose=False)
            # The YAML dict as Ultralytics keeps it when it builds the network from its own yolo26?.yaml.
            official = DetectionModel(net.yaml["yaml_file"], nc=nc, verbose=False).yaml
            entry["yaml_as_ultralytics"] = list(net.yaml.items()) == list(official.items())
            if not entry["yaml_as_ultralytics"]:
                entry["yaml_differs"] = {k: [net.yaml.get(k), official.get(k)] for k in set(net.yaml) | set(official)
                                         if net.yaml.get(k) != official.get(k)} or "key order"
            entry["structure_diff"] = structure_diff(net, fresh, SET_BY_VALIDATION)
            if case.get("reference"):
                reference = torch.load(case["reference"], map_location="cpu", weights_only=False)["model"]
                entry["reference_diff"] = structure_diff(net, reference)
            ours = {k: list(v.shape) for k, v in net.state_dict().items()}
            theirs = {k: list(v.shape) for k, v in fresh.state_dict().items()}
            entry["state_dict"] = {"entries": len(ours), "same_as_fresh": list(ours.items()) == list(theirs.items())}
            if case.get("names_tsv"):
                rows = [line.split("\t") for line in Path(case["names_tsv"]).read_text().splitlines()[1:]]
                listed = [(k, [int(d) for d in s.split("x")] if s not in ("", "scalar") else []) for k, s in rows]
                entry["state_dict"]["same_as_tsv"] = list(ours.items()) == listed
            # Fine-tuning starts from a fresh build of the checkpoint's YAML with every matching tensor.
            collect.lines.clear()
            fresh.load(net)
            entry["transferred"] = [line for line in collect.lines if "Transferred" in line]

            size = case["size"]
            x = torch.from_numpy(np.fromfile(case["input"], dtype="<f4").reshape(1, 3, size, size))
            network = YOLO(case["pt"]).model.float().eval()
            with torch.no_grad():
                y = network(x)
                y = y[0] if isinstance(y, (list, tuple)) else y
                entry["default_output_shape"] = list(y.shape)
                y.numpy().astype("<f4").tofile(Path(case["input"]).with_name(f"{name}-o2m.f32"))
                network.model[-1].end2end = True
                e2e = network(x)
                e2e = e2e[0] if isinstance(e2e, (list, tuple)) else e2e
                e2e.numpy().astype("<f4").tofile(Path(case["input"]).with_name(f"{name}-e2e.f32"))
            entry["e2e_output_shape"] = list(e2e.shape)
            if case.get("predict"):
                entry["predict"] = boxes_of(YOLO(case["pt"]).predict(source=config["images"], **common))
                entry["predict_e2e"] = boxes_of(YOLO(case["pt"]).predict(source=config["images"], nms=False,
                                                                        **common))
            if case.get("finetune"):
                collect.lines.clear()
                tuned = YOLO(case["pt"])
                tuned.train(data=config["data"], epochs=1, batch=8, workers=0, plots=False, val=False, amp=False,
                            fraction=case["finetune"], project=str(Path(sys.argv[2]).parent / "finetune"),
                            name=name, exist_ok=True, imgsz=config["imgsz"], device="cpu")
                entry["finetune"] = {"ok": True,
                                     "transferred": [line for line in collect.lines if "Transferred" in line]}
        except Exception as e:  # noqa: BLE001 - reported to the test
            entry["error"] = f"{type(e).__name__}: {e}\n{traceback.format_exc()[-2000:]}"
        finally:
            logger.removeHandler(collect)
    out_path.write_text(json.dumps(report, indent=1))
    print(json.dumps({k: {kk: v.get(kk) for kk in ("head", "transferred", "error")}
                      for k, v in report["cases"].items()}))


if __name__ == "__main__":
    main()
