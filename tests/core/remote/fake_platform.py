#!/usr/bin/env python3
"""A fake Ultralytics-style platform for Osprey's remote tests (standard library only).

Serves on 127.0.0.1 (port 0 picks a free one) and prints "PORT <n>" on stdout. Exits when stdin closes,
so it never outlives the test that started it.

Platform endpoints (specs/remote-platform.md):
  GET  /api/account/summary           200 {"username"} for a valid Bearer key, else 401
  POST /api/webhooks/training/metrics  envelopes; training_started answers {modelId, runId, modelSlug}
  POST /api/webhooks/models/upload     {uploadUrl, gcsPath, uploadPath}; the URL points back here
  PUT  /_upload/<n>/<filename>         raw body, checked against X-Checksum-SHA256 (400 on mismatch)

Control endpoints (tests only):
  GET  /_control/received  everything accepted: events (in arrival order), uploads, duplicates, requests
  POST /_control/fault     {"target": "metrics"|"upload_url"|"put"|"summary", "status": 500, "count": 2,
                            "retryAfter": 3, "delay": 1.5, "drop": true, "event": "epoch_end"}
                           count -1 means until cleared; "drop" cuts a PUT after half its body
  POST /_control/clear     removes every fault
  POST /_control/down      {"seconds": 5}: stops listening (connections refused), then listens again
  POST /_control/cancel    {"cancel": true}: every later metrics answer says cancelled
"""
import argparse
import hashlib
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

EVENTS = {"training_started", "epoch_end", "console_output", "checkpoint_saved", "training_complete",
          "training_failed"}


class State:
    def __init__(self, keys, upload_dir):
        self.lock = threading.RLock()
        self.keys = set(keys)
        self.upload_dir = upload_dir
        self.port = 0
        self.events = []
        self.seen = {}
        self.duplicates = 0
        self.uploads = []
        self.requests = []
        self.faults = []
        self.cancel = False
        self.models = 0
        self.upload_count = 0
        self.down = []

    def take_fault(self, target, event=None):
        with self.lock:
            for fault in self.faults:
                if fault.get("target", "metrics") != target or fault.get("count", 1) == 0:
                    continue
                if fault.get("event") and fault["event"] != event:
                    continue
                if fault.get("count", 1) > 0:
                    fault["count"] = fault.get("count", 1) - 1
                return dict(fault)
        return None


def reject_constant(name):
    raise ValueError("non-finite number " + name)


class Handler(BaseHTTPRequestHandler):
    server_version = "FakePlatform/1.0"

    def log_message(self, *args):
        pass

    @property
    def state(self):
        return self.server.state

    def answer(self, status, body=None, headers=None):
        data = json.dumps(body if body is not None else {}).encode()
        # Recorded before the answer goes out: each request is on its own connection (HTTP/1.0), so a
        # record made after the write could land after the client's next request, out of order.
        with self.state.lock:
            self.state.requests.append({"method": self.command, "path": self.path, "status": status,
                                        "t": time.time()})
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def authorized(self):
        header = self.headers.get("Authorization", "")
        return header.startswith("Bearer ") and header[7:] in self.state.keys

    def body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length) if length else b""

    def apply_fault(self, fault):
        """Returns True when the fault produced the answer."""
        if not fault:
            return False
        if fault.get("delay"):
            time.sleep(float(fault["delay"]))
        if fault.get("status"):
            headers = {}
            if fault.get("retryAfter") is not None:
                headers["Retry-After"] = str(fault["retryAfter"])
            self.answer(int(fault["status"]), {"error": "injected"}, headers)
            return True
        return False

    def do_GET(self):
        if self.path == "/_control/received":
            with self.state.lock:
                snapshot = json.loads(json.dumps({"events": self.state.events, "uploads": self.state.uploads,
                                                  "duplicates": self.state.duplicates,
                                                  "requests": self.state.requests, "down": self.state.down}))
            self.answer(200, snapshot)
            return
        if self.path == "/api/account/summary":
            if self.apply_fault(self.state.take_fault("summary")):
                return
            if not self.authorized():
                self.answer(401, {"error": "invalid API key"})
                return
            self.answer(200, {"username": "tester", "plan": "free"})
            return
        self.answer(404, {"error": "not found"})

    def do_POST(self):
        raw = self.body()
        if self.path.startswith("/_control/"):
            self.control(self.path[len("/_control/"):], json.loads(raw or b"{}"))
            return
        try:
            payload = json.loads(raw, parse_constant=reject_constant)
        except ValueError as error:
            self.answer(400, {"error": "invalid JSON: %s" % error})
            return
        if self.path == "/api/webhooks/training/metrics":
            self.metrics(payload)
        elif self.path == "/api/webhooks/models/upload":
            self.upload_url(payload)
        else:
            self.answer(404, {"error": "not found"})

    def metrics(self, envelope):
        event = envelope.get("event") if isinstance(envelope, dict) else None
        if self.apply_fault(self.state.take_fault("metrics", event)):
            return
        if not self.authorized():
            self.answer(401, {"error": "invalid API key"})
            return
        if event not in EVENTS or not isinstance(envelope.get("data"), dict):
            self.answer(400, {"error": "bad envelope"})
            return
        if "modelId" not in envelope and not ("project" in envelope and "name" in envelope):
            self.answer(400, {"error": "modelId or project and name required"})
            return
        event_id = envelope.get("eventId") or self.headers.get("Idempotency-Key")
        with self.state.lock:
            if event_id and event_id in self.state.seen:
                self.state.duplicates += 1
                reply = self.state.seen[event_id]
            else:
                reply = {"ok": True}
                if event == "training_started":
                    self.state.models += 1
                    n = self.state.models
                    reply.update({"modelId": "model-%d" % n, "runId": "run-%d" % n,
                                  "modelSlug": envelope.get("name", "train")})
                record = dict(envelope)
                record["t"] = time.time()
                record["idempotencyKey"] = self.headers.get("Idempotency-Key")
                self.state.events.append(record)
                if event_id:
                    self.state.seen[event_id] = reply
            reply = dict(reply)
            reply["cancelled"] = self.state.cancel
        self.answer(200, reply)

    def upload_url(self, request):
        if self.apply_fault(self.state.take_fault("upload_url")):
            return
        if not self.authorized():
            self.answer(401, {"error": "invalid API key"})
            return
        filename = os.path.basename(request.get("filename", "weights.pt"))
        owner = request.get("modelId") or "%s/%s" % (request.get("project"), request.get("name"))
        with self.state.lock:
            self.state.upload_count += 1
            n = self.state.upload_count
        self.answer(200, {"uploadUrl": "http://127.0.0.1:%d/_upload/%d/%s" % (self.state.port, n, filename),
                          "gcsPath": "gs://fake-bucket/%s/%d/%s" % (owner, n, filename),
                          "uploadPath": "%s/%d/%s" % (owner, n, filename)})

    def do_PUT(self):
        if not self.path.startswith("/_upload/"):
            self.answer(404, {"error": "not found"})
            return
        fault = self.state.take_fault("put")
        length = int(self.headers.get("Content-Length", "0"))
        if fault and fault.get("drop"):
            self.rfile.read(length // 2)
            with self.state.lock:
                self.state.requests.append({"method": "PUT", "path": self.path, "status": 0, "t": time.time(),
                                            "dropped": True})
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if self.apply_fault(fault):
            return
        if self.headers.get("Authorization"):
            self.answer(400, {"error": "a signed URL takes no Authorization header"})
            return
        digest = hashlib.sha256()
        _, _, n, filename = self.path.split("/", 3)
        target = os.path.join(self.state.upload_dir, "%s_%s" % (n, filename))
        left = length
        with open(target, "wb") as out:
            while left > 0:
                chunk = self.rfile.read(min(left, 1 << 16))
                if not chunk:
                    break
                digest.update(chunk)
                out.write(chunk)
                left -= len(chunk)
        claimed = self.headers.get("X-Checksum-SHA256", "")
        ok = left == 0 and claimed == digest.hexdigest()
        with self.state.lock:
            self.state.uploads.append({"path": target, "size": length - left, "sha256": digest.hexdigest(),
                                       "checksumHeader": claimed, "ok": ok,
                                       "contentType": self.headers.get("Content-Type")})
        self.answer(200 if ok else 400, {} if ok else {"error": "checksum mismatch"})

    def control(self, command, body):
        state = self.state
        if command == "fault":
            with state.lock:
                state.faults.append(body)
        elif command == "clear":
            with state.lock:
                state.faults = []
        elif command == "cancel":
            with state.lock:
                state.cancel = bool(body.get("cancel", True))
        elif command == "down":
            # Stop listening before answering, so the outage has begun when the test reads the answer.
            self.server.owner.outage(float(body.get("seconds", 5)))
        else:
            self.answer(404, {"error": "unknown control " + command})
            return
        self.answer(200, {"ok": True})


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Clients that die mid-request (a killed test child, a dropped upload) are expected here.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class Server:
    def __init__(self, state, port):
        self.state = state
        self.port = port
        self.httpd = None
        self.listen()

    def listen(self):
        httpd = QuietServer(("127.0.0.1", self.port), Handler)
        httpd.state = self.state
        httpd.owner = self
        self.port = httpd.server_address[1]
        self.state.port = self.port
        self.httpd = httpd
        threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def outage(self, seconds):
        started = time.time()
        self.httpd.shutdown()
        self.httpd.server_close()

        def run():
            time.sleep(max(0.0, seconds - (time.time() - started)))
            while True:
                try:
                    self.listen()
                    break
                except OSError:
                    time.sleep(0.05)
            with self.state.lock:
                self.state.down.append({"from": started, "to": time.time()})
        threading.Thread(target=run, daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--key", action="append", default=[])
    parser.add_argument("--upload-dir", required=True)
    args = parser.parse_args()
    state = State(args.key, args.upload_dir)
    server = Server(state, args.port)
    print("PORT %d" % server.port, flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
