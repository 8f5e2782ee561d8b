//! What the commands print cannot trick a terminal: a challenge or argument
//! holding a Unicode format character (a bidi override, a zero-width space)
//! is refused as a control character is, and whatever a command echoes from
//! its arguments is escaped (ESC sequences never reach the terminal raw).

mod support;

use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};
use support::*;
use x402_verdict_core::encode_base64;

/// An x402 v2 challenge for the demo's endpoint, with `member` of its one
/// option set to `value`.
fn challenge_with(member: &str, value: &str) -> Value {
    let mut challenge = json!({
        "x402Version": 2,
        "resource": {"url": format!("{R}good")},
        "accepts": [{"scheme": "exact", "network": "eip155:8453", "amount": "10000",
                     "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "payTo": PAY_TO}]
    });
    challenge["accepts"][0][member] = json!(value);
    challenge
}

/// Neither stream holds a character that is not shown as itself.
fn assert_shown(out: &str, err: &str) {
    for text in [out, err] {
        assert!(
            !text.chars().any(|c| (c.is_control() && c != '\n')
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
            "raw: {text:?}"
        );
    }
}

#[tokio::test]
async fn a_challenge_with_a_format_character_is_refused() {
    let hostile = [
        (
            "asset",
            "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\u{202e}namuh-deifirev",
        ),
        (
            "payTo",
            "0x209693Bc6afc0C5328bA36FaF03C514EF312287C\u{200b}",
        ),
        ("network", "\u{2066}base\u{2069}"),
    ];
    let mut app = Router::new();
    for (member, value) in hostile {
        let body = challenge_with(member, value).to_string();
        app = app.route(
            &format!("/{member}"),
            get(move || async move {
                (
                    StatusCode::PAYMENT_REQUIRED,
                    [(header::CONTENT_TYPE, "application/json")],
                    body,
                )
                    .into_response()
            }),
        );
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    for (member, value) in hostile {
        let from_server = format!("{url}/{member}");
        let header = encode_base64(challenge_with(member, value).to_string().as_bytes());
        for args in [
            vec!["check", &from_server],
            vec!["check", "--header", &header],
        ] {
            let (code, out, err) = run(&args).await;
            assert_eq!(
                (code, out.as_str(), err.lines().count()),
                (2, "", 1),
                "{args:?}: {err}"
            );
            let problem = format!("accepts[0].{member} contains an invisible format character");
            assert!(err.starts_with("x402-verdict: "), "{err}");
            assert!(err.trim_end().ends_with(&problem), "{args:?}: {err}");
            assert_shown(&out, &err);
        }
    }
}

#[tokio::test]
async fn lookup_refuses_format_characters_in_its_arguments() {
    for (flag, value, field) in [
        (
            "--resource-url",
            "https://api.example.com/\u{202e}atad",
            "resourceUrl",
        ),
        (
            "--pay-to",
            "0x209693Bc6afc0C5328bA36FaF03C514EF312287C\u{200b}",
            "payTo",
        ),
        ("--chain", "base\u{feff}", "chain"),
    ] {
        let mut args = lookup_args("http://127.0.0.1:9", "r", &[]);
        let i = args.iter().position(|a| *a == flag).unwrap();
        args[i + 1] = value;
        let (code, out, err) = run(&args).await;
        let expected = format!("x402-verdict: {field} contains an invisible format character");
        assert_eq!(
            (code, out.as_str(), err.trim()),
            (2, "", expected.as_str()),
            "{flag}"
        );
    }
}

#[tokio::test]
async fn check_echoes_its_url_escaped() {
    let app = Router::new();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    // Answered 404: the URL is named as parsed, its ESC percent-encoded.
    let hostile = format!("{url}/\u{1b}[2J\u{1b}]0;pwned\u{7}.json");
    let (code, out, err) = run(&["check", &hostile]).await;
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out.trim(),
        format!("GET {url}/%1B[2J%1B]0;pwned%07.json answered HTTP 404: it asks for no payment, so there is nothing to check.")
    );
    // Not a URL at all: the argument is named with its ESC escaped.
    let (code, out, err) = run(&["check", "\u{1b}[2Jnowhere\u{202e}"]).await;
    assert_eq!(
        (code, out.as_str(), err.trim()),
        (
            2,
            "",
            r"x402-verdict: \u{1b}[2Jnowhere\u{202e}: not an absolute http:// or https:// URL"
        )
    );
    // clap's own errors echo the argument escaped, too.
    let (code, out, err) = run(&[
        "lookup",
        "--base-url",
        "\u{1b}]0;pwned\u{7}",
        "--chain",
        "c",
        "--pay-to",
        "p",
        "--resource-url",
        "r",
    ])
    .await;
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains(r"\u{1b}]0;pwned\u{7}"), "{err}");
    assert_shown(&out, &err);
}
