"""The MLflow side of tst_mlflow_cli, with MLflow's own Python client. Run only as a test peer.

    python mlflow_peer.py free-port
        prints a free loopback TCP port
    python mlflow_peer.py wait URI SECONDS
        exits 0 once the server at URI answers /health, 1 after SECONDS
    python mlflow_peer.py read URI DOWNLOAD_DIR
        prints every run of every experiment as JSON: {"runs": [{experiment, name, run_id, status, params,
        tags, metrics: {key: [[step, value, timestamp], ...]}, inputs: [{name, digest, profile, source,
        source_type, tags}], artifacts: [path, ...]}]}, and downloads each run's artifacts into
        DOWNLOAD_DIR/<run_id>/
    python mlflow_peer.py delete-experiment URI NAME
        creates the experiment NAME and deletes it (MLflow keeps it, deleted, under its name); prints its id
    python mlflow_peer.py serve PORT STATUS BODY
        a server that is not a healthy MLflow: answers every request with STATUS and BODY (JSON when BODY
        starts with "{"), until killed
    python mlflow_peer.py replay PROJECT_DB
        marks every sent row of the MLflow runs in a project's outbox pending again (a replay of
        everything, as after answers that were lost), so that a sync sends it all a second time
"""

import json
import socket
import sqlite3
import sys
import time
import urllib.request
from pathlib import Path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1])


def wait(uri, seconds):
    deadline = time.time() + float(seconds)
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(uri + "/health", timeout=2) as answer:
                if answer.status == 200:
                    return 0
        except OSError:
            pass
        time.sleep(0.3)
    return 1


def artifacts(client, run_id, path=None):
    out = []
    for item in client.list_artifacts(run_id, path):
        out.extend(artifacts(client, run_id, item.path) if item.is_dir else [item.path])
    return out


def read(uri, download_dir):
    from mlflow.tracking import MlflowClient

    client = MlflowClient(uri)
    experiments = {e.experiment_id: e.name for e in client.search_experiments()}
    runs = []
    for run in client.search_runs(list(experiments)):
        run_id = run.info.run_id
        metrics = {
            key: [[m.step, m.value, m.timestamp] for m in client.get_metric_history(run_id, key)]
            for key in run.data.metrics
        }
        inputs = [
            {
                "name": i.dataset.name,
                "digest": i.dataset.digest,
                "profile": json.loads(i.dataset.profile) if i.dataset.profile else None,
                "source": i.dataset.source,
                "source_type": i.dataset.source_type,
                "tags": {t.key: t.value for t in i.tags},
            }
            for i in run.inputs.dataset_inputs
        ]
        files = artifacts(client, run_id)
        target = Path(download_dir) / run_id
        target.mkdir(parents=True, exist_ok=True)
        if files:
            client.download_artifacts(run_id, "", str(target))
        runs.append(
            {
                "experiment": experiments[run.info.experiment_id],
                "name": run.info.run_name,
                "run_id": run_id,
                "status": run.info.status,
                "params": run.data.params,
                "tags": run.data.tags,
                "metrics": metrics,
                "inputs": inputs,
                "artifacts": sorted(files),
            }
        )
    print(json.dumps({"runs": runs}))


def delete_experiment(uri, name):
    from mlflow.tracking import MlflowClient

    client = MlflowClient(uri)
    experiment_id = client.create_experiment(name)
    client.delete_experiment(experiment_id)
    print(experiment_id)


def serve(port, status, body):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length:
                self.rfile.read(length)
            data = body.encode()
            self.send_response(int(status))
            self.send_header("Content-Type", "application/json" if body.startswith("{") else "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = answer

        def log_message(self, *args):
            pass

    ThreadingHTTPServer(("127.0.0.1", int(port)), Handler).serve_forever()


def replay(db):
    with sqlite3.connect(db) as connection:
        changed = connection.execute(
            "UPDATE remote_outbox SET state = 'pending' WHERE state = 'sent' AND run_uid IN "
            "(SELECT run_uid FROM remote_runs WHERE service = 'mlflow')"
        ).rowcount
        connection.execute("UPDATE remote_runs SET state = 'active' WHERE service = 'mlflow'")
    print(changed)


def main():
    command = sys.argv[1]
    if command == "free-port":
        free_port()
    elif command == "wait":
        sys.exit(wait(sys.argv[2], sys.argv[3]))
    elif command == "read":
        read(sys.argv[2], sys.argv[3])
    elif command == "delete-experiment":
        delete_experiment(sys.argv[2], sys.argv[3])
    elif command == "serve":
        serve(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "replay":
        replay(sys.argv[2])
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main()
