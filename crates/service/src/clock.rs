//! The service's clock: the system's, or one pinned time.

use std::time::SystemTime;

use x402_verdict_core::Timestamp;

/// Where the service reads "now" from.
///
/// `serve --now TIME` pins it, in a build with the `pinned-clock` feature
/// only: every verdict is derived, every verdict answer counted, and every
/// metrics month closed as of that one time. It exists for reproducible
/// tests and for the demo's metrics snapshot; a release has no such option.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    /// The system clock.
    System,
    /// A pinned time.
    #[cfg(feature = "pinned-clock")]
    Pinned(Timestamp),
}

impl Clock {
    /// The current time by this clock.
    pub fn now(self) -> Timestamp {
        match self {
            Clock::System => Timestamp::from_system_time(SystemTime::now()),
            #[cfg(feature = "pinned-clock")]
            Clock::Pinned(at) => at,
        }
    }
}

/// Whether this build can pin its clock (feature `pinned-clock`): the
/// command offers `serve --now` when it can, and only then.
pub const PINNABLE: bool = cfg!(feature = "pinned-clock");

/// `--now`'s value is not an RFC 3339 UTC time (or this build cannot pin
/// its clock: see [`PINNABLE`]).
#[derive(Debug, thiserror::Error)]
#[error("is not an RFC 3339 UTC time")]
pub struct PinnedTimeError;

/// Parses the value of `--now`: the clock pinned to an RFC 3339 UTC time.
///
/// # Errors
///
/// When the text is not one, or when this build cannot pin its clock
/// ([`PINNABLE`] is false).
pub fn parse_pinned(text: &str) -> Result<Clock, PinnedTimeError> {
    #[cfg(feature = "pinned-clock")]
    let pinned = Timestamp::parse_rfc3339(text).map(Clock::Pinned);
    #[cfg(not(feature = "pinned-clock"))]
    let pinned = {
        let _ = text;
        None
    };
    pinned.ok_or(PinnedTimeError)
}
