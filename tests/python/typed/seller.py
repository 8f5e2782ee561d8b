"""Compiles under mypy --strict against the wheel's stubs (test_types.py); never run."""

from x402 import x402ResourceServer, x402ResourceServerSync
from x402.http import FacilitatorConfig, HTTPFacilitatorClient, HTTPFacilitatorClientSync
from x402_verdict import VerdictExtension, Verifier, verdict_extension

verifier = Verifier("https://verify.example", ["BASE64"], strict=True)
extension: VerdictExtension = verdict_extension(verifier)
key: str = extension.key
fields: list[str] = extension.dynamic_info_fields
config = FacilitatorConfig(url="https://x402.org/facilitator")
server = x402ResourceServer(HTTPFacilitatorClient(config)).register_extension(extension)
sync = x402ResourceServerSync(HTTPFacilitatorClientSync(config)).register_extension(verdict_extension(verifier))
