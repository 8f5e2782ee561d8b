// Script-tag loader for the x402 verification badge.
//
//   <span data-x402-verdict data-base-url="https://verify.example" data-chain="base"
//         data-pay-to="0x…" data-resource-url="https://api.example.com/premium-data"
//         data-public-key="<base64 Ed25519 key>"></span>
//   <script type="module" src="https://…/x402-verdict-badge/embed.js"></script>
//
// Renders a badge into every element carrying data-x402-verdict. Elements
// added later: import { renderAll } and call it again.
import init, { renderAll } from "./x402_verdict_badge.js";

await init();
await renderAll();
