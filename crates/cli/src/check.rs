//! `x402-verdict check`: reads an endpoint's x402 payment challenge without
//! paying it, and looks up the verdict of every option it accepts.

use std::path::PathBuf;

use serde_json::json;
use x402_verdict_core::json::{parse_strict, ParseError};
use x402_verdict_core::{
    line, BaseUrl, Challenge, ChallengeError, ChallengeRule, MAX_CHALLENGE_BYTES,
};

use crate::lookup::{parse_base_url, TrustArgs};
use crate::out::say;
use crate::shown::Shown;
use x402_verdict_consumer::challenge::{
    look_up, option_entries, option_line, AskError, Method, Read, Resource,
};
use x402_verdict_consumer::{http_client, HttpClientError};

/// Options of `check`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["url", "from_file", "header", "badge"])))]
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
    /// Check an image badge instead (an SVG file, or its URL): the verdict
    /// it carries, under the keys given (`--public-key`), read only when its
    /// picture is the one that verdict draws.
    #[arg(long, value_name = "FILE|URL", conflicts_with_all = ["from_file", "header", "base_url"])]
    pub badge: Option<String>,
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

impl From<HttpMethod> for Method {
    fn from(method: HttpMethod) -> Method {
        match method {
            HttpMethod::Get => Method::Get,
            HttpMethod::Post => Method::Post,
        }
    }
}

/// Why `check` failed, and so its exit code: a resource that gave no
/// challenge (exit 1), or bad input (exit 2): an argument, a URL that is not
/// http(s), a challenge that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The resource gave no challenge, or one that cannot be read, or its
    /// URL is not http(s).
    #[error(transparent)]
    Ask(#[from] AskError),
    /// The HTTP client cannot start.
    #[error(transparent)]
    Client(#[from] HttpClientError),
    /// The trust settings make no verifier.
    #[error(transparent)]
    Trust(#[from] crate::lookup::TrustError),
    /// `--badge`'s image cannot be read.
    #[error(transparent)]
    Badge(#[from] crate::badge::BadgeError),
    /// `--header`'s value is not a challenge.
    #[error(transparent)]
    Header(ChallengeError),
    /// `--from-file`'s file cannot be read.
    #[error("{}", path.display())]
    FileUnreadable {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// `--from-file`'s file is larger than 64 KiB.
    #[error("{}: larger than 64 KiB", .0.display())]
    FileTooLarge(PathBuf),
    /// `--from-file`'s file is not strict JSON.
    #[error("{}: not strict JSON", path.display())]
    FileNotJson {
        /// The file.
        path: PathBuf,
        /// The rule broken, and where.
        source: ParseError,
    },
    /// `--from-file`'s file is the `{}` body of an x402 v2 402 answer,
    /// whose challenge is in its header.
    #[error("{}: {}: run `x402-verdict check URL`, which reads that header, or pass its value with --header", path.display(), line(problem))]
    FileIsBodyOnly {
        /// The file.
        path: PathBuf,
        /// What is wrong with it ([`ChallengeRule::EmptyObject`]).
        problem: ChallengeError,
    },
    /// `--from-file`'s file holds no challenge that can be read.
    #[error("{}", path.display())]
    FileNotAChallenge {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: ChallengeError,
    },
}

impl CheckError {
    /// The process's exit code for it: 2 for bad input, 1 when no challenge
    /// could be read.
    pub fn exit_code(&self) -> u8 {
        match self {
            CheckError::Ask(AskError::NoChallenge(_)) => 1,
            _ => 2,
        }
    }
}

/// Reads the challenge, looks every option up concurrently (or takes the
/// verdict it staples for it) and prints one line per option (or JSON). An answer that asks for no payment prints what
/// it was and looks nothing up.
///
/// # Errors
///
/// Bad input (a resource that cannot be asked, a challenge that cannot be
/// read), or a resource that gave no challenge.
pub async fn check(args: CheckArgs) -> Result<(), CheckError> {
    if let Some(source) = &args.badge {
        return Ok(crate::badge::check_badge(source, &args.trust, args.json).await?);
    }
    let verifier = args.trust.verifier(args.base_url.clone())?;
    let (challenge, status) = match read(&args).await? {
        Read::Challenge(challenge, status) => (challenge, status),
        Read::NoPayment(what, status) => {
            if args.json {
                let mut out = json!({ "options": [] });
                if let Some(status) = status {
                    out["status"] = json!(status);
                }
                say!("{out}");
            } else {
                say!(
                    "{}: it asks for no payment, so there is nothing to check.",
                    Shown(&what)
                );
            }
            return Ok(());
        }
    };
    let results = look_up(&verifier, &challenge).await;
    if args.json {
        let options = option_entries(&challenge, &results);
        let mut out = json!({ "x402Version": challenge.version, "options": options });
        if let Some(status) = status {
            out["status"] = json!(status);
        }
        say!("{out}");
    } else {
        for (option, (result, _)) in challenge.options.iter().zip(&results) {
            say!("{}", option_line(option, result));
        }
    }
    Ok(())
}

async fn read(args: &CheckArgs) -> Result<Read, CheckError> {
    if let Some(header) = &args.header {
        return Challenge::from_header(header)
            .map(|c| Read::Challenge(c, None))
            .map_err(CheckError::Header);
    }
    if let Some(path) = &args.from_file {
        let bytes = std::fs::read(path).map_err(|source| CheckError::FileUnreadable {
            path: path.clone(),
            source,
        })?;
        if bytes.len() > MAX_CHALLENGE_BYTES {
            return Err(CheckError::FileTooLarge(path.clone()));
        }
        let value = parse_strict(&bytes).map_err(|source| CheckError::FileNotJson {
            path: path.clone(),
            source,
        })?;
        let saved = Challenge::from_saved(&value).map_err(|source| {
            let path = path.clone();
            if source.rule == ChallengeRule::EmptyObject {
                CheckError::FileIsBodyOnly {
                    path,
                    problem: source,
                }
            } else {
                CheckError::FileNotAChallenge { path, source }
            }
        })?;
        return match saved {
            Some(challenge) => Ok(Read::Challenge(challenge, None)),
            None => Ok(Read::NoPayment(
                format!("{} is a tool result that is not an error", path.display()),
                None,
            )),
        };
    }
    let resource = Resource::parse(args.url.as_deref().unwrap_or_default(), args.method.into())?;
    Ok(resource
        .ask_within(&http_client()?, args.trust.timeout_ms)
        .await?)
}
