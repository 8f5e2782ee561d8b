//! A lookup that gets no HTTP answer says why in the client's own words:
//! the result's `detail` (a refused connection, a body that broke off), in
//! a verifier that keeps answers as in one that does not.

use std::io::{Read, Write};
use std::net::TcpListener;

use x402_verdict_consumer::{FetchError, Verifier};
use x402_verdict_core::{BaseUrl, Endpoint, FetchFailure, Outcome, Reason, TrustedKeys};

fn endpoint() -> Endpoint {
    Endpoint::new(
        "base",
        "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
        "https://api.example/data",
    )
    .unwrap()
}

fn verifier(base_url: &str) -> Verifier {
    let base = BaseUrl::parse(base_url).unwrap();
    Verifier::new(Some(base), TrustedKeys::none(), false, 5000).unwrap()
}

/// A loopback port nothing listens on (bound, then let go).
fn closed_port() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://{}", listener.local_addr().unwrap())
}

#[tokio::test]
async fn a_refused_connection_is_named_in_the_detail() {
    let base = closed_port();
    for verifier in [verifier(&base), verifier(&base).keeping_answers()] {
        // Two lookups at once: a keeping verifier shares one request.
        let (a, b) = tokio::join!(verifier.check(endpoint()), verifier.check(endpoint()));
        for result in [a, b] {
            assert_eq!(
                (result.outcome, result.reason),
                (Outcome::NoResponse, Some(Reason::NetworkError))
            );
            let detail = result.detail.unwrap_or_default();
            // Every system's words for it say "refused" (Linux and macOS
            // "Connection refused", Windows "… actively refused it").
            assert!(detail.to_lowercase().contains("refused"), "{detail}");
            assert!(!detail.contains(&base), "the URL is the caller's: {detail}");
        }
    }
    let got = verifier(&base)
        .get_json(&format!("{base}/v0/metrics"), 1024)
        .await;
    assert!(
        matches!(&got, Err(FetchError { failure: FetchFailure::Network, detail: Some(d) }) if d.to_lowercase().contains("refused")),
        "{got:?}"
    );
}

#[tokio::test]
async fn a_body_that_broke_off_is_named_in_the_detail() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    // One answer that promises 1,000 bytes and closes after 12.
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = [0; 4096];
        let _ = stream.read(&mut request);
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"verdict\":{");
    });
    let result = verifier(&base).check(endpoint()).await;
    assert_eq!(result.reason, Some(Reason::NetworkError));
    assert!(
        result.detail.as_ref().is_some_and(|d| !d.is_empty()),
        "{result:?}"
    );
}
