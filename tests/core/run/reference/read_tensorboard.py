"""Reads a TensorBoard log folder with tensorboard's own event reader (tst_tensorboard).

    python read_tensorboard.py FOLDER

Prints {"files": n, "scalars": {tag: [[step, value], ...]}} as JSON. Run only as a test peer.
"""

import json
import sys
from pathlib import Path

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator


def main():
    folder = Path(sys.argv[1])
    accumulator = EventAccumulator(str(folder), size_guidance={"scalars": 0})
    accumulator.Reload()
    scalars = {
        tag: [[event.step, event.value] for event in accumulator.Scalars(tag)]
        for tag in accumulator.Tags()["scalars"]
    }
    files = len(list(folder.glob("events.out.tfevents.*")))
    print(json.dumps({"files": files, "scalars": scalars}))


if __name__ == "__main__":
    main()
