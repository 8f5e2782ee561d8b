//! The log's side of tlog-witness: each checkpoint is posted to every
//! witness's `add-checkpoint` with the consistency proof from the size the
//! witness last cosigned; a 409 `text/x.tlog.size` says that size, and the
//! request is sent again from it. The witnesses are asked together, each
//! within [`WITNESS_TIMEOUT`]; one that refuses or is down leaves its
//! cosignature out and the checkpoint stands without it.

use std::sync::Mutex;
use std::time::Duration;

use futures_util::future::join_all;
use x402_verdict_consumer::{body_capped, http_client, HttpClientError};
use x402_verdict_core::encode_base64;
use x402_verdict_core::transparency::{decimal, Note, Tree};
use x402_verdict_core::BaseUrl;

/// How long a witness has to answer one request.
pub const WITNESS_TIMEOUT: Duration = Duration::from_secs(3);

/// The most bytes read of a witness's answer (its cosignature lines, or a
/// size, or a reason).
const MAX_ANSWER_BYTES: usize = 4096;

/// The media type of a witness's 409 that says its size.
const SIZE_MEDIA_TYPE: &str = "text/x.tlog.size";

/// The witnesses of the log, and the size each last cosigned (learned
/// from its answers; 0 until then).
pub(crate) struct Witnesses {
    client: reqwest::Client,
    witnesses: Vec<(BaseUrl, Mutex<u64>)>,
}

/// Why a witness gave no cosignature.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    #[error("{0}")]
    Network(#[from] reqwest::Error),
    #[error("did not answer within {}s", WITNESS_TIMEOUT.as_secs())]
    Timeout,
    #[error("answered {0}: {1}")]
    Status(u16, String),
    #[error("has cosigned {0} entries, more than the log holds")]
    Ahead(u64),
    #[error("answer broke off: {0}")]
    BrokenOff(String),
    #[error("answered more than {MAX_ANSWER_BYTES} bytes")]
    TooLong,
    #[error("answered lines that are no cosignature")]
    NotCosignature,
    #[error("changed its size twice in one request")]
    Moving,
}

impl Witnesses {
    /// The witnesses at `urls`.
    pub(crate) fn new(urls: Vec<BaseUrl>) -> Result<Self, HttpClientError> {
        Ok(Witnesses {
            client: http_client()?,
            witnesses: urls.into_iter().map(|url| (url, Mutex::new(0))).collect(),
        })
    }

    /// The cosignature lines of the witnesses that cosigned `checkpoint`
    /// (the log's signed note of `tree`'s size), in the witnesses' order.
    pub(crate) async fn cosign(&self, tree: &Tree, checkpoint: &str) -> String {
        let asked = self
            .witnesses
            .iter()
            .map(|(url, size)| self.ask(url, size, tree, checkpoint));
        let mut lines = String::new();
        for ((url, _), answer) in self.witnesses.iter().zip(join_all(asked).await) {
            match answer {
                // Together, within a note's bounds: a witness whose lines
                // would pass them is left out, not the others.
                Ok(cosignature)
                    if Note::parse(&[checkpoint, &lines, &cosignature].concat()).is_none() =>
                {
                    tracing::warn!(witness = %url, "no cosignature: the witness's lines pass the note's bounds");
                }
                Ok(cosignature) => lines.push_str(&cosignature),
                Err(refusal) => {
                    tracing::warn!(witness = %url, "no cosignature: the witness {refusal}")
                }
            }
        }
        lines
    }

    /// One witness asked, from the size it last said it cosigned.
    async fn ask(
        &self,
        url: &BaseUrl,
        known: &Mutex<u64>,
        tree: &Tree,
        checkpoint: &str,
    ) -> Result<String, Refusal> {
        let size = tree.size();
        for _ in 0..2 {
            let old = *known.lock().unwrap_or_else(|e| e.into_inner());
            let proof = tree
                .consistency_proof(old, size)
                .ok_or(Refusal::Ahead(old))?;
            let mut body = format!("old {old}\n");
            for hash in &proof {
                body.push_str(&encode_base64(hash));
                body.push('\n');
            }
            body.push('\n');
            body.push_str(checkpoint);
            let (status, media_type, answer) =
                tokio::time::timeout(WITNESS_TIMEOUT, self.post(url, body))
                    .await
                    .map_err(|_| Refusal::Timeout)??;
            match status {
                200 => {
                    let cosigned = [checkpoint, &answer].concat();
                    let lines = Note::parse(&cosigned).map(|n| n.signatures.len());
                    let before = Note::parse(checkpoint).map(|n| n.signatures.len());
                    if answer.is_empty() || lines.is_none() || lines <= before {
                        return Err(Refusal::NotCosignature);
                    }
                    *known.lock().unwrap_or_else(|e| e.into_inner()) = size;
                    return Ok(answer);
                }
                409 if media_type.starts_with(SIZE_MEDIA_TYPE) => {
                    let said = decimal(answer.trim_end_matches('\n'))
                        .ok_or_else(|| Refusal::Status(409, one_line(&answer)))?;
                    *known.lock().unwrap_or_else(|e| e.into_inner()) = said;
                }
                _ => return Err(Refusal::Status(status, one_line(&answer))),
            }
        }
        Err(Refusal::Moving)
    }

    /// Posts `body` to the witness's `add-checkpoint`: the status, the
    /// media type and the answer (bounded).
    async fn post(&self, url: &BaseUrl, body: String) -> Result<(u16, String, String), Refusal> {
        let response = self
            .client
            .post(format!("{url}/add-checkpoint"))
            .body(body)
            .send()
            .await?;
        let status = response.status().as_u16();
        let media_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let answer = body_capped(response, MAX_ANSWER_BYTES)
            .await
            .map_err(|e| match e.detail {
                None => Refusal::TooLong,
                Some(words) => Refusal::BrokenOff(words),
            })?;
        Ok((
            status,
            media_type,
            String::from_utf8_lossy(&answer).into_owned(),
        ))
    }
}

/// The first line of a witness's words, its control characters dropped.
fn one_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    line.chars().filter(|c| !c.is_control()).take(200).collect()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use axum::http::header::CONTENT_TYPE;
    use axum::routing::post;
    use x402_verdict_core::ed25519_dalek::SigningKey;
    use x402_verdict_core::transparency::{cosign, leaf_hash, sign_note, Checkpoint};

    use super::*;

    const ORIGIN: &str = "verdicts.example/log";

    /// A witness on loopback answering each request with `answer` (given
    /// the body and how many requests came before): its URL.
    async fn witness(
        answer: impl Fn(String, usize) -> (u16, &'static str, String) + Clone + Send + Sync + 'static,
    ) -> BaseUrl {
        let asked = Arc::new(AtomicUsize::new(0));
        let app = axum::Router::new().route(
            "/add-checkpoint",
            post(move |body: String| {
                let (answer, asked) = (answer.clone(), asked.clone());
                async move {
                    let (status, media_type, text) =
                        answer(body, asked.fetch_add(1, Ordering::SeqCst));
                    let status = axum::http::StatusCode::from_u16(status).unwrap();
                    (status, [(CONTENT_TYPE, media_type)], text)
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        BaseUrl::parse(&format!("http://{addr}/")).unwrap()
    }

    #[tokio::test]
    async fn a_witness_behind_is_asked_again_and_one_past_the_bounds_left_out() {
        let tree = Tree::from_leaves((0..5u8).map(|i| leaf_hash(&[i])));
        let text = Checkpoint {
            origin: ORIGIN.into(),
            size: 5,
            root: tree.root(5).unwrap(),
            extensions: vec![],
        }
        .to_text();
        let log = SigningKey::from_bytes(&[1; 32]);
        let checkpoint = [
            text.clone(),
            "\n".into(),
            sign_note(&text, ORIGIN, &log).unwrap(),
        ]
        .concat();
        let key = SigningKey::from_bytes(&[2; 32]);
        let line = cosign(&text, "w.example", &key, 1_790_000_000).unwrap();
        // It has cosigned 3: it says so, then takes the proof from 3.
        let good = line.clone();
        let behind = witness(move |body, asked| match asked {
            0 => (409, "text/x.tlog.size", "3\n".into()),
            _ if body.starts_with("old 3\n") => (200, "text/plain", good.clone()),
            _ => (400, "text/plain", "wrong old size\n".into()),
        })
        .await;
        // 31 lines: within the bounds alone, past them beside the first.
        let flood = line.repeat(31);
        let flooding = witness(move |_, _| (200, "text/plain", flood.clone())).await;
        let refusing = witness(|_, _| (422, "text/plain", "split\u{1b}[2J view\n".into())).await;
        let witnesses = Witnesses::new(vec![behind, flooding, refusing]).unwrap();
        let lines = witnesses.cosign(&tree, &checkpoint).await;
        assert_eq!(lines, line);
        assert_eq!(*witnesses.witnesses[0].1.lock().unwrap(), 5);
        assert_eq!(one_line("split\u{1b}[2J view\nmore"), "split[2J view");
    }
}
