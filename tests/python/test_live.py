"""``x402-verdict scan --live`` against the official Python x402 2.25 server
(its FastAPI middleware, unmodified): a listing of its routes as a
facilitator indexed them, one since switched to another ``payTo``, read
live and compared; the live options looked up at the reference service."""

from __future__ import annotations

import base64
import json
import subprocess
import urllib.request
from urllib.error import HTTPError

from conftest import BACKED, BIN, REVOKED, WORK


def indexed(url: str) -> dict:
    """What ``url``'s 402 asks, as a discovery item (x402 v2)."""
    try:
        urllib.request.urlopen(url)
    except HTTPError as answer:
        assert answer.code == 402, url
        challenge = json.loads(base64.b64decode(answer.headers["payment-required"]))
        return {"resource": url, "type": "http", "x402Version": 2, "accepts": challenge["accepts"]}
    raise AssertionError(f"{url} asked for no payment")


def test_the_official_python_server_read_live(paid, service):
    paths = ("/backed", "/revoked", "/pair")
    # Other tests of the session pay these routes: none of the scan's reads pays.
    payments = [len(paid.paid(path)) for path in paths]
    items = [indexed(f"{paid.url}{path}") for path in paths]
    # /revoked was indexed while it asked the attested address.
    items[1]["accepts"][0]["payTo"] = BACKED
    # /pair listed with one of its two addresses.
    items[2]["accepts"] = [a for a in items[2]["accepts"] if a["payTo"] == BACKED]
    # A route the server no longer has.
    items.append({**items[0], "resource": f"{paid.url}/retired"})
    WORK.mkdir(parents=True, exist_ok=True)
    saved = WORK / "live-listing.json"
    saved.write_text(json.dumps({"x402Version": 2, "items": items}))
    scan = subprocess.run(
        [BIN, "scan", "--from-file", str(saved), "--live", "--json", "--base-url", service.url,
         "--public-key", service.public_key],
        capture_output=True, text=True, timeout=60,
    )
    assert scan.returncode == 3, scan.stderr
    assert scan.stderr == "x402-verdict: 2 of 4 resources changed since they were listed\n"
    rows = [json.loads(line) for line in scan.stdout.splitlines()]

    def of(path):
        return [(r["live"], r["payTo"], r.get("result", {}).get("state")) for r in rows if r["resource"] == f"{paid.url}{path}"]

    assert of("/backed") == [("live", BACKED, "human-backed")]
    # The bait-and-switch: the verdict is the live address's (revoked), never the listed one's.
    assert of("/revoked") == [("changed", REVOKED, "revoked")]
    assert of("/pair") == [("live", BACKED, "human-backed"), ("changed", REVOKED, "revoked")]
    assert of("/retired") == [("not-402", BACKED, None)]
    switched = next(r for r in rows if r["resource"] == f"{paid.url}/revoked")
    assert switched["note"] == f"changed: another payTo (listed {BACKED}, now {REVOKED})"
    assert [len(paid.paid(path)) for path in paths] == payments
