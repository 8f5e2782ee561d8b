"""The wheel's types: its package (the guard's Python and the native module's
stubs) type-checks, and an agent and a seller using the API compile under
``mypy --strict`` (tests/python/typed/agent.py, seller.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def mypy(*args):
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_package_type_checks():
    mypy("-p", "x402_verdict")


def test_an_agent_compiles_under_strict():
    mypy("--strict", str(HERE / "typed/agent.py"))


def test_a_seller_compiles_under_strict():
    mypy("--strict", str(HERE / "typed/seller.py"))
