//! The badge in the page. Its DOM is drawn by `js/common/badge.js`, the one
//! renderer shared with the script-tag loader's
//! placeholders: an inline host with an open shadow root, one constructable
//! stylesheet per document (a strict Content-Security-Policy allows it), and
//! service data written with `textContent` only.

use wasm_bindgen::prelude::*;
use x402_verdict_core::Evaluation;

use crate::words::{accessible_name, CHECKING};

#[wasm_bindgen(module = "/js/common/badge.js")]
extern "C" {
    /// Puts a badge in `container` showing a state, its label, hover text
    /// and accessible name, and returns its host; `null` when the container
    /// cannot hold one. It never throws; `catch` gives it a shim in the
    /// glue's one import object, as every other import has.
    #[wasm_bindgen(js_name = mount, catch)]
    fn mount_js(
        container: &JsValue,
        state: &str,
        label: &str,
        hover: &str,
        name: &str,
    ) -> Result<JsValue, JsValue>;

    /// Shows a state, its label, hover text, accessible name and reason
    /// code (empty for none). Never throws.
    #[wasm_bindgen(js_name = show)]
    fn show_js(host: &JsValue, state: &str, label: &str, hover: &str, name: &str, reason: &str);
}

/// A badge drawn in a container, reading "checking" until it shows a result.
pub struct Badge(JsValue);

impl Badge {
    /// Replaces the content of `container` (an element of any document or
    /// realm, connected or not) with a badge reading "checking"; `None` when
    /// it is not an element.
    pub fn mount(container: &JsValue) -> Option<Badge> {
        let [state, label, hover] = CHECKING;
        let host = mount_js(container, state, label, hover, &accessible_name(label)).ok()?;
        (!host.is_null()).then_some(Badge(host))
    }

    /// Shows a result: its state, label, hover text and reason.
    pub fn show(&self, result: &Evaluation) {
        let label = result.badge_label();
        show_js(
            &self.0,
            result.state.as_str(),
            &label,
            &result.badge_hover(),
            &accessible_name(&label),
            result.reason.map_or("", |r| r.as_str()),
        );
    }
}
