"""The training_complete Ultralytics 8.4.190 builds for an Osprey run's figures, for tst_remote_train_cli.

Runs Ultralytics (AGPL) as a peer in the test venv; nothing of it is copied into Osprey. Its own platform
callback (`on_train_end`) builds the payload from a trainer that holds the run's figures, the way its
trainer holds them at the end of training:
  - the validator's plot data (the PR, F1, P and R curves and the confusion matrix) and per-image counts
    from the run's curves.json, fed through Ultralytics' own image-metric code;
  - every epoch's fitness from results.csv through Ultralytics' own fitness, so the best epoch, the best
    fitness and the final fitness are Ultralytics' choice, not copied from Osprey's payload;
  - the final metrics: the best epoch's row (Ultralytics validates best.pt at the end, without losses).
Only what a network call would return is taken from Osprey's payload: the upload's storage path.

  python training_complete_reference.py RUN_DIR OSPREY_PAYLOAD.json OUT.json
"""

import csv
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from ultralytics.utils.callbacks import platform
from ultralytics.utils.metrics import Metric

METRIC_KEYS = ["metrics/precision(B)", "metrics/recall(B)", "metrics/mAP50(B)", "metrics/mAP50-95(B)"]


def fitness(row):
    """Ultralytics' detection fitness of one results.csv row, from its own Metric class."""
    metric = Metric()
    precision, recall, map50, map50to95 = (float(row[k]) for k in METRIC_KEYS)
    metric.p, metric.r = np.array([precision]), np.array([recall])
    # One class whose AP at IoU 0.5 is mAP50 and whose mean over the 10 thresholds is mAP50-95.
    rest = (10 * map50to95 - map50) / 9
    metric.all_ap = np.array([[map50] + [rest] * 9])
    return metric.fitness()


def image_metrics(curves):
    """Each image's tp/fp/fn through Ultralytics' own per-image metric code."""
    metric = Metric()
    for name, tp, fp, fn in curves["images"]:
        matches = np.zeros((tp + fp, 10), dtype=bool)
        matches[:tp, 0] = True
        metric.update_image_metrics(matches, np.zeros(tp + fn), np.zeros(tp + fp), name)
    return metric.image_metrics


def main(run_dir: Path, osprey_payload: Path, out: Path) -> None:
    curves = json.loads((run_dir / "curves.json").read_text())
    ours = json.loads(osprey_payload.read_text())
    with open(run_dir / "results.csv", newline="") as f:
        rows = [{k.strip(): v.strip() for k, v in row.items()} for row in csv.DictReader(f)]
    fitnesses = [fitness(row) for row in rows]
    best = int(np.argmax(fitnesses))  # the first epoch of the highest fitness, as Ultralytics keeps it
    names = dict(enumerate(curves["classNames"]))
    side = len(names) + 1
    matrix = np.array(curves["confusionMatrix"], dtype=float).reshape(side, side)
    x = curves["x"]
    confusion = {"type": "confusion_matrix", "matrix": matrix.tolist()}
    # In the order Ultralytics' validator records them: the curves as its metrics process them, then the
    # normalised and the plain confusion matrix (both carry the plain counts).
    validator_plots = {
        "PR_curve.png": {"data": {"type": "pr_curve", "x": x, "y": curves["precisionAtRecall"], "ap": curves["ap"]}},
        "F1_curve.png": {"data": {"type": "f1_curve", "x": x, "y": curves["f1"]}},
        "P_curve.png": {"data": {"type": "p_curve", "x": x, "y": curves["precision"]}},
        "R_curve.png": {"data": {"type": "r_curve", "x": x, "y": curves["recall"]}},
        "confusion_matrix_normalized.png": {"data": confusion},
        "confusion_matrix.png": {"data": confusion},
    }
    box = SimpleNamespace(image_metrics=image_metrics(curves))
    validator = SimpleNamespace(
        plots=validator_plots, names=names, metrics=SimpleNamespace(ap_class_index=curves["classes"], box=box)
    )
    best_pt = run_dir / "weights" / "best.pt"
    trainer = SimpleNamespace(
        platform={
            "cancelled": False,
            "console_logger": SimpleNamespace(stop_capture=lambda: None),
            "checkpoint_upload": None,
            "model_id": None,
            "run_id": ours.get("runId"),
        },
        best=best_pt,
        last=run_dir / "weights" / "last.pt",
        plots={},
        validator=validator,
        data={"names": names},
        epoch=len(rows) - 1,
        stopper=SimpleNamespace(best_epoch=best + 1),  # 1-based, as Ultralytics' EarlyStopping counts
        # final_eval's validation of best.pt: a validator called without a trainer returns its metrics and
        # no losses, and the trainer drops their fitness.
        metrics={k: float(rows[best][k]) for k in METRIC_KEYS},
        fitness=fitnesses[-1],
        best_fitness=fitnesses[best],
        args=SimpleNamespace(task="detect"),
    )
    sent = []
    model_path = ours["results"]["modelPath"]  # the storage path the loopback platform handed out
    platform._upload_model = lambda path, *a, **k: {"modelPath": model_path, "modelSize": Path(path).stat().st_size}
    platform._get_project_name = lambda t: ("user/proj", "streamed")
    platform._send = lambda event, data, *a, **k: sent.append((event, platform._sanitize_json_value(data)))
    platform.on_train_end(trainer)
    assert [e for e, _ in sent] == ["training_complete"], sent
    out.write_text(json.dumps(sent[0][1]))
    print(f"training_complete: best epoch {best} of {len(rows)}, {len(sent[0][1]['plots'])} plots")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
