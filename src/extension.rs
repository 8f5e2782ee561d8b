//! The buyer's browser extension's engine (feature `extension`): the 402s
//! a tab meets read as challenges, each option looked up (with the
//! service's published keys when no key is set, as the guard does), and
//! what its toolbar and popup show, decided by [`crate::buyer`] on the
//! core's readings and said in the browser crate's words
//! ([`crate::words::extension`]). The extension's JavaScript observes,
//! keeps each tab's record and draws what these functions return.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use x402_verdict_core::{
    from_attribute, image_badge_endpoint, line, paywall_endpoints, resource_host, Challenge,
    ChallengeEndpoints, Endpoint, Evaluation, LookupOptions, OptionField, State,
};

use crate::buyer::{
    badge_about, check_settings, payee_label, toolbar, toolbar_title, SETTINGS_MEMBERS,
};
use crate::guard::evaluate_with_keys;
use crate::json_value::to_value;
use crate::lookup::spawn;
use crate::words::extension::{
    BADGE_CHECKED, BADGE_NOT_ASKED, BADGE_UNCOMPARED, BADGE_UNREAD, BODY_UNREAD, UNREAD,
};
use crate::words::{accessible_name, CHECKING};

/// The types of what the extension's engine keeps and shows, written by
/// `cargo xtask generate` (`verdict-types.d.ts`, beside the glue).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
import type { MetChallenge, MetEndpoint, OptionView } from "./verdict-types.js";
export type { MetChallenge, MetEndpoint, OptionView };
"#;

/// Reads the 402 a tab met at `url`: its `PAYMENT-REQUIRED` header when it
/// had one, else (a top document's) the text of its inline scripts, where
/// a v1 paywall keeps its terms; with neither, none and why. Never throws.
#[wasm_bindgen(js_name = readChallenge, unchecked_return_type = "MetChallenge")]
pub fn read_challenge(url: &str, header: Option<String>, scripts: Option<String>) -> JsValue {
    let read = match (header, scripts) {
        (Some(header), _) => ChallengeEndpoints::from(Challenge::from_header(&header).map(Some)),
        (None, Some(scripts)) => paywall_endpoints(&scripts),
        (None, None) => ChallengeEndpoints {
            endpoints: Vec::new(),
            reason: Some(BODY_UNREAD.to_owned()),
        },
    };
    let endpoints = Array::new();
    let mut key = url.to_owned();
    for option in &read.endpoints {
        let endpoint = &option.endpoint;
        let object =
            serde::Serialize::serialize(option, &serde_wasm_bindgen::Serializer::json_compatible())
                .unwrap_or_else(|_| Object::new().into());
        set(
            &object,
            "host",
            &resource_host(endpoint.resource_url()).into(),
        );
        set(&object, "payee", &payee_label(endpoint).into());
        endpoints.push(&object);
        for part in [endpoint.chain(), endpoint.pay_to(), endpoint.resource_url()] {
            key.push('\n');
            key.push_str(part);
        }
    }
    let met = Object::new();
    set(&met, "key", &key.into());
    set(&met, "endpoints", &endpoints);
    if let Some(reason) = read.reason {
        set(&met, "reason", &reason.into());
    }
    met.into()
}

/// Looks up one option of a challenge under `settings` (`baseUrl`,
/// `publicKey`, `strict`: without a key, the service's published keys
/// check the signature) and resolves to its result in the badge's words.
/// Never rejects: bad settings read unknown, naming what is wrong.
#[wasm_bindgen(js_name = checkEndpoint, unchecked_return_type = "Promise<OptionView>")]
pub fn check_endpoint(
    settings: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MetEndpoint")] endpoint: JsValue,
) -> js_sys::Promise {
    let options = LookupOptions::from_fields(&mut |name| {
        let source = if SETTINGS_MEMBERS.contains(&name) {
            &settings
        } else {
            &endpoint
        };
        member(source, name)
    });
    spawn(Box::pin(async move {
        let result = match options {
            Ok(options) => evaluate_with_keys(options).await,
            Err(problem) => Evaluation::invalid_input(line(&problem)),
        };
        view(&result)
    }))
}

/// A result in the badge's words, with its `lookup_verdict` line.
fn view(result: &Evaluation) -> JsValue {
    let label = result.badge_label();
    let object = Object::new();
    let members: [(&str, String); 5] = [
        ("state", result.state.as_str().into()),
        ("name", accessible_name(&label)),
        ("label", label),
        ("hover", result.badge_hover()),
        ("line", result.text_line()),
    ];
    for (name, value) in members {
        set(&object, name, &value.into());
    }
    object.into()
}

/// What the toolbar shows for a challenge a tab met: the badge's state
/// (`checking` while an option waits), whose mark and colour it draws, and
/// its title.
#[wasm_bindgen(js_name = toolbarOf, unchecked_return_type = "{ state: string; title: string }")]
pub fn toolbar_of(
    #[wasm_bindgen(unchecked_param_type = "MetChallenge")] challenge: JsValue,
) -> JsValue {
    let endpoints = endpoints_of(&challenge);
    let views: Vec<JsValue> = endpoints
        .iter()
        .map(|e| Reflect::get(&e, &"view".into()).unwrap_or_default())
        .collect();
    let states: Vec<Option<State>> = views.iter().map(state_of).collect();
    let shown = toolbar(&states);
    let line = match (shown.state, views.get(shown.option)) {
        (None, _) => CHECKING[2].to_owned(),
        (Some(_), Some(view)) => text_member(view, "line"),
        (Some(_), None) => UNREAD.to_owned() + &text_member(&challenge, "reason"),
    };
    let object = Object::new();
    let state = shown.state.map_or(CHECKING[0], State::as_str);
    set(&object, "state", &state.into());
    set(&object, "title", &toolbar_title(states.len(), &line).into());
    object.into()
}

/// Each badge the page draws (the texts of its lookup options, as the
/// badge package reads them from its attributes; for an image badge, its
/// URL as `image`) checked against the
/// challenges the tab met: who it names, and `about`, the `[challenge,
/// option]` it is about when one of them asks payment for its endpoint,
/// with the line the popup says of it.
#[wasm_bindgen(
    js_name = crossCheck,
    unchecked_return_type = "{ host?: string; payee?: string; about?: [number, number]; note: string }[]"
)]
pub fn cross_check(
    #[wasm_bindgen(unchecked_param_type = "Record<string, string>[]")] badges: Array,
    #[wasm_bindgen(unchecked_param_type = "MetChallenge[]")] challenges: Array,
) -> Array {
    let mut asked: Vec<(usize, usize, Endpoint)> = Vec::new();
    for (c, challenge) in challenges.iter().enumerate() {
        for (o, option) in endpoints_of(&challenge).iter().enumerate() {
            let field = |name| text_member(&option, name);
            if let Ok(endpoint) =
                Endpoint::new(&field("chain"), &field("payTo"), &field("resourceUrl"))
            {
                asked.push((c, o, endpoint));
            }
        }
    }
    badges
        .iter()
        .map(|texts| {
            let object = Object::new();
            let field = |name| text_member(&texts, name);
            // An image badge: its URL's query names its endpoint.
            let image = field("image");
            let named = if image.is_empty() {
                Endpoint::new(&field("chain"), &field("payTo"), &field("resourceUrl"))
            } else {
                image_badge_endpoint(&image)
            };
            let note = match named {
                Err(problem) => BADGE_UNREAD.to_owned() + &line(&problem),
                Ok(badge) => {
                    set(&object, "host", &resource_host(badge.resource_url()).into());
                    set(&object, "payee", &payee_label(&badge).into());
                    match badge_about(&badge, asked.iter().map(|(_, _, e)| e)) {
                        Some(at) => {
                            let (c, o, _) = asked[at];
                            set(&object, "about", &Array::of2(&c.into(), &o.into()));
                            BADGE_CHECKED.to_owned()
                        }
                        None if challenges.length() == 0 => BADGE_UNCOMPARED.to_owned(),
                        None => BADGE_NOT_ASKED.to_owned(),
                    }
                }
            };
            set(&object, "note", &note.into());
            JsValue::from(object)
        })
        .collect()
}

/// The settings in force: each member the organization's policy sets
/// (`managed`), else the user's (`local`); with `managed`, the names of
/// those the policy sets, `noService`, whether they set no service (every
/// endpoint then reads unknown), and `problem`, the one line saying what
/// is wrong with them, if anything.
#[wasm_bindgen(
    js_name = settingsInForce,
    unchecked_return_type = "{ settings: object; managed: string[]; noService: boolean; problem?: string }"
)]
pub fn settings_in_force(local: JsValue, managed: JsValue) -> JsValue {
    let settings = Object::new();
    let names = Array::new();
    for name in SETTINGS_MEMBERS {
        let from_policy = member_value(&managed, name);
        let value = if from_policy.is_undefined() {
            member_value(&local, name)
        } else {
            names.push(&name.into());
            from_policy
        };
        if !value.is_undefined() {
            set(&settings, name, &value);
        }
    }
    let object = Object::new();
    if let Err(problem) = check_settings(&mut |name| member(&settings, name)) {
        set(&object, "problem", &line(&problem).into());
    }
    let no_service = member_value(&settings, "baseUrl").is_undefined();
    set(&object, "noService", &no_service.into());
    set(&object, "settings", &settings);
    set(&object, "managed", &names);
    object.into()
}

/// Settings from the settings page's fields, as the texts written (the
/// keys, root keys and witness keys read as the badge's `public-key` and
/// `root-key` attributes, a comma-separated list; the witness quorum as a
/// whole number; empty texts absent), and `problem`, the one line saying
/// what is wrong with them, if anything.
#[wasm_bindgen(
    js_name = settingsFromForm,
    unchecked_return_type = "{ settings: object; problem?: string }"
)]
#[expect(clippy::too_many_arguments, reason = "the settings page's fields")]
pub fn settings_from_form(
    base_url: String,
    public_key: String,
    root_key: String,
    strict: bool,
    log_key: String,
    witness_keys: String,
    witness_quorum: String,
    transparency: String,
) -> JsValue {
    let settings = Object::new();
    for (name, text) in [
        ("baseUrl", base_url),
        ("logKey", log_key),
        ("transparency", transparency),
    ] {
        if !text.trim_ascii().is_empty() {
            set(&settings, name, &text.trim_ascii().into());
        }
    }
    if !witness_quorum.trim_ascii().is_empty() {
        // Not a whole number: the text, which the core's rule refuses.
        let quorum = x402_verdict_core::transparency::parse_quorum(&witness_quorum).map_or_else(
            |_| JsValue::from(witness_quorum.as_str()),
            |n| JsValue::from(n as f64),
        );
        set(&settings, "witnessQuorum", &quorum);
    }
    for (name, text) in [
        ("publicKey", public_key),
        ("rootKey", root_key),
        ("witnessKeys", witness_keys),
    ] {
        if text.trim_ascii().is_empty() {
            continue;
        }
        // Read as a key list (a comma-separated attribute's).
        let list: Array = match from_attribute("publicKey", text) {
            x402_verdict_core::json::Value::Array(items) => items
                .iter()
                .filter_map(|k| k.as_str().map(JsValue::from))
                .collect(),
            _ => Array::new(),
        };
        set(&settings, name, &list);
    }
    set(&settings, "strict", &strict.into());
    let object = Object::new();
    if let Err(problem) = check_settings(&mut |name| member(&settings, name)) {
        set(&object, "problem", &line(&problem).into());
    }
    set(&object, "settings", &settings);
    object.into()
}

/// The options of a challenge (its `endpoints`), none when it has none.
fn endpoints_of(challenge: &JsValue) -> Array {
    Reflect::get(challenge, &"endpoints".into())
        .ok()
        .and_then(|list| list.dyn_into().ok())
        .unwrap_or_default()
}

/// The state of an option's view, `None` while it has none.
fn state_of(view: &JsValue) -> Option<State> {
    let state = Reflect::get(view, &"state".into()).ok()?.as_string()?;
    State::ALL.into_iter().find(|s| s.as_str() == state)
}

/// The text of `object`'s member `name` ("" when it is none).
fn text_member(object: &JsValue, name: &str) -> String {
    Reflect::get(object, &name.into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// `object`'s member `name` (undefined when `object` is none).
fn member_value(object: &JsValue, name: &str) -> JsValue {
    if object.is_object() {
        Reflect::get(object, &name.into()).unwrap_or_default()
    } else {
        JsValue::UNDEFINED
    }
}

/// `object`'s member `name` as the core reads an option.
fn member(object: &JsValue, name: &str) -> OptionField {
    to_value(&member_value(object, name), 0)
}

fn set(object: &JsValue, name: &str, value: &JsValue) {
    let _ = Reflect::set(object, &name.into(), value);
}
