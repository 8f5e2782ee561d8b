"""Type stubs of x402_verdict's native module (the project's Rust core)."""

from collections.abc import Awaitable, Sequence
from typing import Any, Optional, TypedDict, Union

from typing_extensions import NotRequired

from ._vocabulary import Freshness, Outcome, SignatureStatus, State, TransparencyPolicy

__version__: str

class VerdictResult(TypedDict):
    """The structured result of a lookup (the MCP tools', ``lookup --json``'s)."""

    state: State
    outcome: Outcome
    freshness: Freshness
    signature: SignatureStatus
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
        root_keys: Optional[Union[str, Sequence[str]]] = None,
        log_key: Optional[str] = None,
        witness_keys: Optional[Union[str, Sequence[str]]] = None,
        witness_quorum: Optional[int] = None,
        transparency: TransparencyPolicy = "off",
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

    def __init__(self, result: Any, pays: bool, preference: int, refusal: str) -> None: ...
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

class VerdictExtension:
    """The x402 resource server extension ``x402-verdict``: each 402 of a route
    declaring it carries the verdicts its verifier keeps of the 402's options."""

    @property
    def key(self) -> str: ...
    @property
    def dynamic_info_fields(self) -> list[str]: ...
    @property
    def hooks(self) -> None: ...
    @property
    def transport_hooks(self) -> None: ...
    def enrich_declaration(self, declaration: Any, transport_context: Any) -> Any: ...
    def enrich_payment_required_response(self, declaration: Any, context: Any) -> dict[str, Any]: ...
    def enrich_settlement_response(self, declaration: Any, context: Any) -> None: ...

def verdict_extension(verifier: Verifier) -> VerdictExtension:
    """The extension stapling the verdicts ``verifier`` keeps to each 402 of the
    routes declaring it, for ``x402ResourceServer.register_extension``."""
