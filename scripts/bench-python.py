"""The Python package's figures (npm run bench, after npm run build):

- import time, beside importing httpx and cryptography's Ed25519;
- one lookup, first (a new Verifier: a new connection) and kept (the same
  Verifier again: the answer kept as the service's Cache-Control allows),
  beside a pure-Python lookup (httpx, the verdict's canonical form, its
  Ed25519 signature checked with cryptography), first (a new client) and
  warm (its connection kept);
- the time the guard adds to a payment: x402ClientSync's
  create_payment_payload (the exact EVM scheme, a local key) with the guard
  (a new Verifier each time, and one Verifier throughout) and without;

all against the reference service (x402-verdict serve) on loopback.
Medians; ratios are ours over the comparison.

    bash scripts/bench-python.sh
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
ENDPOINT = ("eip155:8453", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "https://api.example.com/premium-data")
USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
AGENT_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
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


def payments(url: str, public_key: str):
    """create_payment_payload without the guard, and with it (a new Verifier, one Verifier)."""
    from eth_account import Account
    from x402 import x402ClientSync
    from x402.mechanisms.evm.exact.client import ExactEvmScheme
    from x402.mechanisms.evm.signers import EthAccountSigner
    from x402.schemas import PaymentRequired, PaymentRequirements, ResourceInfo

    from x402_verdict import Verifier, guard

    chain, pay_to, resource_url = ENDPOINT
    required = PaymentRequired(resource=ResourceInfo(url=resource_url), accepts=[PaymentRequirements(
        scheme="exact", network=chain, asset=USDC, amount="10000", pay_to=pay_to, max_timeout_seconds=60,
        extra={"name": "USD Coin", "version": "2"})])
    signer = EthAccountSigner(Account.from_key(AGENT_KEY))

    def client():
        return x402ClientSync().register(chain, ExactEvmScheme(signer=signer))

    bare = client()
    kept = guard(client(), Verifier(url, [public_key], strict=True), "require-human-backed")

    def first():
        guard(client(), Verifier(url, [public_key], strict=True), "require-human-backed").create_payment_payload(required)

    return {"bare": median_ms(lambda: bare.create_payment_payload(required)), "first": median_ms(first),
            "kept": median_ms(lambda: kept.create_payment_payload(required))}


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
        pure = "httpx + cryptography"
        rows = [
            ("import (ms)", import_time("x402_verdict") * 1000,
             import_time("httpx, cryptography.hazmat.primitives.asymmetric.ed25519") * 1000),
            ("first lookup (ms)", median_ms(first_ours), median_ms(first_pure)),
            ("kept / warm lookup (ms)", median_ms(lambda: warm.lookup_verdict(*ENDPOINT)),
             median_ms(lambda: lookup(warm_client))),
        ]
        warm_client.close()
        print(f"{'':26} {'x402_verdict':>13} {pure:>21} {'ratio':>7}")
        for name, ours, theirs in rows:
            print(f"{name:26} {ours:13.3f} {theirs:21.3f} {ours / theirs:7.2f}")
        paying = payments(url, public_key)
        print(f"payment without the guard {paying['bare']:.3f} ms; added by the guard: "
              f"first lookup {paying['first'] - paying['bare']:.3f} ms "
              f"({paying['first'] / paying['bare']:.2f}x), kept answer {paying['kept'] - paying['bare']:.3f} ms "
              f"({paying['kept'] / paying['bare']:.2f}x)")
        print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    finally:
        child.terminate()
        child.wait(10)


if __name__ == "__main__":
    main()
