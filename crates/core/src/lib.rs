//! The pure verifier core of the x402 verification verdict protocol.
//!
//! Everything the protocol decides is decided here, once, for the browser
//! badge, the MCP server, the command line and the Python package alike.
//! It does no I/O and reads no clock: fetchers hand it a [`Response`] and
//! the time `now`.
//!
//! ```
//! use x402_verdict_core::ed25519_dalek::SigningKey;
//! use x402_verdict_core::json::Object;
//! use x402_verdict_core::{
//!     line, sign_verdict, Endpoint, Lookup, Response, State, Timestamp, TrustedKeys,
//!     VerdictDocument,
//! };
//!
//! // A verification service signs a verdict about one endpoint…
//! let key = SigningKey::from_bytes(&[9; 32]);
//! let verdict = Object::parse(br#"{"v": 1, "chain": "base",
//!     "payTo": "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
//!     "resourceUrl": "https://api.example.com/premium-data", "outcome": "human_backed",
//!     "assuranceLevel": "G", "verifiedAt": "2026-09-01T08:00:00Z",
//!     "recheckEveryHours": 24, "issuedAt": "2026-09-01T08:00:05Z"}"#).unwrap();
//! let document = sign_verdict(verdict, &key).unwrap();
//!
//! // …and a consumer that trusts its key looks the endpoint up.
//! let lookup = Lookup {
//!     endpoint: Endpoint::new("base", "0x209693Bc6afc0C5328bA36FaF03C514EF312287C", "https://api.example.com/premium-data").unwrap(),
//!     keys: TrustedKeys::from_keys([key.verifying_key()]),
//!     strict: true,
//! };
//! let now = Timestamp::parse_rfc3339("2026-09-01T09:00:00Z").unwrap();
//! let result = lookup.evaluate(Response::Http { status: 200, body: document.as_bytes() }, now);
//! assert_eq!(result.state, State::HumanBacked);
//! assert_eq!(result.status_line(), "Verification signal: human-backed.");
//!
//! // No verdict for it: unknown, which is no error.
//! let result = lookup.evaluate(Response::Http { status: 404, body: b"" }, now);
//! assert_eq!(result.state, State::Unknown);
//!
//! // What is wrong with bad input is one line.
//! let e = VerdictDocument::parse(b"{").unwrap_err();
//! assert_eq!(line(&e), "not strict JSON: expected a member name at byte 1");
//! ```
//!
//! # The API, by concept
//!
//! Every item is at the crate's root, but for six groups whose names say
//! what they are only together: [`json`], [`staple`], [`guard`], `live`
//! (feature `live`), `image` (feature `image`) and `transparency` (feature
//! `transparency`).
//!
//! **Looking an endpoint up.** A [`Lookup`] (an endpoint, the keys trusted,
//! strictness) evaluates what the service answered, a [`Response`] (or a
//! [`FetchFailure`]), at a [`Timestamp`], to an [`Evaluation`]: its
//! [`State`] (the routing signal), [`Outcome`], [`Freshness`],
//! [`SignatureStatus`] and [`Reason`] (a time ahead of `now` by more than
//! [`MAX_CLOCK_SKEW_SECONDS`] is not trusted). Its words are its methods
//! ([`Evaluation::text_line`], [`Evaluation::badge_hover`], …); its members
//! as written out are [`Evaluation::members`] ([`MemberValue`]), described by
//! [`evaluation_schema`]. [`LookupOptions`] are a lookup's options read one
//! by one ([`OPTION_NAMES`], [`OptionField`], [`ReadError`],
//! [`from_attribute`], [`strict_from_text`]) and refused as a whole
//! ([`OptionsError`], [`OptionError`], [`OptionRule`]).
//!
//! **The request.** A service's [`BaseUrl`] ([`BaseUrlError`],
//! [`MAX_BASE_URL_BYTES`]) writes the
//! verdict's URL ([`VERDICT_URL`], [`VERDICT_PATH`]) and those of the keys
//! ([`KEYS_PATH`]) and metrics ([`METRICS_PATH`]). A fetch asks for
//! [`VERDICT_MEDIA_TYPE`], reads at most [`MAX_BODY_BYTES`], follows at most
//! [`MAX_REDIRECTS`] and gives up after [`DEFAULT_TIMEOUT_MS`] unless told
//! otherwise, up to [`MAX_TIMEOUT_MS`] ([`check_timeout_ms`],
//! [`TimeoutError`]). An answer is reused for [`reuse_seconds`] (at most
//! [`MAX_REUSE_SECONDS`]; served stale for [`stale_seconds`]), at most
//! [`MAX_KEPT_ANSWERS`] at once. A verdict inlined in the page or stapled
//! to the 402 stands in for a request when
//! [`Lookup::evaluate_inlined`] takes it (at most
//! [`MAX_INLINED_AGE_SECONDS`] old).
//!
//! **Endpoints.** An [`Endpoint`] (chain, `payTo`, resource URL;
//! [`EndpointError`], [`FieldRule`], [`check_field`], [`MAX_FIELD_BYTES`])
//! is one endpoint under the matching rule of every lookup
//! ([`EndpointKey`]): a well-known network's two names are one chain
//! ([`canonical_chain`], [`v1_network_name`]), two spellings of one URL one resource
//! ([`same_resource`], [`path_span`]; its host, [`resource_host`]), and no value holds a character that
//! is not shown as itself ([`is_hidden`]).
//!
//! **Verdicts, keys and signatures.** A [`VerdictDocument`] is read
//! strictly ([`Verdict`], [`WireOutcome`], [`SignatureField`];
//! [`VerdictError`], [`VerdictRule`]; [`recheck_hours`] up to
//! [`MAX_RECHECK_EVERY_HOURS`], [`is_assurance_level`] and its
//! [`ASSURANCE_LEVEL_PATTERN`]). Its signed message ([`signed_message`]) is
//! `"x402-verdict/v1\n"` followed by the RFC 8785 canonical form of the
//! `verdict` object as received, checked with strict Ed25519
//! ([`verify_strict`], [`check_signature`]) under the key its [`KeyId`]
//! names among the [`TrustedKeys`] ([`parse_public_key`],
//! [`encode_base64`], [`decode_base64`]; [`KeysError`], [`KeyError`],
//! [`KeyAt`]); a service signs with [`sign_verdict`]. [`ed25519_dalek`] is
//! the version the core signs and verifies with.
//!
//! **Roots and key certificates** (feature `roots`). A consumer may pin a service's root key
//! instead ([`TrustedKeys::with_roots`], [`PinnedRoot`]): a verdict then
//! verifies under the key its `certificate` certifies ([`check_trust`],
//! [`TrustProblem`]), walking its `roots` from the newest root version
//! verified, never back. A service's root key certifies signing keys
//! ([`certify_key`], [`Certificate`], [`RootSigner`], [`CertifyError`],
//! [`DEFAULT_CERTIFICATE_SECONDS`], [`MAX_CERTIFICATE_SECONDS`]) and signs
//! the next root version ([`sign_root`], [`root_version_of`]), over
//! [`CERTIFICATE_DOMAIN`] and [`ROOT_DOMAIN`], within [`MAX_CHAIN_LINKS`];
//! it signs verdicts carrying them with [`sign_verdict_carrying`].
//!
//! **Payment challenges and discovery listings.** A [`Challenge`] is an
//! x402 `402 Payment Required` ([`PAYMENT_REQUIRED_STATUS`]) read from its
//! every form (the [`PAYMENT_REQUIRED_HEADER`], a body, a v1 paywall
//! page's terms: [`paywall_endpoints`], [`MAX_PAYWALL_TEXT`]): its
//! [`PaymentOption`]s, or for a caller that wants endpoints,
//! [`ChallengeEndpoints`]; [`ChallengeError`] says what is wrong
//! ([`ChallengeRule`], [`ChallengeMember`], [`ValueRule`], [`Difference`])
//! and where ([`Within`]), within [`MAX_CHALLENGE_BYTES`] and
//! [`MAX_OPTIONS`]. A [`Page`] of a facilitator's discovery listing holds
//! [`DiscoveryItem`]s and its [`Pagination`], or for a caller that wants
//! endpoints, [`DiscoveryEndpoints`] ([`PageError`], [`ItemError`],
//! [`ItemRule`], [`MAX_NAMED_RESOURCE_BYTES`]; [`MAX_PAGE_BYTES`],
//! [`MAX_PAGE_ITEMS`]). How what a listed
//! resource asks now compares with its listing is the module
//! `live` (feature `live`).
//!
//! **Sellers and code that pays.** [`staple`]: the verdicts a seller's 402
//! carries, as the x402 extension `x402-verdict`. [`guard`]: whether code
//! that pays may pay an endpoint, and why not. An image badge's URL names
//! its endpoint ([`image_badge_endpoint`], on the [`IMAGE_PATH`] route).
//!
//! **Strict JSON.** [`json`]: the parser that refuses what two readers
//! could read differently, the RFC 8785 writer, and the one reader of an
//! object's members that every document reader shares.
//!
//! **Time.** [`Timestamp`] (RFC 3339, UTC, whole seconds) and [`Month`].
//!
//! **Errors and words.** Every error is a type whose words (its `Display`)
//! say what went wrong at its own level; the error it wraps is its cause
//! ([`ErrorChain`], [`NoCause`]; natively `source()`). [`line()`] writes an
//! error and its causes as one line, wherever one line is shown. Every
//! word is written with ufmt, not `core::fmt`, so that no wasm holds the
//! formatting machinery ([`words`]).
//!
//! # Features
//!
//! - `serde`: `Serialize` for the structured result and the endpoints of a
//!   challenge or listing, for the consumers that hand them on.
//! - `image`: the `image` module, the image badge (an SVG that carries
//!   its signed verdict) drawn and read back, outside the badge's wasm.
//! - `live`: the `live` module (`scan --live`, and the snapshot read
//!   beside a listing), outside the badge's wasm.
//! - `roots`: pinned roots and key certificates, in every badge's wasm,
//!   outside the challenge reader's.
//! - `transparency`: the `transparency` module (the log of verdict
//!   statements, the proofs verdicts carry, witnesses), outside every
//!   badge's wasm.

// Every type the API reaches is one its users can name: re-exported.
#![warn(unnameable_types)]

mod bounds;
mod cache;
#[cfg(feature = "roots")]
mod certificate;
mod challenge;
mod discovery;
mod ed25519;
mod encoding;
mod endpoint;
mod evaluate;
pub mod guard;
mod hidden;
#[cfg(feature = "image")]
pub mod image;
mod inline;
pub mod json;
mod keys;
#[cfg(feature = "live")]
pub mod live;
mod network;
mod options;
mod paywall;
mod request;
mod resource;
mod response;
#[cfg(feature = "roots")]
mod root;
mod schema;
#[cfg(feature = "serde")]
mod serialize;
mod signing;
pub mod staple;
mod text;
mod time;
#[cfg(feature = "transparency")]
pub mod transparency;
mod verdict;
mod writing;

pub use bounds::{MAX_CHALLENGE_BYTES, MAX_OPTIONS};
pub use cache::{reuse_seconds, stale_seconds, MAX_KEPT_ANSWERS, MAX_REUSE_SECONDS};
#[cfg(feature = "roots")]
pub use certificate::{
    certify_key, root_version_of, sign_root, Certificate, CertifyError, RootSigner,
    CERTIFICATE_DOMAIN, DEFAULT_CERTIFICATE_SECONDS, MAX_CERTIFICATE_SECONDS, MAX_CHAIN_LINKS,
    ROOT_DOMAIN,
};
pub use challenge::{
    Challenge, ChallengeEndpoints, ChallengeError, ChallengeMember, ChallengeRule, Difference,
    PaymentOption, ValueRule, Within, PAYMENT_REQUIRED_HEADER, PAYMENT_REQUIRED_STATUS,
};
pub use discovery::{
    DiscoveryEndpoints, DiscoveryItem, ItemError, ItemRule, Page, PageError, Pagination,
    MAX_NAMED_RESOURCE_BYTES, MAX_PAGE_BYTES, MAX_PAGE_ITEMS,
};
pub use ed25519::{parse_public_key, verify_strict, KeyError, KeyId};
pub use encoding::{decode_base64, encode_base64};
pub use endpoint::{check_field, Endpoint, EndpointError, EndpointKey, FieldRule, MAX_FIELD_BYTES};
pub use evaluate::{Evaluation, Freshness, Lookup, MemberValue, Outcome, Reason, State};
pub use hidden::is_hidden;
pub use inline::MAX_INLINED_AGE_SECONDS;
pub use keys::{KeyAt, KeysError, TrustedKeys};
pub use network::{canonical_chain, v1_network_name};
#[cfg(feature = "transparency")]
pub use options::LOG_OPTION_NAMES;
pub use options::{
    from_attribute, strict_from_text, LookupOptions, OptionError, OptionField, OptionRule,
    OptionsError, ReadError, OPTION_NAMES,
};
pub use paywall::{paywall_endpoints, MAX_PAYWALL_TEXT};
pub use request::{
    check_timeout_ms, image_badge_endpoint, BaseUrl, BaseUrlError, TimeoutError,
    DEFAULT_TIMEOUT_MS, IMAGE_PATH, KEYS_PATH, MAX_BASE_URL_BYTES, MAX_BODY_BYTES, MAX_REDIRECTS,
    MAX_TIMEOUT_MS, METRICS_PATH, VERDICT_MEDIA_TYPE, VERDICT_PATH, VERDICT_URL,
};
pub use resource::{path_span, resource_host, same_resource};
pub use response::{FetchFailure, Response};
#[cfg(feature = "roots")]
pub use root::{PinnedRoot, TrustProblem};
pub use schema::evaluation_schema;
#[cfg(feature = "roots")]
pub use signing::check_trust;
pub use signing::{
    check_signature, sign_verdict, sign_verdict_carrying, signed_message, SignatureStatus,
};
pub use text::{accessible_name, NOTHING_DEPENDS_ON_THE_BADGE};
pub use time::{Month, Timestamp, MAX_CLOCK_SKEW_SECONDS};
pub use verdict::{
    is_assurance_level, recheck_hours, SignatureField, Verdict, VerdictDocument, VerdictError,
    VerdictRule, WireOutcome, ASSURANCE_LEVEL_PATTERN, MAX_RECHECK_EVERY_HOURS,
};
pub use writing::{line, words, ErrorChain, NoCause};

/// Re-exported so that consumers sign and verify with the same version.
pub use ed25519_dalek;
