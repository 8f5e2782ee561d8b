"""x402 over MCP (x402 v2's MCP transport), against real parts on loopback:

- the project's MCP server (``x402-verdict mcp``, over stdio and Streamable HTTP)
  driven by the official MCP Python SDK client (``mcp``): its third tool,
  ``check_payment_required``, on whole challenges;
- a seller's FastMCP server whose tools ``x402.mcp.create_payment_wrapper`` (x402
  2.25) wraps, with ``verdict_extension`` registered on its resource server and
  ``staple_tool`` between the two, and the fake facilitator;
- an agent paying those tools through the official ``x402MCPSession`` with an
  ``x402Client`` that ``guard`` hooks.

The reference service sits behind test_staple.py's counting front: each party asks
it under a mode of its own, so that each test counts the requests it caused. The
seller records the ``_meta["x402/payment"]`` of every call its tools receive."""

from __future__ import annotations

import asyncio
import base64
import functools
import json
import os
import subprocess
import threading
import time
from contextlib import asynccontextmanager

import pytest
from conftest import BACKED, BIN, NETWORK, REVOKED, ROOT, WORK, Facilitator, attested, serve_asgi, serve_registry, serve_thread, signed
from test_guard import async_client, sync_client
from test_staple import Front, tampered

from x402_verdict import Verifier, guard, staple_tool, verdict_extension

TOOL = "check_payment_required"
KEY = "x402-verdict"
# Each paid tool of the seller and the addresses it accepts, in its order.
TOOLS = {"backed": [BACKED], "revoked": [REVOKED], "pair": [REVOKED, BACKED]}


def resource(tool: str) -> str:
    """The resource the payment wrapper declares for ``tool`` (its default)."""
    return f"mcp://tool/{tool}"


def challenge(pay_tos, url, staples=()) -> dict:
    """An x402 v2 PaymentRequired for ``url`` accepting ``pay_tos``, stapling ``staples``."""
    accepts = [{"scheme": "exact", "network": NETWORK, "amount": "10000", "payTo": p,
                "asset": "0x036CbD53842c5426634e7929541eC2318f3dCF7e", "maxTimeoutSeconds": 300} for p in pay_tos]
    required = {"x402Version": 2, "resource": {"url": url}, "accepts": accepts}
    if staples:
        required["extensions"] = {KEY: {"info": {"verdicts": list(staples)}}}
    return required


class Seller:
    """The seller's MCP endpoint and the payments its tools received: (tool, payTo)."""

    def __init__(self, url: str, payments: list):
        self.url = url
        self.payments = payments


def seller_app(facilitator_url: str, verifier: Verifier, payments: list):
    """The seller's FastMCP server: each tool of ``TOOLS`` wrapped by
    ``create_payment_wrapper`` (declaring the extension, as an HTTP route does), its
    402s stapled by ``staple_tool``; every call's payment recorded."""
    from mcp.server.fastmcp import FastMCP
    from x402 import x402ResourceServer
    from x402.http import FacilitatorConfig, HTTPFacilitatorClient
    from x402.mcp import create_payment_wrapper
    from x402.mechanisms.evm.exact.server import ExactEvmScheme
    from x402.schemas import ResourceConfig

    server = x402ResourceServer(HTTPFacilitatorClient(FacilitatorConfig(url=facilitator_url)))
    server.register(NETWORK, ExactEvmScheme())
    server.initialize()
    extension = verdict_extension(verifier)
    server.register_extension(extension)
    app = FastMCP("seller", stateless_http=True, json_response=True, log_level="ERROR")

    def recorded(name, tool):
        @functools.wraps(tool)
        async def record(**kwargs):
            meta = kwargs["ctx"].request_context.meta
            payment = (meta.model_extra or {}).get("x402/payment") if meta else None
            if payment:
                payments.append((name, payment["accepted"]["payTo"]))
            return await tool(**kwargs)

        return record

    for name, pay_tos in TOOLS.items():
        accepts = [requirement for pay_to in pay_tos for requirement in server.build_payment_requirements(
            ResourceConfig(scheme="exact", pay_to=pay_to, price="$0.01", network=NETWORK))]
        paid = create_payment_wrapper(server, accepts=accepts, extensions={KEY: {}})

        def handler(name=name) -> str:
            return json.dumps({"paid": name})

        handler.__name__ = name
        app.tool(name=name)(recorded(name, staple_tool(extension)(paid(handler))))
    return app.streamable_http_app()


@pytest.fixture(scope="module")
def mcp_world():
    """The front, the reference service attesting the seller's tools, and the seller."""
    front, front_url = serve_thread(Front)
    facilitator, facilitator_url = serve_thread(Facilitator)
    public_key = json.loads((ROOT / "demo/keys.json").read_text())["current"]["publicKey"]
    service = serve_registry({"attestations": [
        attested(BACKED, resource("backed")),
        attested(REVOKED, resource("revoked"), "revoked"),
        attested(REVOKED, resource("pair"), "revoked"),
        attested(BACKED, resource("pair")),
    ]}, "mcp-registry.json")
    Front.target = service.url
    payments = []
    verifier = Verifier(f"{front_url}/seller", [public_key], 3000, True)
    url, stop = serve_asgi(seller_app(facilitator_url, verifier, payments), lifespan="on")
    yield Seller(f"{url}/mcp", payments), front_url, public_key
    stop()
    service.stop()
    front.shutdown()
    facilitator.shutdown()


@asynccontextmanager
async def session(url: str):
    """An initialized MCP client session with the Streamable HTTP endpoint ``url``."""
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(url) as (read, write, _):
        async with ClientSession(read, write) as opened:
            await opened.initialize()
            yield opened


def call(url: str, tool: str, arguments=None):
    """One call of ``tool`` at ``url`` by a client that does not pay: its result."""

    async def main():
        async with session(url) as opened:
            return await opened.call_tool(tool, arguments or {})

    return asyncio.run(main())


def tool_result(url: str, tool: str) -> dict:
    """The seller's 402 tool result for ``tool``, as JSON, once it staples a verdict for
    each option (within 30 s: its verifier fetches them in the background)."""
    deadline = time.monotonic() + 30
    while True:
        result = call(url, tool).model_dump(by_alias=True, exclude_none=True, mode="json")
        required = result["structuredContent"]
        if len(required["extensions"][KEY]["info"]["verdicts"]) == len(required["accepts"]):
            return result
        assert time.monotonic() < deadline, f"{tool}'s 402 stapled nothing"
        time.sleep(0.05)


def asked(mode: str) -> int:
    """The requests the front received under ``mode`` (verdicts and keys)."""
    return Front.asked[(mode, "verdict")] + Front.asked[(mode, "verification-keys")]


class VerdictTools:
    """``x402-verdict mcp`` over one transport, asking the front under ``mode``."""

    def __init__(self, transport: str, env: dict, url: str | None):
        self.transport = transport
        self.env = env
        self.url = url

    @asynccontextmanager
    async def session(self):
        """An initialized MCP client session with the server."""
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        if self.url:
            async with session(self.url) as opened:
                yield opened
            return
        params = StdioServerParameters(command=BIN, args=["mcp"], env=self.env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as opened:
                await opened.initialize()
                yield opened

    def call(self, arguments: dict):
        """``check_payment_required`` with ``arguments``: its result."""

        async def main():
            async with self.session() as opened:
                return await opened.call_tool(TOOL, arguments)

        return asyncio.run(main())

    def listed(self) -> dict:
        """The tools the server lists, by name."""

        async def main():
            async with self.session() as opened:
                return (await opened.list_tools()).tools

        return {tool.name: tool for tool in asyncio.run(main())}

    def check(self, payment_required):
        """``check_payment_required`` on ``payment_required``: its result."""
        return self.call({"paymentRequired": payment_required})


@pytest.fixture(params=["stdio", "http"])
def tools(request, mcp_world):
    _, front_url, public_key = mcp_world
    mode = f"tool-{request.param}"
    env = {"PATH": os.environ["PATH"], "RUST_LOG": "error", "VERIFICATION_BASE_URL": f"{front_url}/{mode}",
           "VERIFICATION_PUBLIC_KEY": public_key}
    if request.param == "stdio":
        yield VerdictTools(mode, env, None)
        return
    child = subprocess.Popen([BIN, "mcp", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True, env=env)
    line = child.stdout.readline()
    assert line.startswith("listening on "), line
    yield VerdictTools(mode, env, line.strip().removeprefix("listening on "))
    child.terminate()
    child.wait(10)


def text(result) -> str:
    return result.content[0].text


class TestCheckPaymentRequired:
    """The third tool through the official MCP Python SDK client, over stdio and HTTP
    (the client checks each structured result against the tool's output schema)."""

    def test_a_fresh_stapled_verdict_is_taken_with_no_request(self, tools):
        url = resource("backed")
        before = asked(tools.transport)
        result = tools.check(challenge([BACKED], url, [signed(NETWORK, BACKED, url)]))
        assert asked(tools.transport) == before
        assert result.isError is False
        out = result.structuredContent
        assert (out["choice"], out["policy"], out["x402Version"]) == (0, "avoid-revoked", 2)
        [option] = out["options"]
        assert (option["chain"], option["payTo"], option["resourceUrl"], option["amount"]) == (NETWORK, BACKED, url, "10000")
        assert (option["verdictFrom"], option["result"]["state"], option["result"]["signature"]) == ("stapled", "human-backed", "valid")
        assert text(result).startswith("Pay option 1 of 1 (policy avoid-revoked: prefer human-backed, never revoked). Option 1: network ")
        assert text(result).endswith("signature valid. Verdict stapled.")

    def test_the_same_challenge_as_a_header(self, tools):
        url = resource("backed")
        header = base64.b64encode(json.dumps(challenge([BACKED], url, [signed(NETWORK, BACKED, url)])).encode()).decode()
        before = asked(tools.transport)
        out = tools.check(header).structuredContent
        assert asked(tools.transport) == before
        assert (out["choice"], out["options"][0]["verdictFrom"]) == (0, "stapled")

    def test_a_tampered_staple_is_looked_up_live(self, tools):
        url = resource("backed")
        before = Front.asked[(tools.transport, "verdict", BACKED)]
        out = tools.check(challenge([BACKED], url, [tampered(signed(NETWORK, BACKED, url))])).structuredContent
        assert Front.asked[(tools.transport, "verdict", BACKED)] == before + 1
        [option] = out["options"]
        assert (option["verdictFrom"], option["result"]["state"], option["result"]["assuranceLevel"]) == ("fetched", "human-backed", "G")
        assert out["choice"] == 0

    def test_of_two_options_the_revoked_one_is_not_chosen(self, tools):
        out = tools.check(challenge([REVOKED, BACKED], resource("pair")))
        states = [(o["payTo"], o["result"]["state"], o["verdictFrom"]) for o in out.structuredContent["options"]]
        assert states == [(REVOKED, "revoked", "fetched"), (BACKED, "human-backed", "fetched")]
        assert out.structuredContent["choice"] == 1
        assert text(out).startswith("Pay option 2 of 2 ")

    def test_a_revoked_option_alone_is_paid_by_none(self, tools):
        out = tools.check(challenge([REVOKED], resource("revoked")))
        assert out.isError is False
        assert out.structuredContent["choice"] is None
        assert text(out).startswith("Pay none of the 1 options (policy avoid-revoked: never revoked). Option 1: ")

    def test_the_sellers_mcp_tool_result(self, tools, mcp_world):
        seller = mcp_world[0]
        result = tool_result(seller.url, "pair")
        before = asked(tools.transport)
        out = tools.check(result).structuredContent
        assert asked(tools.transport) == before
        assert [(o["payTo"], o["verdictFrom"]) for o in out["options"]] == [(REVOKED, "stapled"), (BACKED, "stapled")]
        assert out["choice"] == 1
        ok = tools.check({"content": [{"type": "text", "text": "sunny"}], "isError": False})
        assert (ok.structuredContent, text(ok)) == (
            {"options": [], "choice": None, "policy": "avoid-revoked"},
            "Pay nothing: the tool result is not an error, so it asks for no payment.")

    @pytest.mark.parametrize("argument, line", [
        ({}, "Invalid arguments: missing argument paymentRequired."),
        ({"paymentRequired": 402}, "Invalid arguments: argument paymentRequired must be an object or a string."),
        ({"paymentRequired": "", "amount": 1}, "Invalid arguments: unexpected argument amount."),
        ({"paymentRequired": {**challenge([BACKED], resource("backed")), "accepts": []}},
         "Invalid arguments: paymentRequired: accepts is empty: the challenge offers no way to pay."),
        ({"paymentRequired": "%%%"}, "Invalid arguments: paymentRequired: the PAYMENT-REQUIRED header is not base64."),
        ({"paymentRequired": {"weather": "sunny"}},
         "Invalid arguments: paymentRequired: neither an x402 challenge (no x402Version) nor an MCP tool result."),
    ])
    def test_bad_input_is_an_error_result_naming_it(self, tools, argument, line):
        result = tools.call(argument)
        assert (result.isError, text(result)) == (True, line)

    def test_the_tool_is_listed_read_only_with_its_schemas(self, tools):
        listed = tools.listed()
        assert list(listed) == ["lookup_verdict", "endpoint_status", TOOL]
        tool = listed[TOOL]
        assert (tool.annotations.readOnlyHint, tool.annotations.openWorldHint) == (True, True)
        assert tool.inputSchema["required"] == ["paymentRequired"]
        assert tool.outputSchema["properties"]["options"]["items"]["properties"]["result"] == listed["lookup_verdict"].outputSchema


def test_the_options_are_looked_up_at_once(mcp_world):
    """Both options' requests are at the service together: the front holds each until
    it has seen both (the server's timeout well above it)."""
    _, front_url, public_key = mcp_world
    env = {"PATH": os.environ["PATH"], "RUST_LOG": "error", "VERIFICATION_BASE_URL": f"{front_url}/stall",
           "VERIFICATION_PUBLIC_KEY": public_key, "VERIFICATION_TIMEOUT_MS": "60000"}
    held, answer = Front.held, {}
    Front.release.clear()
    pair = challenge([REVOKED, BACKED], resource("pair"))
    checking = threading.Thread(target=lambda: answer.update(result=VerdictTools("stall", env, None).check(pair)))
    checking.start()
    try:
        deadline = time.monotonic() + 30
        while Front.held < held + 2:
            assert time.monotonic() < deadline and checking.is_alive(), "the two options were not asked at once"
            time.sleep(0.02)
    finally:
        Front.release.set()
        checking.join(60)
        Front.release.clear()
    assert answer["result"].structuredContent["choice"] == 1


class SyncMcpClient:
    """A sync MCP client as ``x402MCPClientSync`` takes one (``call_tool(params)``,
    ``params`` with the tool's ``name``, ``arguments`` and ``_meta``), each call a
    session of its own with the Streamable HTTP endpoint ``url``."""

    def __init__(self, url: str):
        self.url = url

    def call_tool(self, params: dict, **kwargs):
        async def main():
            async with session(self.url) as opened:
                return await opened.call_tool(params["name"], params["arguments"], meta=params.get("_meta"))

        return asyncio.run(main())


def paying(url: str, tool: str, client):
    """``tool`` at ``url`` called through the official x402 MCP client that fits the
    guarded ``client``: ``x402MCPSession`` for an ``x402Client``, ``x402MCPClientSync``
    for an ``x402ClientSync``. Its result, or the reason the payment was aborted with."""
    from x402 import x402ClientSync
    from x402.mcp import x402MCPClientSync, x402MCPSession
    from x402.schemas import PaymentAbortedError

    async def main():
        async with session(url) as opened:
            return await x402MCPSession(opened, client).call_tool(tool, {})

    try:
        if isinstance(client, x402ClientSync):
            return x402MCPClientSync(SyncMcpClient(url), client).call_tool(tool, {})
        return asyncio.run(main())
    except BaseException as error:  # the session's task group wraps what the call raised
        raised = error
        while getattr(raised, "exceptions", None):
            raised = raised.exceptions[0]
        if isinstance(raised, PaymentAbortedError):
            return raised.reason
        raise


@pytest.mark.parametrize("make", [async_client, sync_client], ids=["x402MCPSession", "x402MCPClientSync"])
class TestAnAgentPayingOverMcp:
    """``guard`` on the ``x402Client`` behind ``x402MCPSession``, and on the
    ``x402ClientSync`` behind ``x402MCPClientSync``."""

    def agent(self, mcp_world, mode, make):
        _, front_url, public_key = mcp_world
        return guard(make(), Verifier(f"{front_url}/{mode}", [public_key], 3000, True))

    def test_a_revoked_tool_is_never_paid(self, mcp_world, make):
        seller = mcp_world[0]
        for _ in range(2):  # without a staple, then stapled
            refused = paying(seller.url, "revoked", self.agent(mcp_world, "agent-revoked", make))
            assert refused == (f"x402-verdict: not paying {resource('revoked')}: state revoked, outcome revoked, "
                               "reason revoked (policy avoid-revoked).")
            tool_result(seller.url, "revoked")
        assert [p for p in seller.payments if p[0] == "revoked"] == []

    @pytest.mark.parametrize("tool", ["backed", "pair"])
    def test_the_human_backed_option_is_paid_with_no_verdict_request_when_stapled(self, mcp_world, make, tool):
        seller = mcp_world[0]
        tool_result(seller.url, tool)
        paid_before = seller.payments.count((tool, BACKED))
        before = asked(f"agent-{tool}")
        result = paying(seller.url, tool, self.agent(mcp_world, f"agent-{tool}", make))
        assert asked(f"agent-{tool}") == before
        assert (result.payment_made, result.is_error) == (True, False)
        assert json.loads(result.content[0].text) == {"paid": tool}
        # Of the pair's two options, the revoked one first, the human-backed one.
        assert [p for p in seller.payments if p[0] == tool] == [(tool, BACKED)] * (paid_before + 1)

def test_the_sellers_402_staples_as_over_http_and_check_reads_it(mcp_world):
    seller, front_url, public_key = mcp_world
    result = tool_result(seller.url, "backed")
    required = result["structuredContent"]
    [document] = required["extensions"][KEY]["info"]["verdicts"]
    assert (document["verdict"]["payTo"], document["verdict"]["resourceUrl"]) == (BACKED, resource("backed"))
    assert required["extensions"][KEY]["schema"]["properties"]["verdicts"]["maxItems"] == 32
    # The text content carries the same challenge (x402's MCP transport).
    assert json.loads(result["content"][0]["text"]) == required
    WORK.mkdir(parents=True, exist_ok=True)
    saved = WORK / "mcp-tool-result.json"
    saved.write_text(json.dumps(result))
    before = asked("cli")
    done = subprocess.run([BIN, "check", "--from-file", str(saved), "--base-url", f"{front_url}/cli",
                           "--public-key", public_key, "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    [option] = json.loads(done.stdout)["options"]
    assert (option["verdictFrom"], option["result"]["state"]) == ("stapled", "human-backed")
    assert asked("cli") == before
