//! A verdict stapled to the 402 stands in for the request when the core
//! takes it, and is otherwise ignored: the endpoint is looked up as if
//! nothing were stapled (the service's requests counted on loopback). The
//! guard's lookup without configured keys (`check_paying`: the keys the
//! service publishes), and the seller's side (`stapled_verdict`: answered
//! at once, fetched in the background).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use x402_verdict_consumer::Verifier;
use x402_verdict_core::ed25519_dalek::SigningKey;
use x402_verdict_core::json::Object;
use x402_verdict_core::staple::Source;
use x402_verdict_core::SignatureStatus;
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

/// A loopback service answering every request with `body` (kept by
/// nobody), and how many requests it has had.
fn service(body: String) -> (BaseUrl, Arc<AtomicUsize>) {
    serve(move |_| (body.clone(), "no-store"))
}

/// A loopback service answering each request with what `answer` gives for
/// its request line (the body, and its `Cache-Control`), and how many
/// requests it has had.
fn serve(
    answer: impl Fn(&str) -> (String, &'static str) + Send + 'static,
) -> (BaseUrl, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = BaseUrl::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0; 4096];
            let n = stream.read(&mut request).unwrap_or(0);
            counter.fetch_add(1, Ordering::SeqCst);
            let (body, cache) = answer(&String::from_utf8_lossy(&request[..n]));
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: {cache}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
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

/// A service publishing `key`'s public key and answering verdicts with
/// `verdict`, both kept a minute: its URL, and the requests it had for
/// verdicts and for its keys.
fn publishing(verdict: String, key: &SigningKey) -> (BaseUrl, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let public = STANDARD.encode(key.verifying_key().as_bytes());
    let keys = format!(r#"{{"keys":[{{"algorithm":"Ed25519","publicKey":"{public}"}}]}}"#);
    let (verdicts, keys_asked) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let counters = (Arc::clone(&verdicts), Arc::clone(&keys_asked));
    let (base, _) = serve(move |request| {
        let (counter, body) = if request.starts_with("GET /v0/verification-keys") {
            (&counters.1, &keys)
        } else {
            (&counters.0, &verdict)
        };
        counter.fetch_add(1, Ordering::SeqCst);
        (body.clone(), "max-age=60")
    });
    (base, verdicts, keys_asked)
}

#[tokio::test]
async fn without_keys_a_staple_costs_the_keys_document_once() {
    let (base, verdicts, keys) = publishing(signed("revoked", 0, &key()), &key());
    let verifier = Verifier::new(Some(base), TrustedKeys::none(), true, 5000)
        .unwrap()
        .keeping_answers();
    let good = signed("human_backed", 0, &key());
    for _ in 0..2 {
        let (result, source) = verifier.check_paying(endpoint(), Some(&good)).await;
        assert_eq!(
            (result.state, source),
            (State::HumanBacked, Source::Stapled)
        );
    }
    assert_eq!(keys.load(Ordering::SeqCst), 1, "the keys, kept");
    assert_eq!(verdicts.load(Ordering::SeqCst), 0);
    // Another key's staple: looked up live, under the published keys.
    let other = signed("human_backed", 0, &SigningKey::from_bytes(&[7; 32]));
    let (result, source) = verifier.check_paying(endpoint(), Some(&other)).await;
    assert_eq!((result.state, source), (State::Revoked, Source::Fetched));
    assert_eq!(result.signature, SignatureStatus::Valid);
    assert_eq!(verdicts.load(Ordering::SeqCst), 1);
}

/// The keys the service publishes stand in for the configured ones, and
/// the transparency log stays: a verdict with no proof reads unknown under
/// `required`, fetched or stapled, its signature valid.
#[tokio::test]
async fn without_keys_the_published_keys_keep_the_transparency_log() {
    use x402_verdict_core::transparency::{KeyKind, LogConfig, LogSettings, NoteKey};
    use x402_verdict_core::Reason;
    let log_key = NoteKey::new("log.example", KeyKind::Note, key().verifying_key())
        .unwrap()
        .to_text();
    let log = LogConfig::from_settings(&LogSettings {
        log_key: Some(&log_key),
        transparency: Some("required"),
        ..LogSettings::default()
    })
    .unwrap();
    let (base, _, _) = publishing(signed("human_backed", 0, &key()), &key());
    let keys = TrustedKeys::none().with_log(log);
    let verifier = Verifier::new(Some(base), keys, false, 5000).unwrap();
    let good = signed("human_backed", 0, &key());
    for stapled in [None, Some(good.as_str())] {
        let (result, _) = verifier.check_paying(endpoint(), stapled).await;
        assert_eq!(
            (result.state, result.reason, result.signature),
            (
                State::Unknown,
                Some(Reason::NoTransparencyProof),
                SignatureStatus::Valid
            ),
            "{stapled:?}"
        );
    }
}

#[tokio::test]
async fn a_seller_staples_at_once_what_it_keeps_and_fetches_the_rest_behind() {
    let (base, verdicts, _) = publishing(signed("human_backed", 0, &key()), &key());
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
    assert_eq!(verdicts.load(Ordering::SeqCst), 1, "one request");
    // Without configured keys nothing is stapled: the core takes no
    // unchecked verdict in place of a request.
    let keyless = Verifier::new(Some(base), TrustedKeys::none(), true, 5000)
        .unwrap()
        .keeping_answers();
    keyless.stapled_verdict(endpoint());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(keyless.stapled_verdict(endpoint()), None);
}
