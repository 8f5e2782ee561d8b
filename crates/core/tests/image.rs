//! The image badge: each state's picture in each style, the verdict it
//! carries read back only from the picture that verdict draws, and what
//! the picture never holds (script, outside references, event attributes).

use ed25519_dalek::SigningKey;
use x402_verdict_core::image::{
    endpoint_url, evaluation, picture, picture_without_verdict, read, Carried, ImageError, Style,
    ENDPOINT_PAGE_PATH, IMAGE_PATH, MAX_IMAGE_BYTES,
};
use x402_verdict_core::json::Object;
use x402_verdict_core::{
    sign_verdict, BaseUrl, Endpoint, Evaluation, State, Timestamp, TrustedKeys,
};

const PAY_TO: &str = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const RESOURCE: &str = "https://api.example.com/premium-data?a=1&b=<2>";

fn key() -> SigningKey {
    SigningKey::from_bytes(&[42; 32])
}

fn keys() -> TrustedKeys {
    TrustedKeys::from_keys([key().verifying_key()])
}

fn at() -> Timestamp {
    Timestamp::parse_rfc3339("2026-09-01T09:00:00Z").unwrap()
}

/// A signed document with `outcome`, about `pay_to`.
fn document(outcome: &str, pay_to: &str) -> String {
    let verdict = format!(
        r#"{{"v": 1, "chain": "base", "payTo": "{pay_to}", "resourceUrl": "{}",
        "outcome": "{outcome}", "assuranceLevel": "A+", "verifiedAt": "2026-09-01T08:00:00Z",
        "recheckEveryHours": 24, "issuedAt": "2026-09-01T08:59:00Z", "operator": "Ops & <Co>"}}"#,
        RESOURCE.replace('"', "\\\"")
    );
    sign_verdict(Object::parse(verdict.as_bytes()).unwrap(), &key()).unwrap()
}

fn carried(outcome: &str) -> Carried {
    Carried {
        document: document(outcome, PAY_TO),
        at: at(),
    }
}

#[test]
fn each_state_is_drawn_with_the_badges_words_in_each_style() {
    let cases = [
        (
            Some(carried("human_backed")),
            State::HumanBacked,
            "✓ verified · A+",
        ),
        (Some(carried("revoked")), State::Revoked, "✕ not verified"),
        (Some(carried("stale")), State::Unknown, "? unknown"),
        (None, State::Unknown, "? unknown"),
    ];
    for (carried, state, words) in cases {
        assert_eq!(evaluation(carried.as_ref(), &keys()).state, state);
        for style in Style::ALL {
            let svg = picture(carried.as_ref(), &keys(), style);
            let shown = if style == Style::ForTheBadge {
                words.to_uppercase()
            } else {
                words.to_owned()
            };
            assert!(svg.contains(&format!(">{shown}</text>")), "{svg}");
            let height = if style == Style::ForTheBadge { 28 } else { 20 };
            assert!(svg.contains(&format!(" height=\"{height}\" ")), "{svg}");
            assert!(svg.len() <= MAX_IMAGE_BYTES, "{} bytes", svg.len());
            // Read back, it is what it carries.
            assert_eq!(read(svg.as_bytes(), &keys()), Ok(carried.clone()));
            // Nothing runs, nothing is fetched.
            let lower = svg.to_lowercase();
            for banned in [
                "<script",
                "foreignobject",
                "href",
                "url(",
                "@import",
                "javascript:",
            ] {
                assert!(!lower.contains(banned), "{banned} in {svg}");
            }
            assert!(!has_event_attribute(&lower), "{svg}");
        }
    }
}

/// Whether an attribute `on…=` is in `svg`.
fn has_event_attribute(svg: &str) -> bool {
    svg.match_indices(" on").any(|(i, _)| {
        let rest = &svg[i + 3..];
        let name = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        rest[name..].starts_with('=')
    })
}

#[test]
fn the_document_is_carried_byte_for_byte_escaped() {
    let carried = carried("human_backed");
    let svg = picture(Some(&carried), &keys(), Style::Flat);
    assert!(
        svg.contains("\"operator\":\"Ops &amp; &lt;Co&gt;\""),
        "{svg}"
    );
    assert!(svg.contains("Ops &amp; &lt;Co&gt;"), "{svg}");
    assert!(!svg.contains("<Co>"));
    let back = read(svg.as_bytes(), &keys()).unwrap().unwrap();
    assert_eq!(back.document.as_bytes(), carried.document.as_bytes());
    assert_eq!(back.at, at());
}

#[test]
fn a_picture_that_disagrees_with_its_verdict_is_refused() {
    let verified = picture(Some(&carried("human_backed")), &keys(), Style::Flat);
    let revoked = picture(Some(&carried("revoked")), &keys(), Style::Flat);
    // The verified picture carrying the revoked verdict.
    let meta = |svg: &str| {
        let start = svg.find("<metadata").unwrap();
        let end = svg.find("</metadata>").unwrap() + "</metadata>".len();
        svg[start..end].to_owned()
    };
    let swapped = verified.replace(&meta(&verified), &meta(&revoked));
    assert_eq!(
        read(swapped.as_bytes(), &keys()),
        Err(ImageError::Disagrees)
    );
    // An edited picture: another colour, another word.
    let edited = revoked.replace("not verified", "verified · A");
    assert_eq!(read(edited.as_bytes(), &keys()), Err(ImageError::Disagrees));
    // Another endpoint's verdict in this picture reads as what it is: the
    // picture names no endpoint, the verdict does (a reader that expects
    // one endpoint evaluates it against that one).
    let other = Carried {
        document: document("human_backed", "0x1111111111111111111111111111111111111111"),
        at: at(),
    };
    let moved = verified.replace(
        &meta(&verified),
        &meta(&picture(Some(&other), &keys(), Style::Flat)),
    );
    assert_eq!(read(moved.as_bytes(), &keys()), Ok(Some(other)));
    // Under keys that do not sign it, the verified picture is not drawn.
    let others = TrustedKeys::from_keys([SigningKey::from_bytes(&[7; 32]).verifying_key()]);
    assert_eq!(
        read(verified.as_bytes(), &others),
        Err(ImageError::Disagrees)
    );
    // A tampered document.
    let tampered = verified.replace("A+", "A");
    assert_eq!(
        read(tampered.as_bytes(), &keys()),
        Err(ImageError::Disagrees)
    );
}

#[test]
fn an_unreadable_image_says_why() {
    let too_large = vec![b' '; MAX_IMAGE_BYTES + 1];
    assert_eq!(read(&too_large, &keys()), Err(ImageError::TooLarge));
    assert_eq!(read(b"<svg>\xff</svg>", &keys()), Err(ImageError::NotUtf8));
    let bad = "<svg><metadata data-x402-verdict=\"urn:x402-verdict:image:v1\" data-at=\"x\">{}</metadata></svg>";
    assert_eq!(read(bad.as_bytes(), &keys()), Err(ImageError::Unreadable));
    assert_eq!(
        ImageError::Disagrees.to_string(),
        "shows another picture than the verdict it carries"
    );
}

#[test]
fn a_bad_request_is_drawn_as_a_misconfigured_badge() {
    let svg = picture_without_verdict(
        &Evaluation::invalid_input("missing query parameter payTo".into()),
        Style::Flat,
    );
    assert!(
        svg.contains("misconfigured") && svg.contains("missing query parameter payTo"),
        "{svg}"
    );
    assert!(!svg.contains("<metadata"));
}

#[test]
fn routes_about_an_endpoint_share_the_verdicts_query() {
    let base = BaseUrl::parse("https://verify.example/a/").unwrap();
    let endpoint = Endpoint::new("eip155:8453", PAY_TO, "https://x.example/p?q=1&r=é s").unwrap();
    let query = "?chain=eip155%3A8453&payTo=0x209693Bc6afc0C5328bA36FaF03C514EF312287C&resourceUrl=https%3A%2F%2Fx.example%2Fp%3Fq%3D1%26r%3D%C3%A9%20s";
    assert_eq!(
        endpoint_url(&base, IMAGE_PATH, &endpoint),
        format!("https://verify.example/a/v0/badge.svg{query}")
    );
    assert_eq!(
        endpoint_url(&base, ENDPOINT_PAGE_PATH, &endpoint),
        format!("https://verify.example/a/v0/endpoint{query}")
    );
}

#[test]
fn the_extension_reads_an_image_badges_endpoint_from_its_url() {
    use x402_verdict_core::image_badge_endpoint;
    let base = BaseUrl::parse("https://verify.example").unwrap();
    let endpoint = Endpoint::new("base", PAY_TO, RESOURCE).unwrap();
    let url = endpoint_url(&base, IMAGE_PATH, &endpoint) + "&style=flat-square";
    assert_eq!(image_badge_endpoint(&url), Ok(endpoint));
    // Spaces as `+`, as forms write them.
    let plus = "https://v.example/v0/badge.svg?chain=base&payTo=0xAb&resourceUrl=https%3A%2F%2Fa.example%2Fa+b";
    assert_eq!(
        image_badge_endpoint(plus).unwrap().resource_url(),
        "https://a.example/a b"
    );
    for (url, problem) in [
        (
            "https://v.example/v0/badge.svg?chain=base&payTo=0xAb",
            "resourceUrl is empty",
        ),
        (
            "https://v.example/v0/badge.svg?chain=base&chain=solana&payTo=0xAb&resourceUrl=x",
            "chain is empty",
        ),
        (
            "https://v.example/v0/verdict?chain=base&payTo=0xAb&resourceUrl=x",
            "chain is empty",
        ),
        (
            "https://v.example/v0/badge.svg?chain=base&payTo=0x%E2%80%AEAb&resourceUrl=x",
            "payTo contains an invisible format character",
        ),
    ] {
        assert_eq!(
            image_badge_endpoint(url).unwrap_err().to_string(),
            problem,
            "{url}"
        );
    }
}
