"""The guard's shared table (crates/core/tests/vectors/guard/policy.json),
fed to the Python package's binding: what an agent's policy function's
answer means (``PaymentCheck.answered``, which the guard asks with what the
function returned or raised) and the order the options are handed to the
client in (``rank``, the guard's ``register_policy``). The core's tests and
the npm package's (tests/agent/policy.test.mjs) read the same table."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from types import SimpleNamespace
from typing import get_args

import pytest
from conftest import ROOT
from x402.schemas import AbortResult
from x402_verdict import PolicyName
from x402_verdict._native import PaymentCheck, policy_name, rank

TABLE = json.loads((ROOT / "crates/core/tests/vectors/guard/policy.json").read_text())


def answer_of(answer):
    """An answer of the table as Python writes it."""
    kind = answer["kind"]
    if kind == "true":
        return True
    if kind == "false":
        return False
    if kind == "none":
        return None
    if kind == "value":
        return answer["value"]
    if kind == "abort":
        if "reason" in answer:
            return AbortResult(reason=answer["reason"])
        # An AbortResult that holds no reason at all.
        return AbortResult.__new__(AbortResult)
    if kind == "reason-only":
        return SimpleNamespace(reason=answer["reason"])
    if kind == "abort-false":
        return SimpleNamespace(abort=False, reason=answer["reason"])
    if kind == "throw":
        return RuntimeError("the policy failed")
    raise AssertionError(f"an answer of no known kind: {kind}")


def test_every_policy_answer_means_what_the_shared_table_says():
    assert len(TABLE["answers"]) >= 10
    result = {"state": "unknown"}
    check = PaymentCheck(result, True, 1, TABLE["check"])
    for case in TABLE["answers"]:
        decided = check.answered(answer_of(case["answer"]))
        refusal = TABLE["check"] if case["refusal"] is None else case["refusal"]
        assert (decided.pays, decided.refusal) == (case["pays"], refusal), case["name"]
        assert (decided.result, decided.preference) == (result, 1), case["name"]


def test_every_option_order_is_the_shared_tables():
    for case in TABLE["rank"]:
        requirements = [f"option {i}" for i in range(len(case["options"]))]
        checks = [PaymentCheck(None, pays, preference, "") for preference, pays in case["options"]]
        assert rank(requirements, checks) == [requirements[i] for i in case["order"]], case["name"]


def test_the_policy_names_are_the_cores():
    names = get_args(PolicyName)
    assert names and all(policy_name(name) == name for name in names)
    # The core's line for a bad name lists every name a str may take.
    with pytest.raises(ValueError) as refused:
        policy_name("pay-anything")
    assert tuple(re.findall(r'"([a-z-]+)"', str(refused.value))) == names


def test_a_policy_that_is_no_name_does_not_type_check(tmp_path):
    def checked(policy):
        agent = tmp_path / "agent.py"
        agent.write_text(
            "from x402 import x402Client\n"
            "from x402_verdict import Verifier, guard\n"
            f"guard(x402Client(), Verifier('https://verify.example'), policy={policy!r})\n"
        )
        return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", str(agent)],
                              capture_output=True, text=True, timeout=600)

    assert checked("require-human-backed").returncode == 0
    refused = checked("pay-anything")
    assert refused.returncode == 1, refused.stdout
    assert "pay-anything" in refused.stdout and "require-human-backed" in refused.stdout, refused.stdout
