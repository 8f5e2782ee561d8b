"""Verdicts stapled to the 402 with their transparency proofs, against real
parts on loopback: the reference service keeping a log cosigned by one
``x402-verdict witness`` (``serve_registry(…, log=True)``), and the same
service without a log; a seller on the official x402 2.25 FastAPI middleware
with ``verdict_extension`` stapling each service's verdict, and the fake
facilitator; paid by the official clients (``requests`` and ``httpx``) with
the guard under ``transparency="required"`` (require-human-backed, strict).
The buyer's verifier asks a loopback counter that answers 503 to every
request: none is expected, since the proof comes with the stapled verdict."""

from __future__ import annotations

import pytest
from conftest import BACKED, NETWORK, Facilitator, Quiet, attested, serve_asgi, serve_registry, serve_thread
from test_guard import async_client, pay_async, pay_sync, sync_client
from test_staple import route, until_stapled

from x402_verdict import Verifier, guard, verdict_extension

CLIENTS = pytest.mark.parametrize("clients", [(sync_client, pay_sync), (async_client, pay_async)],
                                  ids=["sync", "async"])


class Unasked(Quiet):
    """The buyer's verification service: it counts each request (``asked``) and answers 503."""

    asked: list = []

    def do_GET(self):
        Unasked.asked.append(self.path)
        self.json(503, {})


@pytest.fixture(scope="module")
def sellers():
    """The seller's server (``/logged/report`` stapling the logged service's verdict,
    ``/plain/report`` the plain one's), the payments each path received, and the services."""
    from fastapi import FastAPI
    from x402 import x402ResourceServer
    from x402.http import FacilitatorConfig, HTTPFacilitatorClient
    from x402.http.middleware.fastapi import payment_middleware
    from x402.mechanisms.evm.exact.server import ExactEvmScheme

    facilitator, facilitator_url = serve_thread(Facilitator)
    unasked, unasked_url = serve_thread(Unasked)
    # Each seller's middleware is made once its service runs, whose registry attests the seller's URL.
    middlewares, payments, app = {}, [], FastAPI()
    for name in ("logged", "plain"):
        async def x402(request, call_next, name=name):
            return await middlewares[name](request, call_next)

        app.middleware("http")(x402)
        app.get(f"/{name}/report")(lambda: {"paid": True})

    @app.middleware("http")
    async def record(request, call_next):
        if request.headers.get("payment-signature"):
            payments.append(request.url.path)
        return await call_next(request)

    url, stop = serve_asgi(app)
    services = {name: serve_registry({"attestations": [attested(BACKED, f"{url}/{name}", match="prefix")]},
                                     f"staple-log-{name}.json", log=name == "logged") for name in ("logged", "plain")}
    for name, service in services.items():
        server = x402ResourceServer(HTTPFacilitatorClient(FacilitatorConfig(url=facilitator_url)))
        server.register(NETWORK, ExactEvmScheme())
        server.register_extension(verdict_extension(Verifier(service.url, [service.public_key], 3000, True)))
        routes = {f"GET /{name}/report": route([BACKED], f"Stapled by the {name} service")}
        middlewares[name] = payment_middleware(routes, server)
    yield url, payments, services, unasked_url
    for service in services.values():
        service.stop()
    stop()
    unasked.shutdown()
    facilitator.shutdown()


def buyer(sellers, make, transparency: str):
    """A client of ``make`` guarded (require-human-backed) by a strict verifier of the
    buyer's service under ``transparency``, trusting the logged service's log and witness."""
    _, _, services, unasked_url = sellers
    logged = services["logged"]
    verifier = Verifier(unasked_url, [logged.public_key], 3000, True, log_key=logged.log_key,
                        witness_keys=[logged.witness_key], witness_quorum=1, transparency=transparency)
    return guard(make(), verifier, "require-human-backed")


def test_the_logged_services_verdict_is_stapled_with_its_proof(sellers):
    url = sellers[0]
    [logged] = until_stapled(f"{url}/logged/report")
    assert logged["logProof"].startswith("c2sp.org/tlog-proof@v1\n")
    [plain] = until_stapled(f"{url}/plain/report")
    assert plain["verdict"]["outcome"] == "human_backed"
    assert "logProof" not in plain


def paying(sellers, name: str, transparency: str, clients=(sync_client, pay_sync)):
    """Pays ``/<name>/report`` once its 402 staples, with ``buyer``: what ``pay`` returned
    (the status, or the refusal), the paths paid and the buyer's requests to its service."""
    make, pay = clients
    url, payments, _, _ = sellers
    until_stapled(f"{url}/{name}/report")
    before, asked = len(payments), len(Unasked.asked)
    outcome = pay(buyer(sellers, make, transparency), f"{url}/{name}/report")
    return outcome, payments[before:], Unasked.asked[asked:]


@CLIENTS
def test_the_guard_under_required_pays_on_the_stapled_proven_verdict_with_no_request(sellers, clients):
    assert paying(sellers, "logged", "required", clients) == (200, ["/logged/report"], [])


@CLIENTS
def test_the_guard_under_required_refuses_a_verdict_of_a_service_without_a_log(sellers, clients):
    refusal = (f"x402-verdict: not paying {sellers[0]}/plain/report: state unknown, outcome human_backed, "
               "reason no_transparency_proof (policy require-human-backed).")
    # The staple stood in for the lookup: refused on it, nothing paid, no request.
    assert paying(sellers, "plain", "required", clients) == (refusal, [], [])


def test_the_same_staple_under_off_is_paid_as_without_a_log(sellers):
    assert paying(sellers, "plain", "off") == (200, ["/plain/report"], [])
