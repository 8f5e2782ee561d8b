//! A payment challenge's bounds: a leaf that the challenge reader and the
//! staple a challenge carries both read, so that neither imports the
//! other.

/// The largest challenge read, in bytes of JSON.
pub const MAX_CHALLENGE_BYTES: usize = 64 * 1024;

/// The most accepted options a challenge may list.
pub const MAX_OPTIONS: usize = 32;
