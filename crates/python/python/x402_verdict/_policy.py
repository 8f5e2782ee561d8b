# Written by `cargo xtask generate python-policy` (the core's policy names): do not edit.
"""The guard's policies a ``str`` may name (a callable is the agent's own)."""

from typing import Literal

PolicyName = Literal["avoid-revoked", "require-human-backed"]
