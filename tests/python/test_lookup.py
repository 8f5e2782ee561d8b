"""``Verifier``'s lookups: the same answers as ``x402-verdict lookup --json``,
unknown (never an exception) for a hostile or absent service within the
timeout, the GIL released, the event loop never blocked, and bad arguments
refused with one line in the core's words."""

from __future__ import annotations

import asyncio
import json
import subprocess
import threading
import time

import pytest
from conftest import BACKED, BIN, DOWN, NETWORK, REVOKED, TAMPERED, UNLISTED, Hostile

from x402_verdict import Verifier

TIMEOUT_MS = 1000
# A lookup bounded by TIMEOUT_MS ends well within this on a loaded machine.
WITHIN = TIMEOUT_MS / 1000 + 2


def run(lookup, *args):
    """``await lookup(*args)`` in an event loop of its own."""

    async def main():
        return await lookup(*args)

    return asyncio.run(main())


def cli(base_url, chain, pay_to, resource_url, public_key=None, strict=False):
    """``x402-verdict lookup --json``'s answer."""
    args = [BIN, "lookup", "--base-url", base_url, "--chain", chain, "--pay-to", pay_to,
            "--resource-url", resource_url, "--timeout-ms", str(TIMEOUT_MS), "--json"]
    args += ["--public-key", public_key] if public_key else []
    args += ["--strict"] if strict else []
    return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def table(paid, service, hostile):
    """Every endpoint of the registry, keyed and strict or not, and each hostile service."""
    cases = []
    for path, pay_to in [("backed", BACKED), ("revoked", REVOKED), ("unlisted", UNLISTED),
                         ("tampered", TAMPERED), ("pair", REVOKED), ("pair", BACKED)]:
        endpoint = (NETWORK, pay_to, f"{paid.url}/{path}")
        cases.append((f"{path} {pay_to[:6]} keyed strict", service.url, endpoint, service.public_key, True))
        cases.append((f"{path} {pay_to[:6]} no key", service.url, endpoint, None, False))
    endpoint = (NETWORK, BACKED, f"{paid.url}/backed")
    for name, base_url in [("down", DOWN), ("slow", f"{hostile}/slow"), ("huge", f"{hostile}/huge"),
                           ("late", f"{hostile}/late"), ("garbage", f"{hostile}/garbage"),
                           ("redirect", f"{hostile}/redirect")]:
        cases.append((name, base_url, endpoint, service.public_key, False))
    return cases


def test_answers_as_the_command(paid, service, hostile):
    states = set()
    for name, base_url, endpoint, key, strict in table(paid, service, hostile):
        verifier = Verifier(base_url, [key] if key else None, TIMEOUT_MS, strict)
        got = verifier.lookup_verdict(*endpoint)
        assert got == cli(base_url, *endpoint, key, strict), name
        assert verifier.endpoint_status(*endpoint) == got, name
        assert run(verifier.lookup_verdict_async, *endpoint) == got, name
        assert run(verifier.endpoint_status_async, *endpoint) == got, name
        states.add(f"{got['state']} {got.get('reason', '')}".strip())
    for state in ["human-backed", "revoked revoked", "unknown not_listed", "unknown signature_invalid",
                  "unknown timeout", "unknown too_large", "unknown network_error", "unknown malformed",
                  "unknown redirected"]:
        assert state in states, sorted(states)


def test_the_structured_result_of_the_mcp_tools(paid, service):
    got = Verifier(service.url, [service.public_key], strict=True).lookup_verdict(NETWORK, BACKED, f"{paid.url}/backed")
    assert list(got)[:4] == ["state", "outcome", "freshness", "signature"]
    assert got["state"] == "human-backed" and got["signature"] == "valid" and got["assuranceLevel"] == "G"
    assert got["recheckEveryHours"] == 24 and got["verifiedAt"].endswith("Z")


def test_tampered_is_never_human_backed(paid, service):
    for keys, strict in [([service.public_key], True), ([service.public_key], False), (None, True)]:
        got = Verifier(service.url, keys, strict=strict).lookup_verdict(NETWORK, TAMPERED, f"{paid.url}/tampered")
        assert got["state"] != "human-backed", (keys, strict, got)


def test_no_service_reads_unknown():
    assert Verifier().lookup_verdict(NETWORK, BACKED, "https://api.example/data") == {
        "state": "unknown", "outcome": "no_service", "freshness": "unknown", "signature": "not_checked",
        "reason": "no_base_url",
    }


@pytest.mark.parametrize("where, reason", [("down", "network_error"), ("slow", "timeout"), ("huge", "too_large")])
def test_a_hostile_service_reads_unknown_within_the_timeout(hostile, where, reason):
    base_url = DOWN if where == "down" else f"{hostile}/{where}"
    verifier = Verifier(base_url, timeout_ms=TIMEOUT_MS)
    for lookup in [verifier.lookup_verdict, lambda *a: run(verifier.lookup_verdict_async, *a)]:
        start = time.monotonic()
        got = lookup(NETWORK, BACKED, "https://api.example/data")
        assert time.monotonic() - start < WITHIN
        assert (got["state"], got["reason"]) == ("unknown", reason)


def test_lookups_release_the_gil(hostile):
    """Two threads of lookups of a service 300 ms away take about the time of one."""
    verifier = Verifier(f"{hostile}/late", timeout_ms=5000)

    def three(thread):
        for i in range(3):
            endpoint = (NETWORK, BACKED, f"https://api.example/{thread}/{i}")
            assert verifier.lookup_verdict(*endpoint)["reason"] == "not_listed"

    start = time.monotonic()
    three("alone")
    one = time.monotonic() - start
    threads = [threading.Thread(target=three, args=(name,)) for name in ["a", "b"]]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    two = time.monotonic() - start
    assert one >= 0.9
    assert two < one * 1.5, f"one thread {one:.2f} s, two threads {two:.2f} s"


def test_async_lookups_never_block_the_event_loop(hostile):
    verifier = Verifier(f"{hostile}/late", timeout_ms=5000)

    async def main():
        ticks = 0

        async def tick():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        start = time.monotonic()
        results = await asyncio.gather(
            *(verifier.lookup_verdict_async(NETWORK, BACKED, f"https://api.example/{i}") for i in range(5)))
        elapsed = time.monotonic() - start
        ticker.cancel()
        return results, elapsed, ticks

    results, elapsed, ticks = asyncio.run(main())
    assert all(r["reason"] == "not_listed" for r in results)
    assert elapsed < 1.2, f"five lookups at once took {elapsed:.2f} s"
    assert ticks >= 5, f"the loop ran {ticks} times in {elapsed:.2f} s"


@pytest.mark.parametrize("args, line", [
    ((None, BACKED, "https://a.example/"), "chain is missing"),
    ((NETWORK, "", "https://a.example/"), "pay_to is empty"),
    ((NETWORK, BACKED, 5), "resource_url must be a string"),
    ((NETWORK, BACKED, "https://a.example/" + "x" * 600), "resource_url is longer than 512 bytes"),
    ((None, 1, None), "chain is missing; pay_to must be a string; resource_url is missing"),
])
def test_bad_arguments_raise_one_line(args, line):
    verifier = Verifier()
    for lookup in [verifier.lookup_verdict, verifier.endpoint_status,
                   verifier.lookup_verdict_async, verifier.endpoint_status_async]:
        with pytest.raises(ValueError) as raised:
            lookup(*args)
        assert str(raised.value) == line


@pytest.mark.parametrize("kwargs, line", [
    ({"base_url": "ftp://x"}, "base_url is not an absolute http:// or https:// URL"),
    ({"base_url": 1}, "base_url must be a string"),
    ({"public_keys": ["not a key"]}, "public_keys: the public key is not base64"),
    ({"public_keys": []}, "public_keys: no public key given"),
    ({"timeout_ms": 0}, "timeout_ms must be a whole number of milliseconds from 1 to 60000"),
    ({"timeout_ms": 2.5}, "timeout_ms must be a whole number of milliseconds from 1 to 60000"),
    ({"strict": "yes"}, "strict must be true or false"),
])
def test_bad_settings_raise_one_line(kwargs, line):
    with pytest.raises(ValueError) as raised:
        Verifier(**kwargs)
    assert str(raised.value) == line


def test_answers_are_kept_as_cache_control_allows(hostile):
    """``/kept`` allows a minute: each endpoint is asked once per verifier; ``/late``
    sends no Cache-Control: asked every time."""
    verifier = Verifier(f"{hostile}/kept")
    before = Hostile.asked["kept"]
    for _ in range(3):
        assert verifier.lookup_verdict(NETWORK, BACKED, "https://a.example/")["reason"] == "not_listed"
        assert run(verifier.lookup_verdict_async, NETWORK, BACKED, "https://a.example/")["reason"] == "not_listed"
    assert Hostile.asked["kept"] == before + 1
    verifier.lookup_verdict(NETWORK, BACKED, "https://b.example/")
    Verifier(f"{hostile}/kept").lookup_verdict(NETWORK, BACKED, "https://a.example/")
    assert Hostile.asked["kept"] == before + 3
    late = Verifier(f"{hostile}/late")
    before = Hostile.asked["late"]
    for _ in range(2):
        late.lookup_verdict(NETWORK, BACKED, "https://a.example/")
    assert Hostile.asked["late"] == before + 2


def test_lookups_of_one_endpoint_at_once_share_one_request(hostile):
    verifier = Verifier(f"{hostile}/later", timeout_ms=5000)
    endpoint = (NETWORK, BACKED, "https://a.example/shared")

    async def main():
        return await asyncio.gather(*(verifier.lookup_verdict_async(*endpoint) for _ in range(4)))

    before = Hostile.asked["later"]
    threads = [threading.Thread(target=verifier.lookup_verdict, args=endpoint) for _ in range(2)]
    for thread in threads:
        thread.start()
    assert all(r["reason"] == "not_listed" for r in asyncio.run(main()))
    for thread in threads:
        thread.join()
    assert Hostile.asked["later"] == before + 1
    verifier.lookup_verdict(*endpoint)
    assert Hostile.asked["later"] == before + 2, "an answer that may not be kept is asked again"


def test_a_process_that_looked_up_exits_cleanly(hostile):
    """Sync and async lookups, then the interpreter exits at once: no thread of
    the package touches it while it finalizes (five processes)."""
    import sys

    code = f"""
import asyncio
from x402_verdict import Verifier
verifier = Verifier({f"{hostile}/late"!r}, timeout_ms=5000)
endpoint = ({NETWORK!r}, {BACKED!r}, "https://a.example/")
assert verifier.lookup_verdict(*endpoint)["reason"] == "not_listed"
async def main():
    return await asyncio.gather(*(verifier.endpoint_status_async(*endpoint) for _ in range(8)))
assert all(r["reason"] == "not_listed" for r in asyncio.run(main()))
"""
    for _ in range(5):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stderr) == (0, "")
