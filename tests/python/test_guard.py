"""``guard`` on the official Python x402 clients, unmodified: ``x402ClientSync``
paying through ``requests`` and ``x402Client`` through ``httpx``, with the
exact EVM scheme and a local test key, against the official FastAPI paid
server; the server counts the payments it receives."""

from __future__ import annotations

import asyncio
import time

import pytest
from conftest import AGENT_KEY, BACKED, DOWN, ELSEWHERE, NETWORK

from x402_verdict import Verifier, guard

TIMEOUT_MS = 1000


def sync_client():
    from eth_account import Account
    from x402 import x402ClientSync
    from x402.mechanisms.evm.exact.client import ExactEvmScheme
    from x402.mechanisms.evm.signers import EthAccountSigner

    return x402ClientSync().register(NETWORK, ExactEvmScheme(signer=EthAccountSigner(Account.from_key(AGENT_KEY))))


def async_client():
    from eth_account import Account
    from x402 import x402Client
    from x402.mechanisms.evm.exact.client import ExactEvmScheme
    from x402.mechanisms.evm.signers import EthAccountSigner

    return x402Client().register(NETWORK, ExactEvmScheme(signer=EthAccountSigner(Account.from_key(AGENT_KEY))))


def pay_sync(client, url):
    """GETs ``url`` through ``requests`` paying with ``client`` (an x402ClientSync or
    x402HTTPClientSync): the status, or the abort's reason."""
    from x402.http.clients.requests import PaymentError, x402_requests
    from x402.schemas import PaymentAbortedError

    try:
        return x402_requests(client).get(url, timeout=30).status_code
    except PaymentError as error:
        assert isinstance(error.__cause__, PaymentAbortedError), repr(error)
        return error.__cause__.reason


def pay_async(client, url):
    """GETs ``url`` through ``httpx`` paying with ``client`` (an x402Client or
    x402HTTPClient): the status, or the abort's reason."""
    from x402.http.clients.httpx import PaymentError, x402HttpxClient
    from x402.schemas import PaymentAbortedError

    async def main():
        async with x402HttpxClient(client, timeout=30) as http:
            return (await http.get(url)).status_code

    try:
        return asyncio.run(main())
    except PaymentError as error:
        assert isinstance(error.__cause__, PaymentAbortedError), repr(error)
        return error.__cause__.reason


CLIENTS = [pytest.param((sync_client, pay_sync), id="sync"), pytest.param((async_client, pay_async), id="async")]


def refusal(url, state, outcome, reason, policy):
    return f"x402-verdict: not paying {url}: state {state}, outcome {outcome}, reason {reason} (policy {policy})."


@pytest.fixture
def keyed(service):
    return Verifier(service.url, [service.public_key], TIMEOUT_MS, True)


@pytest.mark.parametrize("clients", CLIENTS)
def test_revoked_is_not_paid(paid, keyed, clients):
    make, pay = clients
    url = f"{paid.url}/revoked"
    before = len(paid.paid("/revoked"))
    assert pay(guard(make(), keyed), url) == refusal(url, "revoked", "revoked", "revoked", "avoid-revoked")
    assert len(paid.paid("/revoked")) == before


@pytest.mark.parametrize("clients", CLIENTS)
def test_human_backed_is_paid_once(paid, keyed, clients):
    make, pay = clients
    before = len(paid.paid("/backed"))
    assert pay(guard(make(), keyed, "require-human-backed"), f"{paid.url}/backed") == 200
    assert len(paid.paid("/backed")) == before + 1


@pytest.mark.parametrize("clients", CLIENTS)
def test_unknown_under_each_policy(paid, keyed, clients):
    make, pay = clients
    url = f"{paid.url}/unlisted"
    count = lambda: len(paid.paid("/unlisted"))  # noqa: E731
    before = count()
    assert pay(guard(make(), keyed), url) == 200
    assert count() == before + 1
    assert pay(guard(make(), keyed, "require-human-backed"), url) == refusal(
        url, "unknown", "no_signal", "not_listed", "require-human-backed")
    assert count() == before + 1
    seen = []

    def pays_unknown(result, requirement):
        seen.append((result["state"], requirement.pay_to))
        return result["state"] == "unknown"

    assert pay(guard(make(), keyed, pays_unknown), url) == 200
    assert seen == [("unknown", "0x4444444444444444444444444444444444444444")]
    assert count() == before + 2
    assert pay(guard(make(), keyed, lambda result, requirement: False), url) == refusal(
        url, "unknown", "no_signal", "not_listed", "function")

    def raises(result, requirement):
        raise RuntimeError("a policy that fails")

    assert pay(guard(make(), keyed, raises), url) == refusal(url, "unknown", "no_signal", "not_listed", "function")
    from x402.schemas import AbortResult

    assert pay(guard(make(), keyed, lambda result, requirement: AbortResult("my own reason")), url) == "my own reason"
    assert count() == before + 2


def test_an_async_policy_with_the_async_client(paid, keyed):
    async def pays_unknown(result, requirement):
        await asyncio.sleep(0)
        return result["state"] == "unknown"

    before = len(paid.paid("/unlisted"))
    assert pay_async(guard(async_client(), keyed, pays_unknown), f"{paid.url}/unlisted") == 200
    assert len(paid.paid("/unlisted")) == before + 1


@pytest.mark.parametrize("clients", CLIENTS)
def test_tampered_is_never_human_backed(paid, keyed, clients):
    make, pay = clients
    url = f"{paid.url}/tampered"
    assert pay(guard(make(), keyed, "require-human-backed"), url) == refusal(
        url, "unknown", "human_backed", "signature_invalid", "require-human-backed")
    assert paid.paid("/tampered") == []


@pytest.mark.parametrize("clients", CLIENTS)
def test_the_acceptable_option_is_preferred(paid, keyed, clients):
    make, pay = clients
    before = paid.paid_to("/pair")
    assert pay(guard(make(), keyed), f"{paid.url}/pair") == 200
    assert paid.paid_to("/pair") == before + [BACKED]


@pytest.mark.parametrize("clients", CLIENTS)
@pytest.mark.parametrize("where, reason", [("down", "network_error"), ("slow", "timeout"), ("huge", "too_large"),
                                           ("garbage", "malformed"), ("redirect", "redirected")])
def test_a_hostile_service_reads_unknown_within_the_timeout(paid, hostile, clients, where, reason):
    make, pay = clients
    base_url = DOWN if where == "down" else f"{hostile}/{where}"
    verifier = Verifier(base_url, timeout_ms=TIMEOUT_MS)
    url = f"{paid.url}/backed"
    start = time.monotonic()
    assert pay(guard(make(), verifier, "require-human-backed"), url) == refusal(
        url, "unknown", "no_response", reason, "require-human-backed")
    assert time.monotonic() - start < TIMEOUT_MS / 1000 + 3
    before = len(paid.paid("/backed"))
    assert pay(guard(make(), verifier), url) == 200
    assert len(paid.paid("/backed")) == before + 1


def test_a_policy_that_is_none_is_refused_at_once(keyed):
    line = 'x402-verdict: unknown policy (expected "avoid-revoked", "require-human-backed" or a function)'
    # "function" too: only a callable makes the agent's function decide.
    for policy in ["pay-anything", 3, "function"]:
        with pytest.raises(ValueError) as raised:
            guard(sync_client(), keyed, policy)
        assert str(raised.value) == line


def http_client_of(client):
    from x402 import x402Client
    from x402.http import x402HTTPClient, x402HTTPClientSync

    return x402HTTPClient(client) if isinstance(client, x402Client) else x402HTTPClientSync(client)


@pytest.mark.parametrize("clients", CLIENTS)
def test_a_resource_declared_on_another_origin(paid, keyed, clients):
    """With the HTTP client, require-human-backed refuses a resource declared elsewhere;
    the default, and the guard without it, decide on the declared resource's verdict."""
    make, pay = clients
    url = f"{paid.url}/elsewhere"
    before = len(paid.paid("/elsewhere"))
    client = make()
    http = http_client_of(client)
    guard(client, keyed, "require-human-backed", http_client=http)
    assert pay(http, url) == (
        f"x402-verdict: not paying {ELSEWHERE}: it is declared on another origin than the URL fetched, "
        f"{url} (policy require-human-backed)."
    )
    assert len(paid.paid("/elsewhere")) == before
    assert pay(guard(make(), keyed, "require-human-backed"), url) == 200
    client = make()
    http = http_client_of(client)
    guard(client, keyed, http_client=http)
    assert pay(http, url) == 200
    assert len(paid.paid("/elsewhere")) == before + 2


@pytest.mark.parametrize("pay_to, path, paid_on", [("0x1111111111111111111111111111111111111111", "revoked", False),
                                                   (BACKED, "backed", True)])
def test_x402_v1_options_name_their_resource(paid, keyed, pay_to, path, paid_on):
    """An x402 v1 challenge declares the resource on each option (``base-sepolia``
    is eip155:84532): the official client's v1 path, offline."""
    from eth_account import Account
    from x402 import x402ClientSync
    from x402.mechanisms.evm.exact.v1.client import ExactEvmSchemeV1
    from x402.mechanisms.evm.signers import EthAccountSigner
    from x402.schemas import PaymentAbortedError
    from x402.schemas.v1 import PaymentRequiredV1, PaymentRequirementsV1

    signer = EthAccountSigner(Account.from_key(AGENT_KEY))
    client = guard(x402ClientSync().register_v1("base-sepolia", ExactEvmSchemeV1(signer)), keyed, "require-human-backed")
    url = f"{paid.url}/{path}"
    required = PaymentRequiredV1(accepts=[PaymentRequirementsV1(
        scheme="exact", network="base-sepolia", max_amount_required="10000", resource=url, pay_to=pay_to,
        max_timeout_seconds=60, asset="0x036CbD53842c5426634e7929541eC2318f3dCF7e", extra={"name": "USDC", "version": "2"})])
    if paid_on:
        assert client.create_payment_payload(required).x402_version == 1
    else:
        with pytest.raises(PaymentAbortedError) as aborted:
            client.create_payment_payload(required)
        assert aborted.value.reason == refusal(url, "revoked", "revoked", "revoked", "require-human-backed")
