"""x402 verification verdicts for Python agents and sellers.

``Verifier`` looks endpoints up; ``guard`` hooks the official x402 client
(``x402Client`` or ``x402ClientSync``) so that it pays only what the policy
allows; ``verdict_extension`` staples a seller's verdicts to its 402s, for
the official server (``x402ResourceServer.register_extension``), and
``staple_tool`` to the 402s of a paid MCP tool (``x402.mcp``'s
``create_payment_wrapper``, which answers without the server's extensions). Every rule
and every word comes from the native module (the project's Rust core); this
file only hooks the client:

1. the instance's ``create_payment_payload`` looks every accepted option up
   at once (the verdict its 402 staples first) before the client selects one;
2. a policy (``register_policy``) orders the options by the core's
   preference, leaving out those refused while an acceptable one remains;
3. an ``on_before_payment_creation`` hook aborts with the core's line when
   the option selected is refused, before anything is signed (looking it
   up itself when step 1 did not run).
"""

from __future__ import annotations

import functools
import inspect
import json
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Callable, TypeVar, Union, cast

from ._native import (
    PaymentCheck,
    VerdictExtension,
    Verifier,
    __version__,
    policy_name,
    rank,
    verdict_extension,
)
from ._vocabulary import PolicyName

if TYPE_CHECKING:
    from ._native import VerdictResult

__all__ = [
    "PaymentCheck",
    "PolicyName",
    "VerdictExtension",
    "Verifier",
    "guard",
    "staple_tool",
    "verdict_extension",
    "__version__",
]

Client = TypeVar("Client")
Tool = TypeVar("Tool", bound=Callable[..., Any])


def guard(
    client: Client,
    verifier: Verifier,
    policy: Union[PolicyName, Callable[[VerdictResult, Any], Any]] = "avoid-revoked",
    http_client: Any = None,
) -> Client:
    """Hook ``client`` (an ``x402Client`` or ``x402ClientSync``) so that it pays
    only what ``policy`` allows; returns ``client``.

    ``policy``: ``"avoid-revoked"`` (the default), ``"require-human-backed"``,
    or a callable ``(result, requirement)`` returning ``True`` to pay, or an
    ``AbortResult`` to refuse with its own reason (``x402Client`` awaits it
    when it returns an awaitable). ``http_client``: the ``x402HTTPClient``
    made on ``client``, so that the guard sees the URL actually fetched.
    """
    from x402 import x402Client
    from x402.schemas import AbortResult

    name = policy_name(policy)
    custom = callable(policy)
    hooked: Any = client  # an x402Client or x402ClientSync, hooked below
    is_async = isinstance(hooked, x402Client)
    decisions: dict[int, tuple[Any, PaymentCheck]] = {}  # by id(option), while its payment is created
    fetched: dict[int, str] = {}  # by id(payment_required): the URL fetched, from http_client

    if http_client is not None:
        http_client.on_payment_required(
            lambda context: fetched.__setitem__(id(context.payment_required), context.request_url)
        )

    def known(requirement):
        entry = decisions.get(id(requirement))
        return entry[1] if entry is not None and entry[0] is requirement else None

    def answered(check, requirement):
        try:
            return check.answered(policy(check.result, requirement))
        except Exception as error:  # a policy that raises refuses
            return check.answered(error)

    async def answered_async(check, requirement):
        try:
            answer = policy(check.result, requirement)
            return check.answered(await answer if inspect.isawaitable(answer) else answer)
        except Exception as error:
            return check.answered(error)

    def decide(payment_required, requirements):
        url = fetched.get(id(payment_required))
        checks = verifier.check_options(payment_required, requirements, name, url)
        return [answered(c, r) for c, r in zip(checks, requirements)] if custom else checks

    async def decide_async(payment_required, requirements):
        url = fetched.get(id(payment_required))
        checks = await verifier.check_options(payment_required, requirements, name, url, True)
        if not custom:
            return checks
        return [await answered_async(c, r) for c, r in zip(checks, requirements)]

    def refusal(check):
        return None if check.pays else AbortResult(reason=check.refusal)

    original = hooked.create_payment_payload

    def keep(payment_required, checks):
        accepts = list(payment_required.accepts)
        decisions.update((id(r), (r, c)) for r, c in zip(accepts, checks))
        return accepts

    def forget(payment_required, accepts):
        fetched.pop(id(payment_required), None)
        for requirement in accepts:
            decisions.pop(id(requirement), None)

    if is_async:

        async def create_payment_payload(payment_required, *args, **kwargs):
            checks = await decide_async(payment_required, list(payment_required.accepts))
            accepts = keep(payment_required, checks)
            try:
                return await original(payment_required, *args, **kwargs)
            finally:
                forget(payment_required, accepts)

        async def before(context):
            check = known(context.selected_requirements)
            if check is None:
                required = context.payment_required
                [check] = await decide_async(required, [context.selected_requirements])
            return refusal(check)

    else:

        def create_payment_payload(payment_required, *args, **kwargs):
            accepts = keep(payment_required, decide(payment_required, list(payment_required.accepts)))
            try:
                return original(payment_required, *args, **kwargs)
            finally:
                forget(payment_required, accepts)

        def before(context):
            check = known(context.selected_requirements)
            if check is None:
                [check] = decide(context.payment_required, [context.selected_requirements])
            return refusal(check)

    def order(version, requirements):
        checks = [known(r) for r in requirements]
        if any(check is None for check in checks):
            return requirements  # not looked up here: the hook checks the one selected
        return rank(requirements, checks)

    hooked.create_payment_payload = create_payment_payload
    hooked.register_policy(order)
    hooked.on_before_payment_creation(before)
    return client


def staple_tool(extension: VerdictExtension) -> Callable[[Tool], Tool]:
    """A decorator for a FastMCP tool that ``x402.mcp.create_payment_wrapper``
    wrapped, put between the two (``@mcp.tool()``, ``@staple_tool(extension)``,
    ``@paid``): each 402 the tool answers carries the verdicts ``extension``
    (``verdict_extension(verifier)``) keeps of its options, under the extension's
    key, as a 402 over HTTP does. The wrapper writes its 402 from the
    ``extensions`` it was given, without the resource server's extensions; any
    other result is left as it is.
    """
    from mcp.types import CallToolResult, TextContent
    from x402.schemas import PaymentRequired

    def stapled(result: Any) -> Any:
        required = getattr(result, "structuredContent", None)
        if not (isinstance(result, CallToolResult) and result.isError and isinstance(required, dict)):
            return result
        try:
            context = SimpleNamespace(payment_required_response=PaymentRequired.model_validate(required))
        except ValueError:  # no x402 v2 challenge: left as it is
            return result
        extensions = dict(required.get("extensions") or {})
        declared = extensions.get(extension.key, {})
        extensions[extension.key] = extension.enrich_payment_required_response(declared, context)
        required = {**required, "extensions": extensions}
        text = TextContent(type="text", text=json.dumps(required))
        return result.model_copy(update={"structuredContent": required, "content": [text]})

    def decorator(tool: Tool) -> Tool:
        @functools.wraps(tool)
        async def with_staple(*args: Any, **kwargs: Any) -> Any:
            result = tool(*args, **kwargs)
            return stapled(await result if inspect.isawaitable(result) else result)

        return cast(Tool, with_staple)

    return decorator
