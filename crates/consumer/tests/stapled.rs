//! A verdict stapled to the 402 stands in for the request when the core
//! takes it, and is otherwise ignored: the endpoint is looked up as if
//! nothing were stapled (the service's requests counted on loopback).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::SystemTime;

use x402_verdict_consumer::Verifier;
use x402_verdict_core::ed25519_dalek::SigningKey;
use x402_verdict_core::json::Object;
use x402_verdict_core::staple::Source;
use x402_verdict_core::{sign_verdict, BaseUrl, Endpoint, State, Timestamp, TrustedKeys};

const PAY_TO: &str = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const RESOURCE: &str = "https://api.example/data";

fn key() -> SigningKey {
    SigningKey::from_bytes(&[42; 32])
}

fn endpoint() -> Endpoint {
    Endpoint::new("eip155:8453", PAY_TO, RESOURCE).unwrap()
}

/// A document signed by `key`, issued `age` seconds ago, with `outcome`.
fn signed(outcome: &str, age: i64, key: &SigningKey) -> String {
    let now = Timestamp::from_system_time(SystemTime::now()).plus_seconds(-age);
    let verdict = format!(
        r#"{{"v":1,"chain":"base","payTo":"{PAY_TO}","resourceUrl":"{RESOURCE}","outcome":"{outcome}","assuranceLevel":"G","verifiedAt":"{at}","recheckEveryHours":24,"issuedAt":"{at}","keyId":"0000000000000000"}}"#,
        at = now.to_rfc3339()
    );
    sign_verdict(Object::parse(verdict.as_bytes()).unwrap(), key).unwrap()
}

/// A loopback service answering every request with `body`, and how many
/// requests it has had.
fn service(body: String) -> (BaseUrl, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = BaseUrl::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0; 4096];
            let _ = stream.read(&mut request);
            counter.fetch_add(1, Ordering::SeqCst);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all((head + &body).as_bytes());
        }
    });
    (base, asked)
}

#[tokio::test]
async fn a_fresh_valid_staple_asks_nothing_and_anything_else_asks_the_service() {
    let (base, asked) = service(signed("revoked", 0, &key()));
    let trusting = |keys| Verifier::new(Some(base.clone()), keys, true, 5000).unwrap();
    let mine = || TrustedKeys::from_keys([key().verifying_key()]);
    let verifier = trusting(mine());

    let good = signed("human_backed", 0, &key());
    let (result, source) = verifier.check_stapled(endpoint(), Some(&good)).await;
    assert_eq!(
        (result.state, source),
        (State::HumanBacked, Source::Stapled)
    );
    assert_eq!(asked.load(Ordering::SeqCst), 0, "no request for a staple");

    let tampered = good.replace("\"G\"", "\"A\"");
    let other_key = signed("human_backed", 0, &SigningKey::from_bytes(&[7; 32]));
    let aged = signed("human_backed", 301, &key());
    let cases = [
        ("tampered", verifier.clone(), Some(tampered)),
        ("301 s old", verifier.clone(), Some(aged)),
        ("another key's", verifier.clone(), Some(other_key)),
        (
            "no keys configured",
            trusting(TrustedKeys::none()),
            Some(good),
        ),
        ("nothing stapled", verifier.clone(), None),
    ];
    for (i, (name, verifier, stapled)) in cases.into_iter().enumerate() {
        let (result, source) = verifier.check_stapled(endpoint(), stapled.as_deref()).await;
        // The live verdict's result: the service says revoked.
        assert_eq!(
            (result.state, source),
            (State::Revoked, Source::Fetched),
            "{name}"
        );
        assert_eq!(asked.load(Ordering::SeqCst), i + 1, "{name}: one request");
    }
}
