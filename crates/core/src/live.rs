//! Listed against live: what a resource of a facilitator's discovery
//! listing asks now, read from its own 402 answer, compared with what the
//! listing says it accepts (`x402-verdict scan --live`, and a snapshot of
//! its rows read back beside a listing's page by `endpointsFromDiscovery`:
//! [`LiveEndpoints`]). Feature `live`: outside the badge's wasm.
//!
//! A listing says what a resource accepted when it was indexed. Each listed
//! resource is read once, whatever its options and however many items name
//! it ([`listed_resources`]: by its normalized URL), and what the read gave
//! ([`Asked`]) makes one [`LiveRow`] per option ([`rows`]), of one
//! [`LiveKind`]:
//!
//! - `live`: the resource asks for the listed option now;
//! - `changed`: a listed option is asked with another term ([`Term`]: its
//!   network, `payTo`, resource URL, scheme, asset or amount), is gone, or
//!   an option the listing does not name was added;
//! - `not-402`: the resource answered without asking payment (200, 404, a
//!   5xx, a final redirect within its origin), with the status; or
//!   answered 402 with a challenge that cannot be read, with the reason;
//! - `unreachable`: no answer, in the fetcher's words (a refused or broken
//!   connection, the timeout, a redirect to another origin, a resource that
//!   is not an http(s) URL).
//!
//! Two options are the same when every term is, as the consumers match
//! endpoints (the network by its aliases, the `payTo` and an
//! asset by the address rule, the resource URL normalized, the scheme
//! exactly, the amount as a number). A live option that is not the same as
//! any listed one is paired with the first listed option left that shares
//! the most terms with it, if it keeps that option's network or `payTo`
//! (its row names the terms that differ); the others are added, and a
//! listed option left unpaired is gone. The verdicts are those of the live
//! options ([`LiveRow::asked`]); a gone option keeps its row and is never
//! looked up, so never counted as verified.

use std::collections::BTreeMap;

use crate::challenge::{option_of, text as member_text, Challenge, PaymentOption};
use crate::discovery::{DiscoveryEndpoints, DiscoveryItem, Page, PageError};
use crate::endpoint::{canonical_address, EndpointKey, MAX_FIELD_BYTES};
use crate::hidden::is_hidden;
use crate::json::MemberRule;
use crate::json::{parse_strict, ParseError, Value};
use crate::resource::normalize;
use crate::writing::{
    error_from_words, line, shortened, text, uDisplay, words_from_str, ErrorChain,
};

/// A resource of a listing, with every option the listing names for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedResource {
    /// The resource, as its first item names it: the URL read live.
    pub resource: String,
    /// Its options, in the listing's order, each once (options compared
    /// as the module says).
    pub options: Vec<PaymentOption>,
}

/// The resources of `items`, in the listing's order, each once by its
/// normalized URL, with the options of every item that names it (each
/// once).
pub fn listed_resources(items: impl IntoIterator<Item = DiscoveryItem>) -> Vec<ListedResource> {
    let mut at: BTreeMap<String, usize> = BTreeMap::new();
    let mut seen: BTreeMap<OptionKey, ()> = BTreeMap::new();
    let mut listed: Vec<ListedResource> = Vec::new();
    for item in items {
        let key = normalize(&item.resource).into_owned();
        let i = *at.entry(key).or_insert_with(|| {
            listed.push(ListedResource {
                resource: item.resource.clone(),
                options: Vec::new(),
            });
            listed.len() - 1
        });
        for option in item.options {
            if seen.insert(OptionKey::of(&option), ()).is_none() {
                listed[i].options.push(option);
            }
        }
    }
    listed
}

/// A term of a payment option, by its wire name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// `network` (the endpoint's `chain`).
    Network,
    /// `payTo`.
    PayTo,
    /// The resource URL the option names.
    ResourceUrl,
    /// `scheme`.
    Scheme,
    /// `asset`.
    Asset,
    /// `amount` (x402 v1 `maxAmountRequired`).
    Amount,
}

impl Term {
    /// Every term, in the order a row names them.
    pub const ALL: [Term; 6] = [
        Term::Network,
        Term::PayTo,
        Term::ResourceUrl,
        Term::Scheme,
        Term::Asset,
        Term::Amount,
    ];

    /// Its wire name (`payTo`).
    pub fn as_str(self) -> &'static str {
        match self {
            Term::Network => "network",
            Term::PayTo => "payTo",
            Term::ResourceUrl => "resourceUrl",
            Term::Scheme => "scheme",
            Term::Asset => "asset",
            Term::Amount => "amount",
        }
    }

    /// Its value in `option`, as written there.
    pub fn of(self, option: &PaymentOption) -> &str {
        match self {
            Term::Network => option.endpoint.chain(),
            Term::PayTo => option.endpoint.pay_to(),
            Term::ResourceUrl => option.endpoint.resource_url(),
            Term::Scheme => &option.scheme,
            Term::Asset => &option.asset,
            Term::Amount => &option.amount,
        }
    }
}

/// The terms of an option in the spelling under which two options that
/// are the same meet: the endpoint's [`EndpointKey`], the scheme as it
/// is, the asset in its canonical address spelling, the amount without
/// leading zeros.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct OptionKey {
    endpoint: EndpointKey,
    scheme: String,
    asset: String,
    amount: String,
}

impl OptionKey {
    /// The key of `option`.
    pub(crate) fn of(option: &PaymentOption) -> Self {
        let amount = option.amount.trim_start_matches('0');
        OptionKey {
            endpoint: option.endpoint.key(),
            scheme: option.scheme.clone(),
            asset: canonical_address(&option.asset).into_owned(),
            amount: if amount.is_empty() { "0" } else { amount }.to_owned(),
        }
    }

    /// Whether `term` is the same in both.
    fn same(&self, other: &OptionKey, term: Term) -> bool {
        match term {
            Term::Network => self.endpoint.chain == other.endpoint.chain,
            Term::PayTo => self.endpoint.pay_to == other.endpoint.pay_to,
            Term::ResourceUrl => self.endpoint.resource_url == other.endpoint.resource_url,
            Term::Scheme => self.scheme == other.scheme,
            Term::Asset => self.asset == other.asset,
            Term::Amount => self.amount == other.amount,
        }
    }
}

/// What changed of one option, for a [`LiveKind::Changed`] row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The resource asks for an option the listing does not name.
    Added,
    /// The listed option is no longer asked for.
    Gone,
    /// The listed option is asked with these terms changed (in
    /// [`Term::ALL`]'s order).
    Terms(Vec<Term>),
}

impl Change {
    /// Its wire words: `["added"]`, `["gone"]`, or each changed term's name.
    pub fn words(&self) -> Vec<&'static str> {
        match self {
            Change::Added => vec!["added"],
            Change::Gone => vec!["gone"],
            Change::Terms(terms) => terms.iter().map(|t| t.as_str()).collect(),
        }
    }
}

/// The kind of a row: how what a resource asks now compares with the
/// listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveKind {
    /// The resource asks for the listed option now.
    Live,
    /// An option changed, is gone, or was added ([`Change`]).
    Changed,
    /// The resource answered without a challenge that can be read.
    NotPaymentRequired,
    /// No answer.
    Unreachable,
}

impl LiveKind {
    /// Every kind.
    pub const ALL: [LiveKind; 4] = [
        LiveKind::Live,
        LiveKind::Changed,
        LiveKind::NotPaymentRequired,
        LiveKind::Unreachable,
    ];

    /// Its wire word: `live`, `changed`, `not-402` or `unreachable`.
    pub fn as_str(self) -> &'static str {
        match self {
            LiveKind::Live => "live",
            LiveKind::Changed => "changed",
            LiveKind::NotPaymentRequired => "not-402",
            LiveKind::Unreachable => "unreachable",
        }
    }
}

words_from_str!(LiveKind, Term);

/// What reading a resource's own 402 gave, as its fetcher hands it over
/// (the fetcher's words: one line, without the URL, which the row names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// A 402 whose challenge was read.
    Challenge(Challenge),
    /// An answer that asks for no payment: any status but 402, a 5xx, a
    /// final 3xx within the resource's origin.
    Answered {
        /// Its status.
        status: u16,
        /// What it was (`answered HTTP 404`).
        words: String,
    },
    /// A 402 whose challenge cannot be read.
    Unreadable {
        /// Why (`answered 402, but the PAYMENT-REQUIRED header is not base64`).
        words: String,
    },
    /// No answer: refused, reset, the timeout, a redirect to another
    /// origin, a resource that is not an http(s) URL.
    Unreached {
        /// Why, in the fetcher's words.
        words: String,
    },
}

/// One row of a live read: an option of a resource, and how it compares
/// with the listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveRow {
    /// The listed resource that was read.
    pub resource: String,
    /// How it compares.
    pub kind: LiveKind,
    /// The option the row is about: the live one when the resource asks
    /// for it now, else the listed one (gone, `not-402`, `unreachable`).
    pub option: PaymentOption,
    /// What changed, on a [`LiveKind::Changed`] row.
    pub change: Option<Change>,
    /// The listed option, when it differs from [`LiveRow::option`]
    /// ([`Change::Terms`]).
    pub listed: Option<PaymentOption>,
    /// The option's index in the live challenge: set exactly when the
    /// resource asks for it now, so its verdict is the one to look up.
    pub asked: Option<usize>,
    /// The status the resource answered with, when it answered.
    pub status: Option<u16>,
    /// Why there is no challenge (`not-402`, `unreachable`): one line of
    /// at most [`MAX_FIELD_BYTES`], with no control or format character.
    pub reason: Option<String>,
}

/// The rows of `listed` once read as `asked` says: one per option (see the
/// [module](self) for the rule), listed options first in the listing's
/// order, then the added ones in the challenge's.
pub fn rows(listed: &ListedResource, asked: &Asked) -> Vec<LiveRow> {
    let row = |kind, option: &PaymentOption| LiveRow {
        resource: listed.resource.clone(),
        kind,
        option: option.clone(),
        change: None,
        listed: None,
        asked: None,
        status: None,
        reason: None,
    };
    let (status, words, kind) = match asked {
        Asked::Challenge(challenge) => return compared(listed, challenge, row),
        Asked::Answered { status, words } => (Some(*status), words, LiveKind::NotPaymentRequired),
        Asked::Unreadable { words } => (Some(402), words, LiveKind::NotPaymentRequired),
        Asked::Unreached { words } => (None, words, LiveKind::Unreachable),
    };
    let reason = one_line(words);
    listed
        .options
        .iter()
        .map(|option| LiveRow {
            status,
            reason: Some(reason.clone()),
            ..row(kind, option)
        })
        .collect()
}

/// The rows of a resource that answered `challenge`.
fn compared(
    listed: &ListedResource,
    challenge: &Challenge,
    row: impl Fn(LiveKind, &PaymentOption) -> LiveRow,
) -> Vec<LiveRow> {
    let live: Vec<OptionKey> = challenge.options.iter().map(OptionKey::of).collect();
    let keys: Vec<OptionKey> = listed.options.iter().map(OptionKey::of).collect();
    // For each listed option, the live option it is paired with.
    let mut pair: Vec<Option<usize>> = vec![None; keys.len()];
    let mut taken = vec![false; live.len()];
    for (i, key) in keys.iter().enumerate() {
        if let Some(j) = (0..live.len()).find(|&j| !taken[j] && live[j] == *key) {
            (pair[i], taken[j]) = (Some(j), true);
        }
    }
    for (i, key) in keys.iter().enumerate() {
        if pair[i].is_some() {
            continue;
        }
        let shared = |j: usize| Term::ALL.iter().filter(|&&t| key.same(&live[j], t)).count();
        let kept = |j: usize| key.same(&live[j], Term::Network) || key.same(&live[j], Term::PayTo);
        let best = (0..live.len()).filter(|&j| !taken[j] && kept(j)).fold(
            None,
            |best: Option<usize>, j| match best {
                Some(b) if shared(b) >= shared(j) => Some(b),
                _ => Some(j),
            },
        );
        if let Some(j) = best {
            (pair[i], taken[j]) = (Some(j), true);
        }
    }
    let asked = |j: usize, kind, change, listed| LiveRow {
        change,
        listed,
        asked: Some(j),
        status: Some(402),
        ..row(kind, &challenge.options[j])
    };
    let mut rows: Vec<LiveRow> = listed
        .options
        .iter()
        .zip(&pair)
        .enumerate()
        .map(|(i, (option, paired))| match *paired {
            Some(j) if live[j] == keys[i] => asked(j, LiveKind::Live, None, None),
            Some(j) => {
                let terms = Term::ALL
                    .into_iter()
                    .filter(|&t| !keys[i].same(&live[j], t))
                    .collect();
                let change = Some(Change::Terms(terms));
                asked(j, LiveKind::Changed, change, Some(option.clone()))
            }
            None => LiveRow {
                change: Some(Change::Gone),
                status: Some(402),
                ..row(LiveKind::Changed, option)
            },
        })
        .collect();
    let added = (0..live.len()).filter(|&j| !taken[j]);
    rows.extend(added.map(|j| asked(j, LiveKind::Changed, Some(Change::Added), None)));
    rows
}

/// `words` as one line a row may carry: each control or format character
/// replaced by U+FFFD, shortened to [`MAX_FIELD_BYTES`].
fn one_line(words: &str) -> String {
    let shown: String = words
        .chars()
        .map(|c| if is_hidden(c) { '\u{fffd}' } else { c })
        .collect();
    shortened(&shown, MAX_FIELD_BYTES).into_owned()
}

impl LiveRow {
    /// What the row says of its option, in one line: `live`, `changed:
    /// another payTo (listed 0x…, now 0x…)`, `changed: a listed option
    /// gone`, `changed: an option added`, `not-402: answered HTTP 404`,
    /// `unreachable: no complete answer within 3000 ms`.
    pub fn note(&self) -> String {
        let mut out = String::from(self.kind.as_str());
        match (&self.change, &self.listed) {
            (Some(Change::Added), _) => out.push_str(": an option added"),
            (Some(Change::Gone), _) => out.push_str(": a listed option gone"),
            (Some(Change::Terms(terms)), Some(listed)) => {
                for (n, term) in terms.iter().enumerate() {
                    out.push_str(if n == 0 { ": " } else { " and " });
                    out.push_str(&text!(
                        "another {} (listed {}, now {})",
                        term.as_str(),
                        term.of(listed),
                        term.of(&self.option)
                    ));
                }
            }
            _ => {}
        }
        if let Some(reason) = &self.reason {
            out.push_str(": ");
            out.push_str(reason);
        }
        out
    }

    /// The listed option the row stands for: none for an added one.
    pub fn listed_option(&self) -> Option<&PaymentOption> {
        match self.change {
            Some(Change::Added) => None,
            _ => Some(self.listed.as_ref().unwrap_or(&self.option)),
        }
    }

    /// Reads a row as `scan --live --json` writes it (its `result`, `note`
    /// and any other member ignored).
    ///
    /// # Errors
    ///
    /// The first member that is missing or wrong.
    pub fn from_value(value: &Value) -> Result<Self, RowRule> {
        if !matches!(value, Value::Object(_)) {
            return Err(RowRule::NotAnObject);
        }
        let resource = member_text(value, "resource")
            .map_err(|rule| RowRule::Member("resource", rule))?
            .to_owned();
        let kind = match value.get("live") {
            Some(word) => LiveKind::ALL
                .into_iter()
                .find(|k| Some(k.as_str()) == word.as_str())
                .ok_or(RowRule::NotAKind)?,
            None => {
                let missing = crate::challenge::ValueRule::Member(MemberRule::Missing);
                return Err(RowRule::Member("live", missing));
            }
        };
        let option = read_option(value).map_err(|(name, rule)| RowRule::Member(name, rule))?;
        let listed = match value.get("listed") {
            None => None,
            Some(listed) => Some(read_option(listed).map_err(|_| RowRule::Listed)?),
        };
        let change = match value.get("change") {
            None => None,
            Some(words) => Some(read_change(words).ok_or(RowRule::NotAChange)?),
        };
        let status = match value.get("status") {
            None => None,
            Some(Value::Integer(n)) if (100..=599).contains(n) => u16::try_from(*n).ok(),
            Some(_) => return Err(RowRule::NotAStatus),
        };
        let reason = match value.get("reason") {
            None => None,
            Some(_) => Some(
                member_text(value, "reason")
                    .map_err(|rule| RowRule::Member("reason", rule))?
                    .to_owned(),
            ),
        };
        Ok(LiveRow {
            resource,
            kind,
            option,
            change,
            listed,
            asked: None,
            status,
            reason,
        })
    }
}

/// The option of a row (or its `listed` member): `chain`, `payTo`,
/// `resourceUrl`, `scheme`, `asset` and `amount`.
fn read_option(
    value: &Value,
) -> Result<PaymentOption, (&'static str, crate::challenge::ValueRule)> {
    // A snapshot's row names the option; what a 402 staples is no part of it.
    let resource = member_text(value, "resourceUrl").map_err(|rule| ("resourceUrl", rule))?;
    option_of(value, ["chain", "payTo", "amount"], resource)
}

/// A `change` member: `["added"]`, `["gone"]`, or one or more term names.
fn read_change(value: &Value) -> Option<Change> {
    let words: Vec<&str> = value
        .as_array()?
        .iter()
        .map(Value::as_str)
        .collect::<Option<_>>()?;
    match words[..] {
        ["added"] => Some(Change::Added),
        ["gone"] => Some(Change::Gone),
        [] => None,
        _ => words
            .iter()
            .map(|w| Term::ALL.into_iter().find(|t| t.as_str() == *w))
            .collect::<Option<Vec<Term>>>()
            .map(Change::Terms),
    }
}

/// What is wrong with a row of a live snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowRule {
    /// Longer than 64 KiB.
    TooLong,
    /// Not strict JSON.
    NotJson(ParseError),
    /// JSON, but not an object.
    NotAnObject,
    /// A member is missing or breaks the rule a challenge's would.
    Member(&'static str, crate::challenge::ValueRule),
    /// `live` is none of the kinds.
    NotAKind,
    /// `listed` is not an option.
    Listed,
    /// `change` is not `["added"]`, `["gone"]` or a list of terms.
    NotAChange,
    /// `status` is not an HTTP status.
    NotAStatus,
}

/// Why a line of a live snapshot was not read: its number (from 1) and
/// what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub rule: RowRule,
}

impl uDisplay for SnapshotError {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        ufmt::uwrite!(f, "the live snapshot's line {}: ", self.line)?;
        match &self.rule {
            RowRule::TooLong => f.write_str("longer than 64 KiB"),
            RowRule::NotJson(_) => f.write_str("not strict JSON"),
            RowRule::NotAnObject => f.write_str("not a JSON object"),
            RowRule::Member(name, rule) => ufmt::uwrite!(f, "{} {}", *name, rule),
            RowRule::NotAKind => {
                f.write_str("live is not one of ")?;
                for (n, kind) in LiveKind::ALL.iter().enumerate() {
                    f.write_str(if n == 0 { "" } else { ", " })?;
                    f.write_str(kind.as_str())?;
                }
                Ok(())
            }
            RowRule::Listed => f.write_str("listed is not a payment option"),
            RowRule::NotAChange => {
                f.write_str("change is not [\"added\"], [\"gone\"] or a list of terms")
            }
            RowRule::NotAStatus => f.write_str("status is not an HTTP status"),
        }
    }
}

impl ErrorChain for SnapshotError {
    type Wrapped = ParseError;
    /// The strict parser's error under [`RowRule::NotJson`].
    fn wrapped(&self) -> Option<&ParseError> {
        match &self.rule {
            RowRule::NotJson(e) => Some(e),
            _ => None,
        }
    }
}

error_from_words!(SnapshotError);

/// The rows of a live snapshot (`scan --live --json`'s output, one JSON
/// object per line), found by the listed option each stands for, or by
/// resource for the options added.
#[derive(Clone, Debug, Default)]
pub struct LiveSnapshot {
    /// The rows read, in order.
    pub rows: Vec<LiveRow>,
    /// What each row is found by, sorted (binary search).
    found_by: Vec<(Found, usize)>,
    /// Why the first line that was not read was not (the others are read).
    pub problem: Option<SnapshotError>,
}

/// What a row of a snapshot is found by: the listed option it stands for,
/// or (an option added) its resource, normalized.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Found {
    Listed(OptionKey),
    Added(String),
}

impl LiveSnapshot {
    /// Reads `text` line by line (blank lines skipped; a line over 64 KiB
    /// or one that is not a row is skipped, the first named in
    /// [`LiveSnapshot::problem`]).
    pub fn from_json_lines(text: &str) -> Self {
        let mut snapshot = LiveSnapshot::default();
        for (n, line) in text.lines().enumerate() {
            if line.trim_ascii().is_empty() {
                continue;
            }
            let read = if line.len() > crate::bounds::MAX_CHALLENGE_BYTES {
                Err(RowRule::TooLong)
            } else {
                parse_strict(line.as_bytes())
                    .map_err(RowRule::NotJson)
                    .and_then(|value| LiveRow::from_value(&value))
            };
            match read {
                Ok(row) => {
                    let found = match row.listed_option() {
                        Some(listed) => Found::Listed(OptionKey::of(listed)),
                        None => Found::Added(normalize(&row.resource).into_owned()),
                    };
                    snapshot.found_by.push((found, snapshot.rows.len()));
                    snapshot.rows.push(row);
                }
                Err(rule) => {
                    snapshot
                        .problem
                        .get_or_insert(SnapshotError { line: n + 1, rule });
                }
            }
        }
        // By the row's index too: of two rows for one listed option, the
        // first is found.
        snapshot.found_by.sort_unstable();
        snapshot
    }

    /// The rows found by `found`, in the snapshot's order.
    fn found<'a>(&'a self, found: &'a Found) -> impl Iterator<Item = usize> + 'a {
        let start = self.found_by.partition_point(|(f, _)| f < found);
        self.found_by[start..]
            .iter()
            .take_while(move |(f, _)| f == found)
            .map(|&(_, i)| i)
    }

    /// The row that stands for the listed `option`, if the snapshot has
    /// one (its index in [`LiveSnapshot::rows`]).
    pub fn listed(&self, option: &PaymentOption) -> Option<usize> {
        self.found(&Found::Listed(OptionKey::of(option))).next()
    }

    /// The rows of the options `resource` asks for and its listing did
    /// not name (their indexes in [`LiveSnapshot::rows`]).
    pub fn added(&self, resource: &str) -> Vec<usize> {
        self.found(&Found::Added(normalize(resource).into_owned()))
            .collect()
    }
}

/// What a live snapshot says of one item of a listing's page: indexes in
/// its [`LiveSnapshot::rows`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ItemLive {
    /// The row of each endpoint of the item, in order, where the snapshot
    /// has one.
    pub listed: Vec<Option<usize>>,
    /// The rows of the options its resource asks for and the item does not
    /// name.
    pub added: Vec<usize>,
}

/// A listing's page read for endpoints ([`DiscoveryEndpoints`]), with what
/// a live snapshot says of them: the browser's `endpointsFromDiscovery`
/// given `{ live }`.
#[derive(Clone, Debug)]
pub struct LiveEndpoints {
    /// The page's endpoints.
    pub page: DiscoveryEndpoints,
    /// The snapshot.
    pub snapshot: LiveSnapshot,
    /// One per item of the page, in order.
    pub live: Vec<ItemLive>,
}

impl LiveEndpoints {
    /// The endpoints of the page `read`, each with its row of the
    /// `snapshot` text ([`LiveSnapshot::from_json_lines`]).
    pub fn read(read: Result<Page, PageError>, snapshot: &str) -> Self {
        let snapshot = LiveSnapshot::from_json_lines(snapshot);
        let of = |item: &DiscoveryItem| ItemLive {
            listed: item
                .options
                .iter()
                .map(|option| snapshot.listed(option))
                .collect(),
            added: snapshot.added(&item.resource),
        };
        let live = match &read {
            Ok(page) => page
                .items
                .iter()
                .map(|item| item.as_ref().map_or_else(|_| ItemLive::default(), of))
                .collect(),
            Err(_) => Vec::new(),
        };
        LiveEndpoints {
            page: DiscoveryEndpoints::from(read),
            snapshot,
            live,
        }
    }

    /// Why a line of the snapshot was not read (the first such line).
    pub fn reason(&self) -> Option<String> {
        self.snapshot.problem.as_ref().map(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endpoint::{check_field, Endpoint};

    const A: &str = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
    const B: &str = "0x1111111111111111111111111111111111111111";
    const R: &str = "https://api.example.com/x";

    fn option(network: &str, pay_to: &str, amount: &str) -> PaymentOption {
        PaymentOption {
            endpoint: Endpoint::new(network, pay_to, R).unwrap(),
            scheme: "exact".into(),
            asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913".into(),
            amount: amount.into(),
            verdict: None,
        }
    }

    fn listed(options: Vec<PaymentOption>) -> ListedResource {
        ListedResource {
            resource: R.into(),
            options,
        }
    }

    fn live(options: Vec<PaymentOption>) -> Asked {
        Asked::Challenge(Challenge {
            version: 2,
            options,
        })
    }

    fn notes(rows: &[LiveRow]) -> Vec<String> {
        rows.iter().map(LiveRow::note).collect()
    }

    #[test]
    fn the_same_terms_in_other_spellings_are_live() {
        let rows = rows(
            &listed(vec![option("base", A, "01000")]),
            &live(vec![option("eip155:8453", &A.to_lowercase(), "1000")]),
        );
        assert_eq!(notes(&rows), ["live"]);
        assert_eq!(rows[0].asked, Some(0));
        assert_eq!(
            rows[0].option.endpoint.chain(),
            "eip155:8453",
            "the live spelling"
        );
    }

    #[test]
    fn another_pay_to_is_named_with_both_values() {
        let rows = rows(
            &listed(vec![option("base", A, "1000")]),
            &live(vec![option("base", B, "2000")]),
        );
        assert_eq!(rows[0].kind, LiveKind::Changed);
        assert_eq!(
            rows[0].change,
            Some(Change::Terms(vec![Term::PayTo, Term::Amount]))
        );
        assert_eq!(rows[0].option.endpoint.pay_to(), B);
        assert_eq!(rows[0].asked, Some(0));
        assert_eq!(
            rows[0].note(),
            format!("changed: another payTo (listed {A}, now {B}) and another amount (listed 1000, now 2000)")
        );
    }

    #[test]
    fn an_option_that_keeps_neither_network_nor_pay_to_is_gone_and_added() {
        let rows = rows(
            &listed(vec![option("base", A, "1"), option("base", B, "1")]),
            &live(vec![
                option(
                    "solana",
                    "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
                    "1",
                ),
                option("eip155:8453", B, "1"),
            ]),
        );
        assert_eq!(
            notes(&rows),
            [
                "changed: a listed option gone",
                "live",
                "changed: an option added"
            ]
        );
        assert_eq!(
            rows.iter().map(|r| r.asked).collect::<Vec<_>>(),
            [None, Some(1), Some(0)]
        );
        assert_eq!(rows[0].listed_option(), Some(&option("base", A, "1")));
        assert_eq!(rows[2].listed_option(), None);
    }

    #[test]
    fn no_challenge_keeps_the_listed_options_with_one_line_of_why() {
        let resource = listed(vec![option("base", A, "1"), option("base", B, "1")]);
        let answered = rows(
            &resource,
            &Asked::Answered {
                status: 404,
                words: "answered HTTP 404".into(),
            },
        );
        assert_eq!(notes(&answered), ["not-402: answered HTTP 404"; 2]);
        assert!(answered
            .iter()
            .all(|r| r.asked.is_none() && r.status == Some(404)));
        let words = format!("no answer: \u{1b}]0;x\u{7}{}", "y".repeat(900));
        let unreached = rows(&resource, &Asked::Unreached { words });
        let reason = unreached[0].reason.as_deref().unwrap();
        assert!(check_field("reason", reason).is_ok(), "{reason}");
        assert!(reason.starts_with("no answer: \u{fffd}]0;x\u{fffd}yy"));
        assert_eq!(unreached[0].kind, LiveKind::Unreachable);
        assert_eq!(unreached[0].status, None);
    }

    #[test]
    fn listed_resources_read_each_resource_once() {
        let item = |options| DiscoveryItem {
            resource: R.into(),
            version: 2,
            options,
        };
        let other = DiscoveryItem {
            resource: "https://b.example/".into(),
            version: 2,
            options: vec![],
        };
        let resources = listed_resources([
            item(vec![option("base", A, "1")]),
            other,
            item(vec![option("eip155:8453", A, "1"), option("base", B, "1")]),
        ]);
        assert_eq!(resources.len(), 2);
        assert_eq!(
            resources[0].options,
            [option("base", A, "1"), option("base", B, "1")]
        );
    }
}
