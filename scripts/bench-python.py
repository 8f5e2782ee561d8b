"""The Python package's figures (npm run bench, after npm run build):
import time, and the time a lookup adds to a payment, first (a new
Verifier: a new connection) and warm (the same Verifier again: its
connection kept), beside a pure-Python lookup (httpx, then the verdict's
canonical form and its Ed25519 signature checked with cryptography), all
against the reference service (x402-verdict serve) on loopback.

    .work/python-bench-venv/bin/python scripts/bench-python.py
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = str(ROOT / "target/release/x402-verdict")
WORK = ROOT / ".work/python-bench"
ENDPOINT = ("base", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "https://api.example.com/premium-data")
RUNS = 200
IMPORTS = 15


def hours(h: float) -> str:
    now = datetime.now(timezone.utc).replace(microsecond=0)
    return (now + timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")


def start_service():
    """The reference service with one human-backed endpoint; (url, public key, process)."""
    WORK.mkdir(parents=True, exist_ok=True)
    keys = WORK / "keys.json"
    shutil.copyfile(ROOT / "demo/keys.json", keys)
    os.chmod(keys, 0o600)
    chain, pay_to, resource_url = ENDPOINT
    registry = {"attestations": [{
        "chain": chain, "payTo": pay_to, "resourceUrl": resource_url, "operator": "Bench Co",
        "relatedParty": False, "assuranceLevel": "G", "status": "active", "attestedAt": hours(-720),
        "lastRecheckedAt": hours(-1), "recheckEveryHours": 24, "renewBy": hours(7200),
    }]}
    (WORK / "registry.json").write_text(json.dumps(registry))
    child = subprocess.Popen([BIN, "serve", "--listen", "127.0.0.1:0", "--registry", str(WORK / "registry.json"),
                              "--keys", str(keys)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "RUST_LOG": "error"})
    url = child.stdout.readline().strip().removeprefix("listening on ")
    return url, json.loads(keys.read_text())["current"]["publicKey"], child


def import_time(module: str) -> float:
    """The median seconds a fresh interpreter takes to import ``module``."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    return statistics.median(
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(IMPORTS)
    )


def median_ms(run, runs=RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def pure_python(url: str, public_key: str):
    """A pure-Python lookup: GET, parse, canonical form (sorted, compact JSON), Ed25519."""
    import httpx
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key))
    chain, pay_to, resource_url = ENDPOINT

    def lookup(client):
        response = client.get(f"{url}/v0/verdict", params={"chain": chain, "payTo": pay_to, "resourceUrl": resource_url},
                              headers={"Accept": "application/x402-verdict+json"}, timeout=3)
        document = json.loads(response.content)
        verdict = document["verdict"]
        message = b"x402-verdict/v1\n" + json.dumps(verdict, sort_keys=True, separators=(",", ":"),
                                                      ensure_ascii=False).encode()
        key.verify(base64.b64decode(document["signature"]), message)
        return verdict["outcome"]

    return lookup, httpx.Client


def main():
    url, public_key, child = start_service()
    try:
        from x402_verdict import Verifier

        assert Verifier(url, [public_key], strict=True).lookup_verdict(*ENDPOINT)["state"] == "human-backed"
        lookup, Client = pure_python(url, public_key)
        with Client() as client:
            assert lookup(client) == "human_backed"

        def first_ours():
            Verifier(url, [public_key], strict=True).lookup_verdict(*ENDPOINT)

        warm = Verifier(url, [public_key], strict=True)

        def first_pure():
            with Client() as client:
                lookup(client)

        warm_client = Client()
        figures = {
            "import_ms": {"x402_verdict": import_time("x402_verdict") * 1000,
                          "httpx + cryptography": import_time(
                              "httpx, cryptography.hazmat.primitives.asymmetric.ed25519") * 1000},
            "first_lookup_ms": {"x402_verdict": median_ms(first_ours), "httpx + cryptography": median_ms(first_pure)},
            "warm_lookup_ms": {"x402_verdict": median_ms(lambda: warm.lookup_verdict(*ENDPOINT)),
                               "httpx + cryptography": median_ms(lambda: lookup(warm_client))},
            "load": os.getloadavg(),
        }
        warm_client.close()
        for name in ["import_ms", "first_lookup_ms", "warm_lookup_ms"]:
            ours, pure = figures[name]["x402_verdict"], figures[name]["httpx + cryptography"]
            print(f"{name:16} x402_verdict {ours:8.2f}  httpx + cryptography {pure:8.2f}  ratio {ours / pure:5.2f}")
        print("load average", " ".join(f"{x:.2f}" for x in figures["load"]))
    finally:
        child.terminate()
        child.wait(10)


if __name__ == "__main__":
    main()
