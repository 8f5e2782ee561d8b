//! The consumers of verdicts: `lookup` (one endpoint), `check` (the
//! endpoints of a live x402 challenge), `scan` (the endpoints of a
//! facilitator's discovery listing) and the MCP server, over one verifying
//! HTTP client.

pub mod check;
pub mod lookup;
pub mod mcp;
pub mod scan;
pub mod verifier;
