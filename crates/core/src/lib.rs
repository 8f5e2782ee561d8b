//! The pure verifier core of the x402 verification verdict protocol.
//!
//! Everything the protocol decides is decided here, once, for the browser
//! badge, the MCP server and the command line alike:
//!
//! - the wire types of the verdict document ([`verdict`]) and of the keys
//!   configuration ([`keys`]), parsed strictly ([`json`]: duplicate member
//!   names, deep nesting and lone surrogates are errors);
//! - the signed message, `"x402-verdict/v1\n"` followed by the RFC 8785
//!   canonical form of the `verdict` object as received ([`json`] writes it
//!   for the values a verdict can hold), and strict Ed25519 over it
//!   ([`signing`]);
//! - the endpoint identity and its matching rule ([`endpoint`]), where a
//!   well-known network's two names are one chain ([`network`]), two
//!   spellings of one URL are one resource ([`resource`]), and no value
//!   holds a character that is not shown as itself ([`hidden`]);
//! - the x402 payment challenge an endpoint answers with, read from its
//!   every form ([`challenge`]), and the endpoints of a facilitator's
//!   discovery listing ([`discovery`]), and how what a listed resource
//!   asks now compares with its listing (`live`, feature `live`);
//! - the evaluation to the structured result: state, outcome, freshness,
//!   signature ([`evaluate`]), and the words shown for it ([`text`]);
//! - how long a consumer may reuse an answer ([`cache`]), and when a verdict
//!   inlined in the page or stapled to the 402 stands in for a request
//!   ([`inline`]); the verdicts a 402 staples, and the extension that
//!   carries them ([`staple`]);
//! - whether code that pays may pay an endpoint, and why not ([`guard`]);
//! - the words of a seller's own 402 page ([`seller`]);
//! - what the buyer's browser extension shows for the payment a tab was
//!   asked, and its words ([`extension`]);
//! - the JSON Schema of the structured result ([`schema`]).
//!
//! It does no I/O and reads no clock: fetchers hand it a [`Response`] and the
//! time `now`.
//!
//! ```
//! use x402_verdict_core::{Endpoint, Lookup, Response, State, Timestamp, TrustedKeys};
//!
//! let lookup = Lookup {
//!     endpoint: Endpoint::new("base", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "https://api.example.com/premium-data").unwrap(),
//!     keys: TrustedKeys::none(),
//!     strict: false,
//! };
//! let result = lookup.evaluate(Response::Http { status: 404, body: b"" }, Timestamp::from_unix_seconds(0));
//! assert_eq!(result.state, State::Unknown);
//! assert_eq!(result.status_line(), "Verification signal: unknown.");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod browser;
pub mod cache;
pub mod challenge;
pub mod discovery;
pub mod endpoint;
pub mod evaluate;
pub mod extension;
pub mod guard;
pub mod hidden;
pub mod inline;
pub mod json;
pub mod keys;
#[cfg(feature = "live")]
pub mod live;
pub mod member;
pub mod network;
pub mod options;
pub mod request;
pub mod resource;
pub mod schema;
pub mod seller;
#[cfg(feature = "serde")]
mod serialize;
pub mod signing;
pub mod staple;
pub mod text;
pub mod time;
pub mod verdict;
pub mod writing;

pub use challenge::{Challenge, PaymentOption};
pub use endpoint::Endpoint;
pub use evaluate::{Evaluation, FetchFailure, Freshness, Lookup, Outcome, Reason, Response, State};
pub use keys::{KeyId, TrustedKeys};
pub use network::{canonical_chain, same_chain};
pub use options::LookupOptions;
pub use request::{
    BaseUrl, DEFAULT_TIMEOUT_MS, MAX_BODY_BYTES, MAX_REDIRECTS, VERDICT_MEDIA_TYPE, VERDICT_URL,
};
pub use signing::{sign_verdict, SignatureStatus};
pub use time::{Month, Timestamp};
pub use verdict::{VerdictDocument, WireOutcome};

/// Re-exported so that consumers sign and verify with the same version.
pub use ed25519_dalek;
