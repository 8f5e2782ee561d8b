//! What a fetcher got for one request (a verdict's, or the keys a service
//! publishes): an HTTP answer, or why there is none. A leaf: the lookup
//! and the keys published both read it.

/// Why a fetch produced no HTTP answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchFailure {
    /// No complete answer within the timeout.
    Timeout,
    /// The connection failed.
    Network,
    /// The body was over [`MAX_BODY_BYTES`](crate::MAX_BODY_BYTES) and was abandoned.
    TooLarge,
    /// A redirect to another origin was refused.
    Redirected,
}

/// What a fetcher got for one lookup.
#[derive(Clone, Copy, Debug)]
pub enum Response<'a> {
    /// An HTTP answer: its status and (up to 64 KiB of) body.
    Http {
        /// The HTTP status.
        status: u16,
        /// The body bytes.
        body: &'a [u8],
    },
    /// No HTTP answer: why, and the fetcher's own words about it when it
    /// has any (its error's message and causes, never bytes of an answer:
    /// `fetch failed: connect ECONNREFUSED 127.0.0.1:9`). The result's
    /// `detail` is those words when they follow the rule of every value the
    /// core takes ([`check_field`](crate::check_field): one line of at most
    /// [`MAX_FIELD_BYTES`](crate::endpoint::MAX_FIELD_BYTES) bytes, no
    /// control or format character), and absent otherwise.
    Failed(FetchFailure, Option<&'a str>),
}
