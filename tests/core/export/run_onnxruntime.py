"""Peer check for tst_onnx_runtime: python's onnx.checker (full check) and onnxruntime on one input.

usage: run_onnxruntime.py MODEL.onnx INPUT.f32 N,C,H,W OUTPUT.f32
Writes the first output as little-endian float32 and prints one JSON line (shape, dtypes, versions).
"""
import json
import sys

import numpy as np
import onnx
import onnxruntime as ort


def main():
    model_path, input_path, shape_text, output_path = sys.argv[1:5]
    onnx.checker.check_model(onnx.load(model_path), full_check=True)
    shape = [int(v) for v in shape_text.split(",")]
    x = np.fromfile(input_path, dtype="<f4").reshape(shape)
    session = ort.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    inputs = session.get_inputs()
    y = session.run(None, {inputs[0].name: x})[0]
    y.astype("<f4").tofile(output_path)
    print(json.dumps({"checker": "ok", "shape": list(y.shape), "input": inputs[0].name,
                      "output": session.get_outputs()[0].name, "onnx": onnx.__version__,
                      "onnxruntime": ort.__version__}))


if __name__ == "__main__":
    main()
