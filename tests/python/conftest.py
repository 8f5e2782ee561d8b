"""The parts the Python package's tests run against, all real and on loopback.

- ``paid``: an x402 paid server with the official Python middleware
  (``x402`` 2.25's FastAPI ``payment_middleware`` and its exact EVM scheme),
  unmodified, served by uvicorn, whose facilitator is a fake that knows
  ``GET /supported`` and accepts every payment it is asked to verify and
  settle; the server counts the payment headers each route receives.
- ``service``: the project's reference verification service
  (``x402-verdict serve``, target/release) signing with the demo key, its
  registry attesting the paid routes: human-backed, revoked, unlisted, a
  published verdict tampered with after signing, two options of one route
  (one revoked), and a route declaring a resource on another origin.
- ``hostile``: a verification service that answers after 10 s, after
  300 ms, or with 50 MB; ``DOWN`` is a port nobody listens on.

``serve_registry`` starts the reference service on a registry of one's own
(test_staple.py's; with a transparency log and its witness, test_staple_log.py's),
and ``signed`` signs a verdict as it does.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import threading
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = str(ROOT / "target/release/x402-verdict")
WORK = ROOT / ".work/python-tests"
NETWORK = "eip155:84532"
BACKED = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
REVOKED = "0x1111111111111111111111111111111111111111"
UNLISTED = "0x4444444444444444444444444444444444444444"
TAMPERED = "0x5555555555555555555555555555555555555555"
# A well-known test key (never funded): the client signs offline.
AGENT_KEY = "0x" + "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
ROUTES = {
    "/backed": [BACKED],
    "/revoked": [REVOKED],
    "/unlisted": [UNLISTED],
    "/tampered": [TAMPERED],
    "/pair": [REVOKED, BACKED],
    "/elsewhere": [BACKED],
}
# The resource ``/elsewhere`` declares, on another origin than its own (attested).
ELSEWHERE = "https://api.example.com/premium-data"


def free_port() -> int:
    """A loopback port nobody listens on (bound once, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


DOWN = f"http://127.0.0.1:{free_port()}"


def serve_thread(handler) -> tuple[ThreadingHTTPServer, str]:
    """``handler`` served on a loopback port from a daemon thread."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


class Quiet(BaseHTTPRequestHandler):
    """A handler that logs nothing and answers JSON."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def json(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class Facilitator(Quiet):
    """What the middleware asks before a 402, and every payment accepted."""

    def do_GET(self):
        if self.path != "/supported":
            return self.json(404, {})
        kinds = [{"x402Version": 2, "scheme": "exact", "network": NETWORK}]
        self.json(200, {"kinds": kinds, "extensions": [], "signers": {}})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        answers = {
            "/verify": {"isValid": True, "payer": BACKED},
            "/settle": {"success": True, "transaction": "0x" + "ab" * 32, "network": NETWORK, "payer": BACKED},
        }
        self.json(200, answers[self.path]) if self.path in answers else self.json(404, {})


class Hostile(Quiet):
    """``/slow``: answers 404 after 10 s; ``/late``: after 300 ms; ``/later``: after 1 s;
    ``/huge``: 50 MB;
    ``/kept``: 404 that may be kept a minute; ``/garbage``: bytes that are no JSON;
    ``/redirect``: to another origin. ``asked`` counts the requests of each."""

    asked = Counter()

    def do_GET(self):
        where = self.path.split("/")[1]
        Hostile.asked[where] += 1
        try:
            if where in ("garbage", "redirect"):
                data = b"\xff\xfe{not json" if where == "garbage" else b""
                self.send_response(200 if where == "garbage" else 302)
                if where == "redirect":
                    self.send_header("Location", f"http://localhost:{self.server.server_address[1]}/kept/v0/verdict")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                return self.wfile.write(data)
            if where == "kept":
                data = b'{"error":"no attestation for this endpoint"}'
                self.send_response(404)
                self.send_header("Cache-Control", "public, max-age=60")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                return self.wfile.write(data)
            if self.path.startswith("/slow/"):
                time.sleep(10)
            elif self.path.startswith("/late/"):
                time.sleep(0.3)
            elif self.path.startswith("/later/"):
                time.sleep(1)
            elif self.path.startswith("/huge/"):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(50 * 1024 * 1024))
                self.end_headers()
                chunk = b" " * (1024 * 1024)
                for _ in range(50):
                    self.wfile.write(chunk)
                return
            self.json(404, {"error": "no attestation for this endpoint"})
        except (BrokenPipeError, ConnectionResetError):
            pass


class Paid:
    """The paid server: its URL and the payment headers each route received."""

    def __init__(self, url: str, payments: list):
        self.url = url
        self.payments = payments

    def paid(self, path: str) -> list:
        """The payment headers ``path`` received (decoded)."""
        return [p for p, _ in self.payments if p == path]

    def paid_to(self, path: str) -> list:
        """The ``payTo`` of each payment ``path`` received."""
        return [header["accepted"]["payTo"] for p, header in self.payments if p == path]


@pytest.fixture(scope="session")
def paid():
    """The official Python x402 paid server (FastAPI middleware) and its facilitator."""
    from fastapi import FastAPI
    from x402 import x402ResourceServer
    from x402.http import FacilitatorConfig, HTTPFacilitatorClient
    from x402.http.middleware.fastapi import payment_middleware
    from x402.mechanisms.evm.exact.server import ExactEvmScheme

    facilitator, facilitator_url = serve_thread(Facilitator)
    server = x402ResourceServer(HTTPFacilitatorClient(FacilitatorConfig(url=facilitator_url)))
    server.register(NETWORK, ExactEvmScheme())
    routes = {
        f"GET {path}": {
            "accepts": [{"scheme": "exact", "payTo": pay_to, "price": "$0.01", "network": NETWORK} for pay_to in pay_tos],
            "description": f"The route {path}",
            **({"resource": ELSEWHERE} if path == "/elsewhere" else {}),
        }
        for path, pay_tos in ROUTES.items()
    }
    middleware = payment_middleware(routes, server)
    app = FastAPI()
    payments = []

    @app.middleware("http")
    async def x402(request, call_next):
        return await middleware(request, call_next)

    @app.middleware("http")
    async def record(request, call_next):
        header = request.headers.get("payment-signature")
        if header:
            payments.append((request.url.path, json.loads(base64.b64decode(header))))
        return await call_next(request)

    for path in ROUTES:
        app.get(path)(lambda: {"paid": True})

    url, stop = serve_asgi(app)
    yield Paid(url, payments)
    stop()
    facilitator.shutdown()


def serve_asgi(app, lifespan: str = "off") -> tuple[str, object]:
    """``app`` served by uvicorn on a loopback port from a daemon thread (its
    ``lifespan`` run when ``"on"``): its URL and a function that stops it."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    web = uvicorn.Server(uvicorn.Config(app, log_level="error", lifespan=lifespan))
    thread = threading.Thread(target=web.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not web.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert web.started, "the server did not start"

    def stop():
        web.should_exit = True
        thread.join(10)

    return f"http://127.0.0.1:{sock.getsockname()[1]}", stop


def hours(h: float) -> str:
    """The time ``h`` hours from now, to the second, as the registry writes it."""
    now = datetime.now(timezone.utc).replace(microsecond=0)
    return (now + timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")


def attested(pay_to: str, resource_url: str, status: str = "active", match: str | None = None) -> dict:
    """An attestation of ``pay_to`` at ``resource_url`` (``match``: ``"path"`` or ``"prefix"``)."""
    entry = {
        "chain": NETWORK, "payTo": pay_to, "resourceUrl": resource_url, "operator": "Weather Co",
        "relatedParty": False, "assuranceLevel": "G", "status": status, "attestedAt": hours(-24 * 30),
        "lastRecheckedAt": hours(-1), "recheckEveryHours": 24, "renewBy": hours(24 * 300),
    }
    if status == "revoked":
        entry["revokedAt"] = hours(-24)
    if match:
        entry["match"] = match
    return entry


class Service:
    """The reference service: its URL and the demo public key it signs with; with a log,
    the log's verifier key and its witness's (``log_key``, ``witness_key``)."""

    def __init__(self, url: str, public_key: str, *children: subprocess.Popen, log_key: str | None = None,
                 witness_key: str | None = None):
        self.url = url
        self.public_key = public_key
        self.children = children
        self.log_key = log_key
        self.witness_key = witness_key

    def stop(self):
        for child in self.children:
            child.terminate()
        for child in self.children:
            child.wait(10)


def demo_keys() -> Path:
    """The demo keys, copied where ``serve`` accepts them (mode 0600)."""
    WORK.mkdir(parents=True, exist_ok=True)
    keys = WORK / "keys.json"
    shutil.copyfile(ROOT / "demo/keys.json", keys)
    os.chmod(keys, 0o600)
    return keys


def listening(*args: str) -> tuple[subprocess.Popen, list[str], str]:
    """``x402-verdict`` started with ``args``: the process, the lines it printed before its
    address, and its URL."""
    child = subprocess.Popen([BIN, *args], stdout=subprocess.PIPE, text=True, env={**os.environ, "RUST_LOG": "error"})
    printed = []
    while not (line := child.stdout.readline()).startswith("listening on "):
        assert line, f"{args[0]} exited having said {printed!r}"
        printed.append(line.strip())
    return child, printed, line.strip().removeprefix("listening on ")


def serve_registry(registry: dict, name: str, log: bool = False) -> Service:
    """``x402-verdict serve`` on ``registry`` (written to ``name``), signing with the demo key.
    With ``log``, it keeps a transparency log (a new key and folder) cosigned by one
    ``x402-verdict witness`` of its own, both on loopback."""
    keys = demo_keys()
    path = WORK / name
    path.write_text(json.dumps(registry, indent=2))
    public_key = json.loads(keys.read_text())["current"]["publicKey"]
    serve = ["serve", "--listen", "127.0.0.1:0", "--registry", str(path), "--keys", str(keys)]
    if not log:
        child, _, url = listening(*serve)
        return Service(url, public_key, child)
    folder = WORK / f"{name}-log-{os.getpid()}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(mode=0o700, parents=True)
    for key_file in ("log.json", "witness.json"):
        subprocess.run([BIN, "keygen", "--out", str(folder / key_file)], check=True, capture_output=True)
    # The witness's address is the service's --witness-url; the service prints the log key the witness takes.
    witness_at = f"127.0.0.1:{free_port()}"
    child, printed, url = listening(*serve, "--log", str(folder / "log"), "--log-keys", str(folder / "log.json"),
                                    "--log-origin", "verdicts.test/log", "--witness-url", f"http://{witness_at}")
    log_key = next(line for line in printed if line.startswith("log key ")).removeprefix("log key ")
    witness, printed, _ = listening("witness", "--listen", witness_at, "--keys", str(folder / "witness.json"),
                                    "--log-key", log_key, "--state", str(folder / "witness-state"))
    witness_key = next(line for line in printed if line.startswith("witness key ")).removeprefix("witness key ")
    return Service(url, public_key, child, witness, log_key=log_key, witness_key=witness_key)


def signed(chain: str, pay_to: str, resource_url: str, outcome: str = "human_backed", age: int = 0,
           secret: bytes | None = None) -> dict:
    """A verdict document about the endpoint, issued ``age`` seconds ago, signed as the
    service signs (RFC 8785 form: sorted, compact JSON of these plain values) by the demo
    key, or by ``secret`` (a raw Ed25519 seed) under the demo key's keyId."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    demo = json.loads((ROOT / "demo/keys.json").read_text())["current"]
    now = datetime.now(timezone.utc).replace(microsecond=0) - timedelta(seconds=age)
    at = lambda t: t.strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    verdict = {
        "v": 1, "chain": chain, "payTo": pay_to, "resourceUrl": resource_url, "outcome": outcome,
        "assuranceLevel": "G", "verifiedAt": at(now - timedelta(hours=1)), "recheckEveryHours": 24,
        "issuedAt": at(now), "keyId": demo["keyId"],
    }
    key = Ed25519PrivateKey.from_private_bytes(secret or base64.b64decode(demo["secretKey"]))
    message = b"x402-verdict/v1\n" + json.dumps(verdict, sort_keys=True, separators=(",", ":")).encode()
    return {"verdict": verdict, "signature": base64.b64encode(key.sign(message)).decode()}


@pytest.fixture(scope="session")
def service(paid):
    """``x402-verdict serve`` with a registry attesting the paid routes."""
    keys = demo_keys()
    url = paid.url
    verdict = {
        "v": 1, "chain": NETWORK, "payTo": TAMPERED, "resourceUrl": f"{url}/tampered", "outcome": "human_backed",
        "assuranceLevel": "G", "verifiedAt": hours(-1), "recheckEveryHours": 24,
    }
    tampered = json.loads(subprocess.run([BIN, "sign", "--keys", str(keys), "-"], input=json.dumps(verdict),
                                         capture_output=True, text=True, check=True).stdout)
    tampered["verdict"]["assuranceLevel"] = "A"
    registry = {
        "attestations": [
            attested(BACKED, f"{url}/backed"),
            attested(REVOKED, f"{url}/revoked", "revoked"),
            attested(REVOKED, f"{url}/pair", "revoked"),
            attested(BACKED, f"{url}/pair"),
            attested(BACKED, ELSEWHERE),
        ],
        "published": [tampered],
    }
    started = serve_registry(registry, "registry.json")
    yield started
    started.stop()


@pytest.fixture(scope="session")
def hostile():
    """The hostile service's base URL (``/slow``, ``/late``, ``/huge`` under it)."""
    server, url = serve_thread(Hostile)
    yield url
    server.shutdown()
