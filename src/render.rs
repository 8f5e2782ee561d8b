//! The badge in the page: one inline element in a shadow root, styled by a
//! constructable stylesheet (no `style` attribute, no `<style>` element, so
//! a strict Content-Security-Policy allows it), written with `textContent` only.

use std::cell::RefCell;

use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CssStyleSheet, Document, Element, ShadowRootInit, ShadowRootMode};
use x402_verdict_core::Evaluation;

const STYLES: &str = include_str!("badge.css");
/// The class of the element the badge puts in its container.
pub const HOST_CLASS: &str = "x402-verdict-badge";

thread_local! {
    static SHEET: RefCell<Option<CssStyleSheet>> = const { RefCell::new(None) };
}

/// One stylesheet per page, adopted by every badge.
fn sheet() -> Result<CssStyleSheet, JsValue> {
    SHEET.with(|cell| {
        if let Some(sheet) = cell.borrow().as_ref() {
            return Ok(sheet.clone());
        }
        let sheet = CssStyleSheet::new()?;
        sheet.replace_sync(STYLES)?;
        *cell.borrow_mut() = Some(sheet.clone());
        Ok(sheet)
    })
}

/// A rendered badge: its host in the container and the parts it updates.
pub struct Badge {
    host: Element,
    badge: Element,
    label: Element,
    tip: Element,
}

impl Badge {
    /// Replaces the container's content with a badge reading "checking".
    ///
    /// # Errors
    ///
    /// A DOM call that threw.
    pub fn mount(container: &Element) -> Result<Badge, JsValue> {
        let document: Document = container.owner_document().ok_or("no document")?;
        let host = document.create_element("span")?;
        host.set_class_name(HOST_CLASS);
        let root = host.attach_shadow(&ShadowRootInit::new(ShadowRootMode::Open))?;
        root.set_adopted_style_sheets(&Array::of1(&sheet()?.into()));

        let badge = document.create_element("span")?;
        badge.set_class_name("badge");
        badge.set_attribute("part", "badge")?;
        badge.set_attribute("tabindex", "0")?;
        badge.set_attribute("role", "group")?;
        badge.set_attribute("aria-describedby", "tip")?;
        let mark = document.create_element("span")?;
        mark.set_class_name("mark");
        mark.set_attribute("aria-hidden", "true")?;
        let label = document.create_element("span")?;
        label.set_class_name("label");
        badge.append_child(&mark)?;
        badge.append_child(&label)?;
        let tip = document.create_element("span")?;
        tip.set_class_name("tip");
        tip.set_id("tip");
        tip.set_attribute("role", "tooltip")?;
        root.append_child(&badge)?;
        root.append_child(&tip)?;

        let this = Badge {
            host,
            badge,
            label,
            tip,
        };
        this.set("checking", "checking", "Checking the verification service…")?;
        container.replace_children_with_node_1(&this.host);
        Ok(this)
    }

    /// Shows a result: its state, label and hover text.
    ///
    /// # Errors
    ///
    /// A DOM call that threw.
    pub fn show(&self, result: &Evaluation) -> Result<(), JsValue> {
        let mut hover = result.badge_hover();
        if let Some(detail) = &result.detail {
            hover = format!("{hover} ({detail})");
        }
        self.set(result.state.as_str(), &result.badge_label(), &hover)
    }

    fn set(&self, state: &str, label: &str, hover: &str) -> Result<(), JsValue> {
        self.host.set_attribute("data-state", state)?;
        self.badge.set_attribute("data-state", state)?;
        self.badge
            .set_attribute("aria-label", &format!("x402 verification: {label}"))?;
        self.label.set_text_content(Some(label));
        self.tip.set_text_content(Some(hover));
        Ok(())
    }
}

/// The container as an element, if it is one.
pub fn as_element(value: &JsValue) -> Option<Element> {
    value.dyn_ref::<Element>().cloned()
}

/// Whether the element is in a document.
pub fn is_connected(element: &Element) -> bool {
    element.unchecked_ref::<web_sys::Node>().is_connected()
}

/// The elements under `root` (default: the document) that ask for a badge
/// (`data-x402-verdict`).
pub fn marked_elements(root: Option<&Element>) -> Vec<Element> {
    const SELECTOR: &str = "[data-x402-verdict]";
    let list = match root {
        Some(element) => element.query_selector_all(SELECTOR),
        None => match web_sys::window().and_then(|w| w.document()) {
            Some(document) => document.query_selector_all(SELECTOR),
            None => return Vec::new(),
        },
    };
    let Ok(list) = list else { return Vec::new() };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|node| node.dyn_into::<Element>().ok())
        .collect()
}
