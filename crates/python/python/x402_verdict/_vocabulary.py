# Written by `cargo xtask generate` (the core's spellings): do not edit.
"""The core's vocabularies, as the ``Literal`` types the package is typed with."""

from typing import Literal

State = Literal["human-backed", "revoked", "unknown"]
"""What a badge rendered."""

Outcome = Literal["human_backed", "revoked", "stale", "no_signal", "no_service", "no_response"]
"""What the lookup concluded (protocol section 5)."""

Freshness = Literal["fresh", "overdue", "unknown"]
"""Whether the last re-check is within its promised cadence."""

SignatureStatus = Literal["valid", "invalid", "unverifiable", "not_checked"]
"""What the signature check found."""

PolicyName = Literal["avoid-revoked", "require-human-backed"]
"""The guard's policies a ``str`` may name (a callable is the agent's own)."""

TransparencyPolicy = Literal["off", "if-present", "required"]
"""How a lookup takes the transparency proofs verdicts carry."""
