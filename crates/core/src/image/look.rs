//! How each state looks: its mark and its colours in a light and a dark
//! colour scheme, the browser badge's own ([`super::palette`]).

use crate::evaluate::State;

/// A look's colours (CSS colours).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colours {
    /// The outline.
    pub border: &'static str,
    /// The fill behind the words.
    pub background: &'static str,
    /// The words.
    pub text: &'static str,
}

/// A state's look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// The mark before the label (`✓`, `✕`, `?`).
    pub mark: &'static str,
    /// Its colours in a light colour scheme.
    pub light: Colours,
    /// Its colours in a dark colour scheme.
    pub dark: Colours,
}

impl Look {
    /// The look of `state`.
    pub fn of(state: State) -> Look {
        match state {
            State::HumanBacked => super::palette::HUMAN_BACKED,
            State::Revoked => super::palette::REVOKED,
            State::Unknown => super::palette::UNKNOWN,
        }
    }
}
