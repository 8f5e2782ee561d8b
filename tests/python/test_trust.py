"""``Verifier(root_keys=[…])``: pinned to an operator's root key (version 1),
one verifier reads human-backed with a valid signature across three
signing-key rotations and a root rotation of the real reference service,
its configuration unchanged; what the root does not certify reads unknown
under strict, saying why; a rollback to a key certified by the old root is
refused once the newer root was seen. A seller's 402 (``verdict_extension`` on
the official FastAPI middleware) staples its verdict with its certificate and
roots, and the guard pinned to the root alone pays on it with no request to
the service."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

from conftest import BACKED, BIN, NETWORK, WORK, Facilitator, attested, free_port, serve_asgi, serve_thread
from test_guard import pay_sync, sync_client
from test_staple import Front, route, until_stapled

from x402_verdict import Verifier, guard, verdict_extension

STEPS = 5


def run(*args: str) -> str:
    """The command's standard output; it must succeed."""
    return subprocess.run([BIN, *args], capture_output=True, text=True, check=True).stdout


def public_key(out: str) -> str:
    return next(line.removeprefix("publicKey ") for line in out.splitlines() if line.startswith("publicKey "))


class Operator:
    """An operator's root key and key file, and its service, restarted on one port."""

    def __init__(self, name: str):
        self.dir = WORK / name
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True, mode=0o700)
        self.root = self.dir / "root-1.json"
        self.root_key = public_key(run("keygen", "--root", "--out", str(self.root)))
        self.keys = self.dir / "keys.json"
        run("keygen", "--out", str(self.keys))
        self.registry = self.dir / "registry.json"
        self.attest()
        self.url = f"http://127.0.0.1:{free_port()}"
        self.child = None

    def attest(self, *more: dict):
        """The registry: each step's endpoint attested, and ``more``."""
        entries = [attested(BACKED, self.resource(step)) for step in range(STEPS)]
        self.registry.write_text(json.dumps({"attestations": [*entries, *more]}))

    @staticmethod
    def resource(step: int) -> str:
        """Each step's own endpoint, so that no kept answer stands in for a request."""
        return f"https://api.example.com/step-{step}"

    def certify(self):
        run("certify", "--root", str(self.root), "--keys", str(self.keys))

    def serve(self, keys=None):
        self.stop()
        addr = self.url.removeprefix("http://")
        self.child = subprocess.Popen(
            [BIN, "serve", "--listen", addr, "--registry", str(self.registry), "--keys", str(keys or self.keys)],
            stdout=subprocess.PIPE, text=True, env={**os.environ, "RUST_LOG": "error"})
        assert self.child.stdout.readline().startswith("listening on ")

    def stop(self):
        if self.child:
            self.child.terminate()
            self.child.wait(10)


def test_a_root_pin_reads_every_rotation_and_refuses_a_rollback():
    operator = Operator("trust-rotations")
    operator.certify()
    verifier = Verifier(operator.url, root_keys=[operator.root_key], strict=True)
    try:
        for step in range(STEPS):
            if 1 <= step <= 3:
                run("keygen", "--out", str(operator.keys), "--rotate")
                operator.certify()
            elif step == 4:
                shutil.copyfile(operator.keys, operator.dir / "kept.json")
                root2 = operator.dir / "root-2.json"
                run("root", "rotate", "--root", str(operator.root), "--out", str(root2))
                operator.root = root2
                operator.certify()
            operator.serve()
            result = verifier.lookup_verdict(NETWORK, BACKED, operator.resource(step))
            assert (result["state"], result["signature"]) == ("human-backed", "valid"), (step, result)

        # Back to the key file certified by root version 1: refused, as a rollback.
        kept = operator.dir / "kept.json"
        os.chmod(kept, 0o600)
        operator.serve(kept)
        result = verifier.lookup_verdict(NETWORK, BACKED, operator.resource(0))
        assert (result["state"], result["signature"], result["reason"]) == (
            "unknown", "unverifiable", "signature_required"), result
        assert result["detail"] == "key certificate of an older root (rollback)"
    finally:
        operator.stop()


def test_what_the_root_does_not_certify_reads_unknown_and_says_why():
    operator = Operator("trust-refusals")
    try:
        operator.serve()
        pinned = Verifier(operator.url, root_keys=operator.root_key, strict=True)
        result = pinned.lookup_verdict(NETWORK, BACKED, operator.resource(0))
        assert (result["state"], result["detail"]) == ("unknown", "no key certificate")
        operator.certify()
        operator.serve()
        other = public_key(run("keygen", "--root", "--out", str(operator.dir / "other.json")))
        foreign = Verifier(operator.url, root_keys=[other], strict=True)
        result = foreign.lookup_verdict(NETWORK, BACKED, operator.resource(1))
        assert (result["state"], result["detail"]) == ("unknown", "key certificate of another root")
    finally:
        operator.stop()


def test_a_bad_root_key_is_refused_with_one_line():
    try:
        Verifier("http://127.0.0.1:9", root_keys=["zz"])
    except ValueError as e:
        assert str(e) == "root_keys: the public key is not base64"
    else:
        raise AssertionError("accepted")


def test_a_stapled_verdict_carries_its_certificate_and_the_root_alone_takes_it_with_no_request():
    from fastapi import FastAPI
    from x402 import x402ResourceServer
    from x402.http import FacilitatorConfig, HTTPFacilitatorClient
    from x402.http.middleware.fastapi import payment_middleware
    from x402.mechanisms.evm.exact.server import ExactEvmScheme

    operator = Operator("trust-staple")
    facilitator, facilitator_url = serve_thread(Facilitator)
    front, front_url = serve_thread(Front)
    target, Front.target = Front.target, operator.url
    server = x402ResourceServer(HTTPFacilitatorClient(FacilitatorConfig(url=facilitator_url)))
    server.register(NETWORK, ExactEvmScheme())
    server.register_extension(verdict_extension(Verifier(operator.url, root_keys=[operator.root_key], strict=True)))
    app = FastAPI()
    routes = {"GET /report": route([BACKED], "Stapled under a root")}
    middleware = payment_middleware(routes, server)

    @app.middleware("http")
    async def x402(request, call_next):
        return await middleware(request, call_next)

    app.get("/report")(lambda: {"paid": True})
    url, stop = serve_asgi(app)
    try:
        operator.attest(attested(BACKED, f"{url}/report"))
        # Certified by root version 1, then by version 2: the verdict carries that version.
        operator.certify()
        root2 = operator.dir / "root-2.json"
        run("root", "rotate", "--root", str(operator.root), "--out", str(root2))
        operator.root = root2
        operator.certify()
        operator.serve()
        [document] = until_stapled(f"{url}/report")
        assert isinstance(document["certificate"], str), "the stapled document carries its certificate"
        assert len(document["roots"]) == 1, "and root version 2"

        seen = []

        def human_backed(result, requirement):
            seen.append(result)
            return result["state"] == "human-backed"

        verifier = Verifier(f"{front_url}/trust-agent", root_keys=[operator.root_key], strict=True)
        client = guard(sync_client(), verifier, human_backed)
        assert pay_sync(client, f"{url}/report") == 200
        assert [(r["state"], r["signature"]) for r in seen] == [("human-backed", "valid")]
        assert Front.asked[("trust-agent", "verdict")] + Front.asked[("trust-agent", "verification-keys")] == 0
    finally:
        Front.target = target
        stop()
        front.shutdown()
        facilitator.shutdown()
        operator.stop()
