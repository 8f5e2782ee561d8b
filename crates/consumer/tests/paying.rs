//! The lookup of code about to pay (`Verifier::check_paying`: without
//! configured keys, the keys the service publishes) and the seller's side
//! of a staple (`Verifier::stapled_verdict`: answered at once, fetched in
//! the background), against a loopback service whose requests are counted.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use base64::Engine;
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

/// A document signed by `key` now, with `outcome`.
fn signed(outcome: &str, key: &SigningKey) -> String {
    let now = Timestamp::from_system_time(SystemTime::now());
    let verdict = format!(
        r#"{{"v":1,"chain":"base","payTo":"{PAY_TO}","resourceUrl":"{RESOURCE}","outcome":"{outcome}","assuranceLevel":"G","verifiedAt":"{at}","recheckEveryHours":24,"issuedAt":"{at}","keyId":"0000000000000000"}}"#,
        at = now.to_rfc3339()
    );
    sign_verdict(Object::parse(verdict.as_bytes()).unwrap(), key).unwrap()
}

/// The requests a loopback service got: for verdicts, and for its keys.
#[derive(Default)]
struct Asked {
    verdicts: AtomicUsize,
    keys: AtomicUsize,
}

/// A loopback service answering verdicts with `verdict` and its keys with
/// the demo key's document (both kept a minute), and what it was asked.
fn service(verdict: String) -> (BaseUrl, Arc<Asked>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = BaseUrl::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
    let asked = Arc::new(Asked::default());
    let counter = Arc::clone(&asked);
    let public = base64::engine::general_purpose::STANDARD.encode(key().verifying_key().as_bytes());
    let keys = format!(r#"{{"keys":[{{"algorithm":"Ed25519","publicKey":"{public}"}}]}}"#);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0; 4096];
            let n = stream.read(&mut request).unwrap_or(0);
            let line = String::from_utf8_lossy(&request[..n]);
            let body = if line.starts_with("GET /v0/verification-keys") {
                counter.keys.fetch_add(1, Ordering::SeqCst);
                &keys
            } else {
                counter.verdicts.fetch_add(1, Ordering::SeqCst);
                &verdict
            };
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: max-age=60\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all((head + body).as_bytes());
        }
    });
    (base, asked)
}

#[tokio::test]
async fn without_keys_a_staple_costs_the_keys_document_once() {
    let (base, asked) = service(signed("revoked", &key()));
    let verifier = Verifier::new(Some(base), TrustedKeys::none(), true, 5000)
        .unwrap()
        .keeping_answers();
    let good = signed("human_backed", &key());
    for _ in 0..2 {
        let (result, source) = verifier.check_paying(endpoint(), Some(&good)).await;
        assert_eq!(
            (result.state, source),
            (State::HumanBacked, Source::Stapled)
        );
    }
    assert_eq!(asked.keys.load(Ordering::SeqCst), 1, "the keys, kept");
    assert_eq!(asked.verdicts.load(Ordering::SeqCst), 0);
    // Another key's staple: looked up live, under the published keys.
    let other = signed("human_backed", &SigningKey::from_bytes(&[7; 32]));
    let (result, source) = verifier.check_paying(endpoint(), Some(&other)).await;
    assert_eq!((result.state, source), (State::Revoked, Source::Fetched));
    assert_eq!(
        result.signature,
        x402_verdict_core::signing::SignatureStatus::Valid
    );
    assert_eq!(asked.verdicts.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_seller_staples_at_once_what_it_keeps_and_fetches_the_rest_behind() {
    let (base, asked) = service(signed("human_backed", &key()));
    let keys = TrustedKeys::from_keys([key().verifying_key()]);
    let seller = Verifier::new(Some(base.clone()), keys, true, 5000)
        .unwrap()
        .keeping_answers();
    assert_eq!(seller.stapled_verdict(endpoint()), None, "nothing kept yet");
    let deadline = Instant::now() + Duration::from_secs(10);
    let stapled = loop {
        if let Some(text) = seller.stapled_verdict(endpoint()) {
            break text;
        }
        assert!(Instant::now() < deadline, "fetched in the background");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert!(stapled.contains("human_backed"));
    assert_eq!(asked.verdicts.load(Ordering::SeqCst), 1, "one request");
    // Without configured keys nothing is stapled: the core takes no
    // unchecked verdict in place of a request.
    let keyless = Verifier::new(Some(base), TrustedKeys::none(), true, 5000)
        .unwrap()
        .keeping_answers();
    keyless.stapled_verdict(endpoint());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(keyless.stapled_verdict(endpoint()), None);
}
