"""Verdicts stapled to the 402 (the x402 extension ``x402-verdict``), against
real parts on loopback: the reference service behind a counting front (the
sellers' verifiers and the paying agents' each ask it under a mode of their
own), the official x402 2.25 servers (FastAPI and Flask middleware) with
``verdict_extension`` registered, unmodified, and the fake facilitator;
paid by the official clients with the guard. A hostile seller's staples come
from an extension of the same key that staples what each test gives it.
Each test counts the requests the agent's service got and the payments the
seller received."""

from __future__ import annotations

import base64
import http.client
import json
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from conftest import (
    AGENT_KEY,
    BACKED,
    DOWN,
    NETWORK,
    ROOT,
    UNLISTED,
    Facilitator,
    Quiet,
    attested,
    free_port,
    serve_asgi,
    serve_registry,
    serve_thread,
    signed,
)
from test_guard import async_client, pay_async, pay_sync, sync_client

from x402_verdict import Verifier, guard, verdict_extension

KEY = "x402-verdict"
# Another Ed25519 seed than the demo key's: signatures under the demo keyId that fail.
OTHER_SECRET = bytes(range(32))
# What the hostile seller staples: a function of its 402 (x402's PaymentRequired).
STAPLES = {"of": lambda payment_required: []}


class Front(Quiet):
    """A counting front to the reference service (``Front.target``): ``/<mode>/v0/…`` is
    forwarded as ``/v0/…``; ``nokeys`` answers the keys 404, ``stall`` holds every answer
    until ``Front.release`` is set, ``brief`` keeps verdicts fresh for one second (and
    stale for 300). ``asked`` counts the requests by (mode, what) and (mode, what, payTo),
    ``what`` being ``verdict`` or ``verification-keys``."""

    target = ""
    asked: Counter = Counter()
    held = 0
    release = threading.Event()

    def do_GET(self):
        url = urlsplit(self.path)
        _, mode, *rest = url.path.split("/")
        what = rest[-1]
        pay_to = parse_qs(url.query).get("payTo", [""])[0]
        Front.asked.update([(mode, what), (mode, what, pay_to)])
        if mode == "nokeys" and what == "verification-keys":
            return self.json(404, {})
        if mode == "stall":
            Front.held += 1
            Front.release.wait(60)
        target = urlsplit(Front.target)
        upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
        upstream.request("GET", "/" + "/".join(rest) + (f"?{url.query}" if url.query else ""))
        answer = upstream.getresponse()
        body = answer.read()
        cache = "max-age=1, stale-while-revalidate=300" if mode == "brief" else answer.getheader("Cache-Control")
        self.send_response(answer.status)
        self.send_header("Content-Type", "application/json")
        if cache:
            self.send_header("Cache-Control", cache)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Forger:
    """A hostile seller's extension of the same key: it staples ``STAPLES["of"](402)``."""

    key = KEY
    dynamic_info_fields = ["verdicts"]
    hooks = None
    transport_hooks = None

    def enrich_declaration(self, declaration, transport_context):
        return declaration

    def enrich_payment_required_response(self, declaration, context):
        return {"info": {"verdicts": STAPLES["of"](context.payment_required_response)}}


class Sellers:
    """The sellers' servers: their URL (FastAPI: each seller under a path of its own;
    Flask), the payments each path received, and each 402's staple of ``/brief``."""

    def __init__(self, url: str, flask_url: str, payments: list, brief_staples: list):
        self.url = url
        self.flask_url = flask_url
        self.payments = payments
        self.brief_staples = brief_staples

    def paid(self, path: str) -> list:
        """The payment headers ``path`` received (decoded)."""
        return [header for p, header in self.payments if p == path]


def route(pay_tos, description):
    return {"accepts": [{"scheme": "exact", "payTo": p, "price": "$0.01", "network": NETWORK} for p in pay_tos],
            "description": description, "extensions": {KEY: {}}}


def seller_verifier(front_url: str, mode: str, public_key: str) -> Verifier:
    return Verifier(f"{front_url}/{mode}", [public_key], 3000, True)


@pytest.fixture(scope="module")
def staple_world():
    """The front, the sellers and the reference service attesting their routes."""
    from fastapi import FastAPI
    from flask import Flask
    from werkzeug.serving import make_server
    from x402 import x402ResourceServer, x402ResourceServerSync
    from x402.http import FacilitatorConfig, HTTPFacilitatorClient, HTTPFacilitatorClientSync
    from x402.http.middleware.fastapi import payment_middleware
    from x402.http.middleware.flask import payment_middleware as flask_payment_middleware
    from x402.mechanisms.evm.exact.server import ExactEvmScheme

    front, front_url = serve_thread(Front)
    facilitator, facilitator_url = serve_thread(Facilitator)
    public_key = json.loads((ROOT / "demo/keys.json").read_text())["current"]["publicKey"]
    config = FacilitatorConfig(url=facilitator_url)

    sellers = {
        "/hostile": (Forger(), {"GET /hostile/report": route([BACKED], "A report"),
                                "GET /hostile/v1x": route([BACKED], "Revoked at the service")}),
        "/stalled": (verdict_extension(seller_verifier(front_url, "stall", public_key)),
                     {"GET /stalled/weather": route([BACKED, UNLISTED], "Two options, one attested")}),
        "/down": (verdict_extension(Verifier(DOWN, [public_key], 3000, True)),
                  {"GET /down/report": route([BACKED], "Its seller's service is down")}),
        "/brief": (verdict_extension(seller_verifier(front_url, "brief", public_key)),
                   {"GET /brief/report": route([BACKED], "Its verdict kept for a second")}),
        "/honest": (verdict_extension(seller_verifier(front_url, "honest", public_key)),
                    {"GET /honest/report": route([BACKED], "Stapled")}),
    }
    app = FastAPI()
    payments, brief_staples = [], []
    for prefix, (extension, routes) in sellers.items():
        server = x402ResourceServer(HTTPFacilitatorClient(config)).register(NETWORK, ExactEvmScheme())
        server.register_extension(extension)
        middleware = payment_middleware(routes, server)

        async def x402(request, call_next, middleware=middleware):
            return await middleware(request, call_next)

        app.middleware("http")(x402)
        for path in routes:
            app.get(path.removeprefix("GET "))(lambda: {"paid": True})

    @app.middleware("http")
    async def record(request, call_next):
        header = request.headers.get("payment-signature")
        if header:
            payments.append((request.url.path, json.loads(base64.b64decode(header))))
        response = await call_next(request)
        required = response.headers.get("payment-required")
        if required and request.url.path == "/brief/report":
            brief_staples.append(json.loads(base64.b64decode(required))["extensions"][KEY]["info"]["verdicts"])
        return response

    url, stop = serve_asgi(app)

    flask = Flask("seller")
    flask_server = x402ResourceServerSync(HTTPFacilitatorClientSync(config)).register(NETWORK, ExactEvmScheme())
    flask_server.register_extension(verdict_extension(seller_verifier(front_url, "flask", public_key)))
    flask_payment_middleware(flask, {"GET /report": route([BACKED], "On Flask")}, flask_server)
    flask.get("/report")(lambda: {"paid": True})

    @flask.before_request
    def record_flask():
        from flask import request

        header = request.headers.get("payment-signature")
        if header:
            payments.append(("flask /report", json.loads(base64.b64decode(header))))

    wsgi = make_server("127.0.0.1", 0, flask, threaded=True)
    threading.Thread(target=wsgi.serve_forever, daemon=True).start()
    flask_url = f"http://127.0.0.1:{wsgi.server_port}"

    service = serve_registry({"attestations": [
        attested(BACKED, f"{url}/hostile/report", match="path"),
        attested(BACKED, f"{url}/hostile/v1x", "revoked", match="path"),
        *[attested(BACKED, f"{url}{prefix}", match="prefix") for prefix in ("/stalled", "/down", "/brief", "/honest")],
        attested(BACKED, f"{flask_url}/report", match="path"),
    ]}, "staple-registry.json")
    Front.target = service.url
    yield Sellers(url, flask_url, payments, brief_staples), front_url, public_key
    Front.release.set()
    service.stop()
    wsgi.shutdown()
    stop()
    front.shutdown()
    facilitator.shutdown()


@pytest.fixture
def world(staple_world):
    return staple_world[0]


@pytest.fixture
def front(staple_world):
    return staple_world[1]


@pytest.fixture
def public_key(staple_world):
    return staple_world[2]


def challenge_of(url: str) -> dict:
    """The 402 of ``url`` as a client without a payment sees it: its decoded PAYMENT-REQUIRED."""
    import requests

    response = requests.get(url, timeout=30)
    assert response.status_code == 402
    return json.loads(base64.b64decode(response.headers["payment-required"]))


def stapled(url: str) -> list:
    """The verdicts the 402 of ``url`` staples."""
    return challenge_of(url)["extensions"][KEY]["info"]["verdicts"]


def until_stapled(url: str) -> list:
    """The verdicts of the first 402 of ``url`` that staples some (each 402 keeps its
    seller's verdicts warm), within 30 s."""
    deadline = time.monotonic() + 30
    while not (verdicts := stapled(url)):
        assert time.monotonic() < deadline, f"{url} stapled nothing"
        time.sleep(0.05)
    return verdicts


def agent(front: str, mode: str, public_key: str | None, make=sync_client, policy=None, strict=True):
    """A client guarded with a verifier asking the front in ``mode``; ``seen`` lists the
    guard's results (its policy avoids revoked, as the default does)."""
    verifier = Verifier(f"{front}/{mode}", [public_key] if public_key else None, 3000, strict)
    seen = []

    def avoid_revoked(result, requirement):
        seen.append(result)
        return result["state"] != "revoked"

    return guard(make(), verifier, policy or avoid_revoked), seen


def refusal(url):
    return f"x402-verdict: not paying {url}: state revoked, outcome revoked, reason revoked (policy avoid-revoked)."


class TestASellersStaple:
    """verdict_extension on the official servers."""

    def test_the_first_402_waits_on_nothing_and_staples_none_then_its_options_kept_verdicts(self, world):
        url = f"{world.url}/stalled/weather"
        first = challenge_of(url)
        assert first["extensions"][KEY]["info"]["verdicts"] == []
        # The 402 was answered while the service holds both options' requests.
        deadline = time.monotonic() + 30
        while Front.held < 2:
            assert time.monotonic() < deadline, "the seller asked for its verdicts in the background"
            time.sleep(0.02)
        Front.release.set()
        warm = challenge_of(url)
        verdicts = until_stapled(url)
        # The first option is attested; nobody attested the other (a 404 is no verdict: nothing to staple).
        assert [(d["verdict"]["payTo"], d["verdict"]["outcome"]) for d in verdicts] == [(BACKED, "human_backed")]
        schema = warm["extensions"][KEY]["schema"]
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["properties"]["verdicts"]["maxItems"] == 32
        # The rest of the 402 is the middleware's own.
        assert warm["accepts"] == first["accepts"]

    def test_the_service_down_at_the_seller_the_402_as_without_a_verdict(self, world):
        down, honest = f"{world.url}/down/report", f"{world.url}/honest/report"
        until_stapled(honest)
        for _ in range(3):
            challenge, other = challenge_of(down), challenge_of(honest)
            assert challenge["extensions"][KEY]["info"]["verdicts"] == []
            assert other["extensions"][KEY]["info"]["verdicts"] != []
            # The same shape as a stapling seller's 402: only the routes' own words differ.
            assert challenge.keys() == other.keys()
            assert challenge["extensions"][KEY].keys() == other["extensions"][KEY].keys()
            assert [a.keys() for a in challenge["accepts"]] == [a.keys() for a in other["accepts"]]

    @pytest.mark.parametrize("clients", [(sync_client, pay_sync), (async_client, pay_async)], ids=["sync", "async"])
    def test_a_guarded_agent_pays_a_stapling_seller_with_no_request(self, world, front, public_key, clients):
        make, pay = clients
        url = f"{world.url}/honest/report"
        until_stapled(url)
        before = len(world.paid("/honest/report"))
        mode = f"honest-agent-{make.__name__}"
        client, seen = agent(front, mode, public_key, make)
        assert pay(client, url) == 200
        assert [(r["state"], r["signature"]) for r in seen] == [("human-backed", "valid")]
        assert len(world.paid("/honest/report")) == before + 1
        assert Front.asked[(mode, "verdict")] + Front.asked[(mode, "verification-keys")] == 0

    def test_flask_staples_the_same_way(self, world, front, public_key):
        url = f"{world.flask_url}/report"
        [document] = until_stapled(url)
        assert document["verdict"]["resourceUrl"] == url
        client, seen = agent(front, "flask-agent", public_key)
        assert pay_sync(client, url) == 200
        assert len(world.paid("flask /report")) == 1
        assert Front.asked[("flask-agent", "verdict")] == 0

    def test_a_paid_round_trip_whose_staple_was_refreshed_in_between_settles(self, world, front, public_key):
        url = f"{world.url}/brief/report"
        [before] = until_stapled(url)

        def refreshed(context):
            # Between the 402 and the paid retry the seller's verdict is fetched anew
            # (it was kept for a second), so signed anew.
            time.sleep(1.1)
            deadline = time.monotonic() + 30
            while stapled(url) in ([before], []):
                assert time.monotonic() < deadline, "the seller's verdict was refreshed"
                time.sleep(0.05)

        client, _ = agent(front, "round-trip", public_key)
        client.on_before_payment_creation(refreshed)
        assert pay_sync(client, url) == 200
        [payment] = world.paid("/brief/report")
        echoed = payment["extensions"][KEY]["info"]["verdicts"]
        # The payment echoes the staple of its 402; the seller staples another since.
        assert echoed == [before]
        assert world.brief_staples[-1] not in ([before], [])


def tampered(document: dict) -> dict:
    """``document`` with its verdict's assurance level changed after signing."""
    return {**document, "verdict": {**document["verdict"], "assuranceLevel": "A+"}}


def stapling(documents):
    """Staples ``documents(chain, pay_to, resource_url)`` to every 402 of the hostile seller."""
    STAPLES["of"] = lambda pr: documents(pr.accepts[0].network, pr.accepts[0].pay_to, pr.resource.url)


class TestTheGuardTakesTheStapleOfTheOptionItPays:
    """A hostile seller staples what each test gives it; the agent pays with the guard."""

    @pytest.mark.parametrize("clients", [(sync_client, pay_sync), (async_client, pay_async)], ids=["sync", "async"])
    def test_a_fresh_stapled_human_backed_verdict_is_paid_with_no_request(self, world, front, public_key, clients):
        make, pay = clients
        stapling(lambda *endpoint: [signed(*endpoint)])
        mode = f"fresh-{make.__name__}"
        client, seen = agent(front, mode, public_key, make)
        before = len(world.paid("/hostile/report"))
        assert pay(client, f"{world.url}/hostile/report") == 200
        assert len(world.paid("/hostile/report")) == before + 1
        assert [(r["state"], r["signature"]) for r in seen] == [("human-backed", "valid")]
        assert Front.asked[(mode, "verdict")] + Front.asked[(mode, "verification-keys")] == 0

    def test_without_public_keys_only_the_keys_document_once_while_it_is_kept(self, world, front):
        stapling(lambda *endpoint: [signed(*endpoint)])
        verifier, seen = Verifier(f"{front}/keyless"), []
        for _ in range(2):
            client = guard(sync_client(), verifier, lambda result, requirement: seen.append(result) or True)
            assert pay_sync(client, f"{world.url}/hostile/report") == 200
        assert [(r["state"], r["signature"]) for r in seen] == [("human-backed", "valid")] * 2
        assert Front.asked[("keyless", "verification-keys")] == 1
        assert Front.asked[("keyless", "verdict")] == 0

    @pytest.mark.parametrize("clients", [(sync_client, pay_sync), (async_client, pay_async)], ids=["sync", "async"])
    def test_a_revoked_stapled_verdict_is_never_paid_and_nothing_is_signed(self, world, front, public_key, clients):
        make, pay = clients
        stapling(lambda *endpoint: [signed(*endpoint, outcome="revoked")])
        mode = f"revoked-{make.__name__}"
        url = f"{world.url}/hostile/report"
        signing = []
        client = guard(make(), Verifier(f"{front}/{mode}", [public_key], 3000, True))
        client.on_after_payment_creation(signing.append)
        before = len(world.paid("/hostile/report"))
        assert pay(client, url) == refusal(url)
        assert signing == [] and len(world.paid("/hostile/report")) == before
        assert Front.asked[(mode, "verdict")] == 0

    # /hostile/v1x is revoked at the service: a staple that does not stand in is
    # looked up live, and refused.
    @pytest.mark.parametrize("mode, documents", [
        ("tampered", lambda *e: [tampered(signed(*e))]),
        ("aged", lambda *e: [signed(*e, age=301)]),
        ("other-endpoint", lambda chain, pay_to, url: [signed(chain, pay_to, url.replace("/v1x", "/report"))]),
        ("other-key", lambda *e: [signed(*e, secret=OTHER_SECRET)]),
        ("many", lambda *e: [{}] * 32 + [signed(*e)]),
    ], ids=["tampered", "301 s old", "another endpoint's", "another key's", "more documents than the core reads"])
    def test_a_staple_that_does_not_stand_in_is_looked_up_live(self, world, front, public_key, mode, documents):
        stapling(documents)
        url = f"{world.url}/hostile/v1x"
        client, seen = agent(front, mode, public_key)
        assert pay_sync(client, url) == "x402-verdict: not paying " + url + \
            ": state revoked, outcome revoked, reason revoked (policy function)."
        assert [r["state"] for r in seen] == ["revoked"]
        assert world.paid("/hostile/v1x") == []
        assert Front.asked[(mode, "verdict")] == 1

    def test_no_keys_to_be_had_is_looked_up_live(self, world, front):
        stapling(lambda *endpoint: [signed(*endpoint)])
        client, seen = agent(front, "nokeys", None, strict=False)
        url = f"{world.url}/hostile/v1x"
        assert pay_sync(client, url) == f"x402-verdict: not paying {url}: state revoked, outcome revoked, " \
            "reason revoked (policy function)."
        assert [(r["state"], r["signature"]) for r in seen] == [("revoked", "unverifiable")]
        assert world.paid("/hostile/v1x") == []
        assert Front.asked[("nokeys", "verdict")] == 1

    def test_a_document_over_the_byte_bound_is_ignored(self, world, front, public_key):
        import requests
        from x402.schemas import PaymentAbortedError, PaymentRequired

        def padded(*endpoint):
            return [{**signed(*endpoint), "pad": "x" * (70 * 1024)}]

        stapling(padded)
        url = f"{world.url}/hostile/v1x"
        # Over HTTP, the 402's header is past the client's limit (http.client's line):
        # refused in one line, no payment, no lookup.
        client, _ = agent(front, "large", public_key)
        with pytest.raises(requests.ConnectionError, match="got more than 65536 bytes when reading header line"):
            pay_sync(client, url)
        assert Front.asked[("large", "verdict")] == 0
        # The same challenge handed to the guarded client as an object: the staple is
        # ignored, the endpoint looked up live.
        required = PaymentRequired.model_validate({
            "x402Version": 2, "resource": {"url": url, "description": "", "mimeType": "application/json"},
            "accepts": [{"scheme": "exact", "network": NETWORK, "amount": "10000", "payTo": BACKED,
                         "asset": "0x036CbD53842c5426634e7929541eC2318f3dCF7e", "maxTimeoutSeconds": 60,
                         "extra": {"name": "USDC", "version": "2"}}],
            "extensions": {KEY: {"info": {"verdicts": padded(NETWORK, BACKED, url)}}},
        })
        client = guard(sync_client(), Verifier(f"{front}/large", [public_key], 3000, True))
        with pytest.raises(PaymentAbortedError) as aborted:
            client.create_payment_payload(required)
        assert aborted.value.reason == refusal(url)
        assert Front.asked[("large", "verdict")] == 1
        assert world.paid("/hostile/v1x") == []

    def test_a_fresh_staple_while_the_service_is_down_gives_the_staples_result(self, world, public_key):
        stapling(lambda *endpoint: [signed(*endpoint)])
        seen = []
        verifier = Verifier(DOWN, [public_key], 3000, True)
        client = guard(sync_client(), verifier, lambda result, requirement: seen.append(result) or True)
        assert pay_sync(client, f"{world.url}/hostile/report") == 200
        assert [r["state"] for r in seen] == ["human-backed"]


def test_a_python_agent_pays_a_typescript_seller_with_no_request(staple_world):
    """@x402/express 2.27 with x402-verdict/seller's verdictExtension (the built agent
    package, tests/python/ts_seller.mjs), paid by x402ClientSync with the guard."""
    _, front, public_key = staple_world
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    service = serve_registry({"attestations": [attested(BACKED, f"{url}/report", match="path")]},
                             "ts-staple-registry.json")
    ts = Path(__file__).with_name("ts_seller.mjs")
    child = subprocess.Popen(["node", str(ts), str(port), service.url, public_key],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert child.stdout.readline().strip() == url
        [document] = until_stapled(f"{url}/report")
        assert document["verdict"]["resourceUrl"] == f"{url}/report"
        client, seen = agent(front, "ts-agent", public_key)
        assert pay_sync(client, f"{url}/report") == 200
        assert [r["state"] for r in seen] == ["human-backed"]
        assert Front.asked[("ts-agent", "verdict")] == 0
    finally:
        child.stdin.close()
        child.wait(30)
        service.stop()
