// A web app that pays with @x402/fetch through the x402-verdict guard, for
// tests/agent/browser.test.mjs: built for production by Vite, the package
// installed from its `npm pack` tarball, as an app would.
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { guard } from "x402-verdict";

const SIGNER = toClientEvmSigner(privateKeyToAccount(`0x${"11".repeat(32)}`));

/** Fetches `url` paying with a client guarded by `options`; resolves to { status } or { error }. */
window.pay = async (url, options) => {
  const client = new x402Client().register("eip155:*", new ExactEvmScheme(SIGNER));
  guard(client, options);
  try {
    const response = await wrapFetchWithPayment(fetch, client)(url);
    return { status: response.status };
  } catch (error) {
    return { error: error.message };
  }
};
window.ready = true;
