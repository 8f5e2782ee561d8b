"""The Python package's figures (npm run bench, after npm run build):

- import time, beside importing httpx and cryptography's Ed25519;
- one lookup, first (a new Verifier: a new connection) and kept (the same
  Verifier again: the answer kept as the service's Cache-Control allows),
  beside a pure-Python lookup (httpx, the verdict's canonical form, its
  Ed25519 signature checked with cryptography), first (a new client) and
  warm (its connection kept);
- the time the guard adds to a payment: x402ClientSync's
  create_payment_payload (the exact EVM scheme, a local key) with the guard,
  less the same payment without it timed just before (so that the
  machine's load weighs on both alike): with a new Verifier each time
  (loopback), with one Verifier throughout (its answer kept), and for a
  first payment to a new endpoint with the service 100 ms away (a loopback
  front that waits 100 ms before each request), its verdict fetched or
  stapled to the 402 (the x402-verdict extension); the requests the
  service got for the stapled payments;
- a seller's 402 (the official FastAPI middleware, an unpaid GET of a route
  with two options, served by uvicorn, its facilitator the tests' fake):
  without the extension, with the same staple as a constant (the floor:
  what the middleware's header costs, nothing read or judged) and with
  verdict_extension, its verdicts kept;

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
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = str(ROOT / "target/release/x402-verdict")
WORK = ROOT / ".work/python-bench"
ENDPOINT = ("eip155:8453", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "https://api.example.com/premium-data")
ITEMS = "https://api.example.com/items"
# The seller's route: its network (the tests' fake facilitator's) and its two addresses, attested below ITEMS.
SELLER_CHAIN = "eip155:84532"
SELLER_PAY_TOS = ("0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "0x1000000000000000000000000000000000000001")
SELLER_RUNS = 1000
USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
AGENT_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
RUNS = 200
# Payments to a new endpoint with the service 100 ms away: each fetched one waits on it.
FAR_RUNS = 30
FAR_MS = 100
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
    attestation = {
        "chain": chain, "payTo": pay_to, "resourceUrl": resource_url, "operator": "Bench Co",
        "relatedParty": False, "assuranceLevel": "G", "status": "active", "attestedAt": hours(-720),
        "lastRecheckedAt": hours(-1), "recheckEveryHours": 24, "renewBy": hours(7200),
    }
    # The new endpoints of the payments with the service far away: everything below /items.
    items = {**attestation, "resourceUrl": ITEMS, "match": "prefix"}
    sellers = [{**items, "chain": SELLER_CHAIN, "payTo": pay_to} for pay_to in SELLER_PAY_TOS]
    registry = {"attestations": [attestation, items, *sellers]}
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


class Far(BaseHTTPRequestHandler):
    """A front to the service at ``Far.target`` that waits FAR_MS before forwarding each
    request, and answers ``GET /asked`` with how many it forwarded."""

    protocol_version = "HTTP/1.1"
    # Headers and body leave at once, unheld by Nagle's algorithm (which, with the
    # client's delayed ACK, would add 40 ms to each answer).
    disable_nagle_algorithm = True
    target = ""
    asked = 0

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/asked":
            body, cache = str(Far.asked).encode(), None
        else:
            Far.asked += 1
            time.sleep(FAR_MS / 1000)
            with urllib.request.urlopen(Far.target + self.path) as answer:
                body, cache = answer.read(), answer.headers.get("Cache-Control")
        self.send_response(200)
        headers = {"Content-Type": "application/json", "Cache-Control": cache, "Content-Length": str(len(body))}
        for name, value in headers.items():
            if value:
                self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


def far(url: str):
    """``Far`` in a process of its own (so that no thread of it competes with the payments
    for this interpreter's lock): its URL, the requests it forwarded so far as a function,
    and the process."""
    child = subprocess.Popen([sys.executable, __file__, "--far", url], stdout=subprocess.PIPE, text=True)
    front = child.stdout.readline().strip()

    def asked() -> int:
        with urllib.request.urlopen(f"{front}/asked") as answer:
            return int(answer.read())

    return front, asked, child


def serve_far(url: str):
    """Serves ``Far`` in front of ``url`` until killed, its URL printed first."""
    Far.target = url
    server = ThreadingHTTPServer(("127.0.0.1", 0), Far)
    server.daemon_threads = True
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


def timed(pay) -> float:
    """The seconds ``pay()`` takes."""
    start = time.perf_counter()
    pay()
    return time.perf_counter() - start


class Added:
    """What the guard adds to payments, each timed right after the same payment
    unguarded (so that the machine's load weighs on both alike): the median of the
    differences, and of the unguarded payments."""

    def __init__(self):
        self.bare, self.added = [], []

    def time(self, bare, guarded):
        """Times ``bare()`` then ``guarded()``, the same payment without and with the guard."""
        unguarded = timed(bare)
        self.bare.append(unguarded)
        self.added.append(timed(guarded) - unguarded)

    def row(self, name: str) -> str:
        bare, added = statistics.median(self.bare), statistics.median(self.added)
        return f"  {name:38}{added * 1000:9.3f} ms ({(bare + added) / bare:.2f}x)"


def payments(url: str, public_key: str):
    """create_payment_payload without the guard and with it: a new Verifier each time, one
    Verifier throughout (its answer kept), and a first payment to a new endpoint with the
    service FAR_MS away, its verdict fetched or stapled; the median payment without the
    guard, and the requests the service got for the stapled payments."""
    from eth_account import Account
    from x402 import x402ClientSync
    from x402.mechanisms.evm.exact.client import ExactEvmScheme
    from x402.mechanisms.evm.signers import EthAccountSigner
    from x402.schemas import PaymentRequired, PaymentRequirements, ResourceInfo

    from x402_verdict import Verifier, guard

    chain, pay_to, resource_url = ENDPOINT

    def required(resource: str, staple=None) -> PaymentRequired:
        return PaymentRequired(resource=ResourceInfo(url=resource), accepts=[PaymentRequirements(
            scheme="exact", network=chain, asset=USDC, amount="10000", pay_to=pay_to, max_timeout_seconds=60,
            extra={"name": "USD Coin", "version": "2"})], extensions=staple)

    signer = EthAccountSigner(Account.from_key(AGENT_KEY))

    def client():
        return x402ClientSync().register(chain, ExactEvmScheme(signer=signer))

    def guarded(base_url: str):
        return guard(client(), Verifier(base_url, [public_key], strict=True), "require-human-backed")

    bare, kept, known = client(), guarded(url), required(resource_url)
    first, kept_answer = Added(), Added()
    for _ in range(RUNS):
        first.time(lambda: bare.create_payment_payload(known), lambda: guarded(url).create_payment_payload(known))
        kept_answer.time(lambda: bare.create_payment_payload(known), lambda: kept.create_payment_payload(known))

    front, asked, child = far(url)
    # One verifier each, and each payment to a new endpoint: nothing is kept.
    fetching, stapling = guarded(front), guarded(front)
    fetched, stapled, stapled_asked = Added(), Added(), 0
    for n in range(FAR_RUNS):
        plain = required(f"{ITEMS}/fetched/{n}")
        fetched.time(lambda: bare.create_payment_payload(plain), lambda: fetching.create_payment_payload(plain))
        # What the seller's server staples: the verdict as the service returned it.
        resource = f"{ITEMS}/stapled/{n}"
        query = urllib.parse.urlencode({"chain": chain, "payTo": pay_to, "resourceUrl": resource})
        with urllib.request.urlopen(f"{url}/v0/verdict?{query}") as answer:
            document = json.loads(answer.read())
        payment = required(resource, {"x402-verdict": {"info": {"verdicts": [document]}}})
        before = asked()
        stapled.time(lambda: bare.create_payment_payload(payment), lambda: stapling.create_payment_payload(payment))
        stapled_asked += asked() - before
    child.terminate()
    child.wait(10)
    rows = [first.row("first lookup, loopback"), kept_answer.row("answer kept"),
            fetched.row(f"first lookup, {FAR_MS} ms to the service"), stapled.row(f"stapled, {FAR_MS} ms to the service")]
    return statistics.median(first.bare + kept_answer.bare) * 1000, rows, stapled_asked


class Constant:
    """An extension of the same key that staples ``value`` as it is."""

    key = "x402-verdict"

    def __init__(self, value):
        self.value = value

    def enrich_declaration(self, declaration, transport_context):
        return declaration

    def enrich_payment_required_response(self, declaration, context):
        return self.value


def staple_of(response) -> dict:
    """The x402-verdict extension of a 402 (its PAYMENT-REQUIRED header), or {}."""
    header = response.getheader("payment-required")
    return json.loads(base64.b64decode(header)).get("extensions", {}).get("x402-verdict", {})


def sellers(url: str, public_key: str):
    """The median milliseconds of a seller's 402 (each shop asked in turn over a kept
    connection): without the extension, with the same staple as a constant, and with
    verdict_extension (its verdicts kept); and how many it staples."""
    import http.client

    sys.path.insert(0, str(ROOT / "tests/python"))
    from conftest import Facilitator, serve_asgi, serve_thread
    from fastapi import FastAPI
    from x402 import x402ResourceServer
    from x402.http import FacilitatorConfig, HTTPFacilitatorClient
    from x402.http.middleware.fastapi import payment_middleware
    from x402.mechanisms.evm.exact.server import ExactEvmScheme

    from x402_verdict import Verifier, verdict_extension

    facilitator, facilitator_url = serve_thread(Facilitator)
    accepts = [{"scheme": "exact", "payTo": pay_to, "price": "$0.01", "network": SELLER_CHAIN} for pay_to in SELLER_PAY_TOS]
    route = {"accepts": accepts, "description": "A seller's route", "resource": f"{ITEMS}/seller"}

    def shop(extension=None):
        server = x402ResourceServer(HTTPFacilitatorClient(FacilitatorConfig(url=facilitator_url)))
        server.register(SELLER_CHAIN, ExactEvmScheme())
        if extension:
            server.register_extension(extension)
        middleware = payment_middleware({"GET /weather": {**route, **({"extensions": {extension.key: {}}} if extension else {})}}, server)
        app = FastAPI()

        @app.middleware("http")
        async def x402(request, call_next):
            return await middleware(request, call_next)

        app.get("/weather")(lambda: {"paid": True})
        return serve_asgi(app)

    def connection(shop_url):
        return http.client.HTTPConnection(urllib.parse.urlsplit(shop_url).netloc, timeout=10)

    def ask(conn):
        conn.request("GET", "/weather")
        response = conn.getresponse()
        response.read()
        assert response.status == 402, response.status
        return response

    stapled_url, stop_stapled = shop(verdict_extension(Verifier(url, [public_key], 3000, True)))
    stapled_conn = connection(stapled_url)
    # Its verdicts are fetched in the background from its first 402 on.
    deadline = time.monotonic() + 30
    while len(staple_of(ask(stapled_conn)).get("info", {}).get("verdicts", [])) < len(SELLER_PAY_TOS):
        assert time.monotonic() < deadline, "the seller's verdicts were never stapled"
        time.sleep(0.05)
    value = staple_of(ask(stapled_conn))
    shops = {"plain": shop(), "floor": shop(Constant(value))}
    conns = {"plain": connection(shops["plain"][0]), "floor": connection(shops["floor"][0]), "stapled": stapled_conn}
    times = {name: [] for name in conns}
    try:
        for n in range(SELLER_RUNS + 50):
            for name, conn in conns.items():
                took = timed(lambda: ask(conn))
                if n >= 50:
                    times[name].append(took)
    finally:
        for conn in conns.values():
            conn.close()
        for _, stop in shops.values():
            stop()
        stop_stapled()
        facilitator.shutdown()
    return {name: statistics.median(t) * 1000 for name, t in times.items()}, len(value["info"]["verdicts"])


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
        bare_ms, rows, stapled_asked = payments(url, public_key)
        print()
        print("The guard's added time per payment (x402ClientSync's create_payment_payload, the median of")
        print(f"guarded minus the same payment unguarded just before; unguarded {bare_ms:.3f} ms):")
        print("\n".join(rows))
        print(f"  ({RUNS} runs; {FAR_MS} ms to the service: {FAR_RUNS} runs, each to a new endpoint)")
        print(f"  requests to the service, stapled      {stapled_asked} ({FAR_RUNS} payments)")
        seller, count = sellers(url, public_key)
        print()
        print(f"A seller's 402 (x402 FastAPI middleware, GET /weather, two options; median of {SELLER_RUNS}):")
        print(f"  without the extension                 {seller['plain']:9.3f} ms")
        print(f"  the same staple as a constant (floor) {seller['floor']:9.3f} ms")
        print(f"  with verdict_extension ({count} stapled)    {seller['stapled']:9.3f} ms")
        print(f"  ratio to without                      {seller['stapled'] / seller['plain']:9.2f}x (its floor {seller['floor'] / seller['plain']:.2f}x)")
        print(f"  ratio to its floor                    {seller['stapled'] / seller['floor']:9.2f}x")
        print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    finally:
        child.terminate()
        child.wait(10)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--far"]:
        serve_far(sys.argv[2])
    else:
        main()
