//! `x402-verdict check`: reads an endpoint's x402 payment challenge without
//! paying it, and looks up the verdict of every option it accepts.

use std::path::PathBuf;
use std::time::Duration;

use futures_util::future::join_all;
use reqwest::header::{HeaderValue, ACCEPT};
use serde_json::{json, Value};
use x402_verdict_core::challenge::MAX_CHALLENGE_BYTES;
use x402_verdict_core::json::parse_strict;
use x402_verdict_core::{BaseUrl, Challenge};

use super::lookup::{parse_base_url, TrustArgs};
use super::verifier::http_client;

/// The header an x402 v2 server sends its challenge in.
const PAYMENT_REQUIRED: &str = "payment-required";

/// Options of `check`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["url", "from_file", "header"])))]
pub struct CheckArgs {
    /// The paid resource to ask (never paid: no payment header is sent).
    pub url: Option<String>,
    /// The HTTP method to ask with.
    #[arg(long, value_enum, default_value_t = HttpMethod::Get, conflicts_with_all = ["from_file", "header"])]
    pub method: HttpMethod,
    /// Read the challenge from a file instead: a saved 402 body or MCP tool result.
    #[arg(long, value_name = "FILE")]
    pub from_file: Option<PathBuf>,
    /// Read the challenge from a PAYMENT-REQUIRED header value instead.
    #[arg(long, value_name = "VALUE")]
    pub header: Option<String>,
    /// The verification service's base URL (absent: every option is `unknown`, outcome `no_service`).
    #[arg(long, value_parser = parse_base_url)]
    pub base_url: Option<BaseUrl>,
    /// The keys, strictness and timeout (which also bounds asking the resource).
    #[command(flatten)]
    pub trust: TrustArgs,
    /// Print the options with their structured results as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The methods a paid resource may be asked with.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum HttpMethod {
    /// GET.
    #[value(name = "GET", alias = "get")]
    Get,
    /// POST, with an empty body.
    #[value(name = "POST", alias = "post")]
    Post,
}

/// What reading the challenge gave.
enum Read {
    /// A challenge, and the HTTP status it came with (none from a file or header).
    Challenge(Challenge, Option<u16>),
    /// No payment asked: what was found instead, in a few words.
    NoPayment(String, Option<u16>),
}

/// Reads the challenge, looks every option up concurrently and prints one
/// line per option (or JSON). An answer that asks for no payment prints what
/// it was and looks nothing up.
///
/// # Errors
///
/// A resource that cannot be asked, or a challenge that cannot be read.
pub async fn check(args: CheckArgs) -> Result<(), String> {
    let verifier = args.trust.verifier(args.base_url.clone())?;
    let (challenge, status) = match read(&args).await? {
        Read::Challenge(challenge, status) => (challenge, status),
        Read::NoPayment(what, status) => {
            if args.json {
                let mut out = json!({ "options": [] });
                if let Some(status) = status {
                    out["status"] = json!(status);
                }
                println!("{out}");
            } else {
                println!("{what}: it asks for no payment, so there is nothing to check.");
            }
            return Ok(());
        }
    };
    let results = join_all(
        challenge
            .options
            .iter()
            .map(|option| verifier.check(option.endpoint.clone())),
    )
    .await;
    if args.json {
        let options: Vec<Value> = challenge
            .options
            .iter()
            .zip(&results)
            .map(|(option, result)| {
                let mut entry = serde_json::to_value(option).unwrap_or_default();
                entry["result"] = serde_json::to_value(result).unwrap_or_default();
                entry
            })
            .collect();
        let mut out = json!({ "x402Version": challenge.version, "options": options });
        if let Some(status) = status {
            out["status"] = json!(status);
        }
        println!("{out}");
    } else {
        for (option, result) in challenge.options.iter().zip(&results) {
            let e = &option.endpoint;
            println!(
                "network {}, asset {}, amount {}, payTo {}, scheme {}, resource {}: {}",
                e.chain(),
                option.asset,
                option.amount,
                e.pay_to(),
                option.scheme,
                e.resource_url(),
                result.text_line()
            );
        }
    }
    Ok(())
}

async fn read(args: &CheckArgs) -> Result<Read, String> {
    if let Some(header) = &args.header {
        return Challenge::from_header(header)
            .map(|c| Read::Challenge(c, None))
            .map_err(|e| e.to_string());
    }
    if let Some(path) = &args.from_file {
        let name = path.display();
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        if bytes.len() > MAX_CHALLENGE_BYTES {
            return Err(format!("{name}: larger than 64 KiB"));
        }
        let value = parse_strict(&bytes).map_err(|e| format!("{name}: not strict JSON: {e}"))?;
        return match Challenge::from_saved(&value).map_err(|e| format!("{name}: {e}"))? {
            Some(challenge) => Ok(Read::Challenge(challenge, None)),
            None => Ok(Read::NoPayment(
                format!("{name} is a tool result that is not an error"),
                None,
            )),
        };
    }
    let url = args.url.as_deref().unwrap_or_default();
    let timeout = Duration::from_millis(args.trust.timeout_ms.into());
    tokio::time::timeout(timeout, ask(url, args.method))
        .await
        .map_err(|_| {
            format!(
                "{url}: no complete answer within {} ms",
                args.trust.timeout_ms
            )
        })?
}

/// Asks the resource without paying: no payment header, no credentials, no
/// redirect to another origin, at most 64 KiB of body.
async fn ask(url: &str, method: HttpMethod) -> Result<Read, String> {
    let parsed = reqwest::Url::parse(url)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .ok_or_else(|| format!("{url}: not an absolute http:// or https:// URL"))?;
    let (verb, request) = match method {
        HttpMethod::Get => ("GET", http_client()?.get(parsed)),
        HttpMethod::Post => ("POST", http_client()?.post(parsed)),
    };
    let mut response = request
        .header(ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| format!("{verb} {url}: no answer ({e})"))?;
    let status = response.status();
    if status.as_u16() != 402 {
        let redirect = if status.is_redirection() {
            " (a redirect to another origin, not followed)"
        } else {
            ""
        };
        return Ok(Read::NoPayment(
            format!("{verb} {url} answered HTTP {}{redirect}", status.as_u16()),
            Some(status.as_u16()),
        ));
    }
    let mut headers = response.headers().get_all(PAYMENT_REQUIRED).iter();
    let header = match (headers.next(), headers.next()) {
        (Some(_), Some(_)) => {
            return Err(format!(
                "{verb} {url}: more than one PAYMENT-REQUIRED header"
            ))
        }
        (one, _) => one
            .map(header_text)
            .transpose()
            .map_err(|e| format!("{verb} {url}: {e}"))?,
    };
    let mut body = Vec::new();
    let mut too_large = false;
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| format!("{verb} {url}: the body broke off ({e})"))?
    {
        if body.len() + chunk.len() > MAX_CHALLENGE_BYTES {
            too_large = true;
            break;
        }
        body.extend_from_slice(&chunk);
    }
    if too_large {
        if header.is_none() {
            return Err(format!(
                "{verb} {url}: no PAYMENT-REQUIRED header, and the body is larger than 64 KiB"
            ));
        }
        // The header holds the challenge; an oversized body is not read.
        body.clear();
    }
    Challenge::from_http(header.as_deref(), &body)
        .map(|c| Read::Challenge(c, Some(402)))
        .map_err(|e| format!("{verb} {url} answered 402, but {e}"))
}

fn header_text(value: &HeaderValue) -> Result<String, String> {
    value
        .to_str()
        .map(str::to_owned)
        .map_err(|_| "the PAYMENT-REQUIRED header is not ASCII".to_owned())
}
