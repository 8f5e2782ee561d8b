"""Type stubs of x402_verdict's native module (the project's Rust core)."""

from collections.abc import Awaitable, Sequence
from typing import Any, Literal, Optional, TypedDict, Union

from typing_extensions import NotRequired

__version__: str

State = Literal["human-backed", "revoked", "unknown"]

class VerdictResult(TypedDict):
    """The structured result of a lookup (the MCP tools', ``lookup --json``'s)."""

    state: State
    outcome: Literal["human_backed", "revoked", "stale", "no_signal", "no_service", "no_response"]
    freshness: Literal["fresh", "overdue", "unknown"]
    signature: Literal["valid", "invalid", "unverifiable", "not_checked"]
    assuranceLevel: NotRequired[str]
    verifiedAt: NotRequired[str]
    recheckEveryHours: NotRequired[int]
    reason: NotRequired[str]
    detail: NotRequired[str]

class Verifier:
    """Looks endpoints up against one verification service; service problems
    read ``unknown``, never raise. Bad arguments raise ``ValueError``."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        public_keys: Optional[Union[str, Sequence[str]]] = None,
        timeout_ms: int = 3000,
        strict: bool = False,
    ) -> None: ...
    def lookup_verdict(self, chain: str, pay_to: str, resource_url: str) -> VerdictResult: ...
    def endpoint_status(self, chain: str, pay_to: str, resource_url: str) -> VerdictResult: ...
    def lookup_verdict_async(
        self, chain: str, pay_to: str, resource_url: str
    ) -> Awaitable[VerdictResult]: ...
    def endpoint_status_async(
        self, chain: str, pay_to: str, resource_url: str
    ) -> Awaitable[VerdictResult]: ...
    def check_options(
        self,
        payment_required: Any,
        requirements: Sequence[Any],
        policy: str,
        fetched: Optional[str] = None,
        awaitable: bool = False,
    ) -> Any:
        """A list of PaymentCheck, or with ``awaitable`` an awaitable of it (the guard's use)."""

class PaymentCheck:
    """What the core decided for one payment option."""

    @property
    def result(self) -> VerdictResult: ...
    @property
    def pays(self) -> bool: ...
    @property
    def preference(self) -> int: ...
    @property
    def refusal(self) -> str: ...
    def answered(self, answer: object) -> PaymentCheck: ...

def policy_name(policy: object) -> str: ...
def rank(requirements: Sequence[Any], checks: Sequence[PaymentCheck]) -> list[Any]: ...
