//! Written by `cargo xtask generate` from the browser badge's
//! stylesheet (`js/common/badge.js`): do not edit.

use super::look::{Colours, Look};

/// The `unknown` look.
pub const UNKNOWN: Look = Look { mark: "?", light: Colours { border: "#8a8f98", background: "#f4f5f7", text: "#30343b" }, dark: Colours { border: "#6b717c", background: "#2a2e35", text: "#e6e8eb" } };

/// The `human-backed` look.
pub const HUMAN_BACKED: Look = Look { mark: "✓", light: Colours { border: "#1f7a3f", background: "#e8f5ec", text: "#14532b" }, dark: Colours { border: "#3fa56a", background: "#12301d", text: "#b7ebc6" } };

/// The `revoked` look.
pub const REVOKED: Look = Look { mark: "✕", light: Colours { border: "#b42318", background: "#fdeceb", text: "#7a1a12" }, dark: Colours { border: "#e0574a", background: "#3a1512", text: "#f8c4be" } };
