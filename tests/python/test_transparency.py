"""``Verifier(log_key=…, witness_keys=[…], witness_quorum=…, transparency=…)``:
verdicts signed now with their transparency proofs (``cargo xtask
log-fixture``), served from a loopback server, one base URL per case. Under
``required`` a proven verdict reads human-backed; one signed outside the log
(its signature valid), a tampered proof, a proof for another entry, a
checkpoint of another log and too few cosignatures each read unknown with
the rule's reason; under ``off`` every result is what it is without the
arguments."""

from __future__ import annotations

import json
import subprocess

import pytest
from conftest import BACKED, ROOT, Quiet, serve_thread

from x402_verdict import Verifier

RESOURCE = "https://api.example.com/logged"
CHAIN = "base"


@pytest.fixture(scope="module")
def logged():
    """The fixture's keys and a loopback service of its documents, by case."""
    out = subprocess.run(
        ["cargo", "xtask", "log-fixture", CHAIN, BACKED, RESOURCE],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    fixture = json.loads(out)
    documents = fixture["documents"]

    class Documents(Quiet):
        def do_GET(self):
            case = self.path.split("/")[1]
            if case in documents:
                return self.json(200, documents[case])
            return self.json(404, {})

    server, url = serve_thread(Documents)
    yield fixture, url
    server.shutdown()


def verifier(fixture: dict, base: str, **log) -> Verifier:
    return Verifier(base_url=base, public_keys=fixture["publicKey"], **log)


def log_arguments(fixture: dict, policy: str, quorum: int) -> dict:
    return {"log_key": fixture["logKey"], "witness_keys": fixture["witnessKeys"],
            "witness_quorum": quorum, "transparency": policy}


CASES = [
    ("proven", 1, None, None),
    ("signedOutsideTheLog", 1, "no_transparency_proof", "no transparency proof"),
    ("tampered", 1, "bad_inclusion_proof", "bad inclusion proof"),
    ("anotherEntry", 1, "log_entry_mismatch", "log entry does not match the verdict"),
    ("anotherLog", 1, "checkpoint_not_signed_by_log", "checkpoint not signed by the log"),
    ("proven", 2, "too_few_cosignatures", "fewer witness cosignatures than the quorum"),
]


@pytest.mark.parametrize(("case", "quorum", "reason", "detail"), CASES)
def test_each_case_reads_as_the_rule_says(logged, case, quorum, reason, detail):
    fixture, url = logged
    base = f"{url}/{case}"
    read = verifier(fixture, base, **log_arguments(fixture, "required", quorum)).lookup_verdict(CHAIN, BACKED, RESOURCE)
    assert read["signature"] == "valid", read
    if reason is None:
        assert read["state"] == "human-backed", read
    else:
        assert (read["state"], read["reason"], read["detail"]) == ("unknown", reason, detail), read
    plain = verifier(fixture, base).lookup_verdict(CHAIN, BACKED, RESOURCE)
    off = verifier(fixture, base, **log_arguments(fixture, "off", quorum)).lookup_verdict(CHAIN, BACKED, RESOURCE)
    assert off == plain
    assert plain["state"] == "human-backed"


@pytest.mark.parametrize(("arguments", "message"), [
    ({"transparency": "always", "log_key": "k"}, "transparency must be off, if-present or required"),
    ({"log_key": "nope"}, "log_key is not a note verifier key <origin>+<keyid>+<base64> whose keyid matches"),
    ({"transparency": "required"}, "transparency needs the log's key"),
    ({"log_key": None, "witness_quorum": True}, "witness_quorum must be a whole number"),
    ({"log_key": 5}, "log_key must be text"),
])
def test_bad_arguments_raise_one_line(logged, arguments, message):
    fixture, url = logged
    with pytest.raises(ValueError) as raised:
        Verifier(base_url=url, **arguments)
    assert str(raised.value) == message


def test_witness_keys_name_the_quorum_they_allow(logged):
    fixture, url = logged
    with pytest.raises(ValueError, match="^witness_quorum is more than the witnesses given$"):
        Verifier(base_url=url, log_key=fixture["logKey"], witness_keys=fixture["witnessKeys"][:1], witness_quorum=2)
