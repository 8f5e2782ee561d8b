//! `look.js`: each state's mark and border colour as the badge's
//! stylesheet draws them (its light colours), which the browser extension's
//! toolbar shows: the states are the core's and the placeholder's
//! (`checking`).

use serde_json::{json, Map, Value};
use x402_verdict_badge::words::CHECKING;
use x402_verdict_core::State;

use crate::stylesheet::{border, mark};

/// The module.
pub fn module() -> String {
    let states = std::iter::once(CHECKING[0]).chain(State::ALL.map(State::as_str));
    let look: Map<String, Value> = states
        .map(|state| {
            (
                state.to_owned(),
                json!({ "mark": mark(state), "colour": border(state) }),
            )
        })
        .collect();
    format!(
        "{}/** Each badge state's mark and border colour, by state. */\n\
         /** @type {{Record<string, {{ mark: string, colour: string }}>}} */\n\
         export const LOOK = {};\n",
        crate::JS_HEADER,
        Value::Object(look)
    )
}
