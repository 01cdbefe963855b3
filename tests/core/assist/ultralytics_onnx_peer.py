"""Peer for tst_onnx_ultralytics (Ultralytics 8.4.190's venv; a reference only, never linked).

usage: ultralytics_onnx_peer.py export WEIGHTS.pt OUT_DIR
    Exports WEIGHTS with Ultralytics at imgsz 320 twice, as a user would: the default (nms unset: the
    one-to-many [1, 4+nc, A]) to OUT_DIR/default.onnx and nms=False (end-to-end [1, 300, 6]) to
    OUT_DIR/e2e.onnx.
usage: ultralytics_onnx_peer.py run MODEL.onnx INPUTS.f32 COUNT,3,H,W OUTPUT.f32
    Runs MODEL in onnxruntime (CPU) on each of COUNT images in turn (the exports have batch 1) and writes
    the outputs one after the other as little-endian float32; prints the output shape as JSON.
"""
import json
import shutil
import sys
from pathlib import Path


def export(weights, out_dir):
    from ultralytics import YOLO

    out = Path(out_dir)
    for name, extra in (("default.onnx", {}), ("e2e.onnx", {"nms": False})):
        written = YOLO(weights).export(format="onnx", imgsz=320, **extra)
        shutil.move(written, out / name)
    print(json.dumps({"exported": ["default.onnx", "e2e.onnx"]}))


def run(model, inputs, shape_text, output):
    import numpy as np
    import onnxruntime as ort

    shape = [int(v) for v in shape_text.split(",")]
    x = np.fromfile(inputs, dtype="<f4").reshape(shape)
    session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    ys = [session.run(None, {name: x[i : i + 1]})[0] for i in range(shape[0])]
    y = np.concatenate(ys)
    y.astype("<f4").tofile(output)
    print(json.dumps({"shape": list(y.shape), "onnxruntime": ort.__version__}))


if __name__ == "__main__":
    if sys.argv[1] == "export":
        export(sys.argv[2], sys.argv[3])
    else:
        run(*sys.argv[2:6])
