//! The consumers of verdicts: `lookup` (one endpoint), `check` (the
//! endpoints of a live x402 challenge) and the MCP server, over one
//! verifying HTTP client.

pub mod check;
pub mod lookup;
pub mod mcp;
pub mod verifier;
