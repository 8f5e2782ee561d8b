"""Compiles under mypy --strict against the wheel's stubs (test_types.py); never run."""

import asyncio
from x402 import x402Client, x402ClientSync
from x402_verdict import Verifier, guard

verifier = Verifier("https://verify.example", ["BASE64"], strict=True)
result = verifier.lookup_verdict("base", "0x2", "https://a.example/")
state: str = result["state"]
hours = result.get("recheckEveryHours")
client: x402Client = guard(x402Client(), verifier)
sync: x402ClientSync = guard(x402ClientSync(), verifier, "require-human-backed")
guard(x402Client(), verifier, lambda r, req: r["state"] == "unknown")

async def main() -> None:
    r = await verifier.endpoint_status_async("base", "0x2", "https://a.example/")
    print(r["outcome"])

if __name__ == "__main__":
    asyncio.run(main())
