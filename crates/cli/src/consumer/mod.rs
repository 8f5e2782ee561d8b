//! The consumers of verdicts: `lookup` (one endpoint), `check` (the
//! endpoints of a live x402 challenge), `scan` (the endpoints of a
//! facilitator's discovery listing, and with `--live` what each listed
//! resource asks now) and the MCP server, over the one
//! verifying HTTP client of the `x402-verdict-consumer` crate.

pub mod check;
pub mod live;
pub mod lookup;
pub mod mcp;
pub mod scan;
