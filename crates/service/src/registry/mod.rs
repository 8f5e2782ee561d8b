//! The reference service's registry: attestations, whose outcome is derived
//! at each request, and published verdicts, served exactly as signed.
//!
//! ```json
//! { "attestations": [ {
//!     "chain": "base", "payTo": "0x…", "resourceUrl": "https://…",
//!     "operator": "Example Co", "relatedParty": false, "assuranceLevel": "G",
//!     "status": "active", "attestedAt": "2026-01-05T00:00:00Z",
//!     "lastRecheckedAt": "2026-11-29T08:00:00Z", "recheckEveryHours": 24,
//!     "renewBy": "2027-01-05T00:00:00Z" } ],
//!   // and, only with status "revoked", optionally "revokedAt": "…";
//!   // optionally "match": "exact" (the default), "path" or "prefix"
//!   "published": [ { "verdict": { … }, "signature": "…" } ] }
//! ```
//!
//! Every `resourceUrl` is indexed by its normalized form (the consumers'
//! rule, [`same_resource`](x402_verdict_core::resource::same_resource)). An
//! attestation covers ([`Coverage`]) its URL exactly, its path with any query
//! (`"path"`), or its path and everything below it at a `/` boundary
//! (`"prefix"`: `/v1` covers `/v1` and `/v1/x`, never `/v1x`). An asked URL
//! is answered by the most specific entry covering it: an exact one (a
//! published verdict or an exact attestation), else a path one, else the
//! longest prefix.

mod attestation;
mod coverage;
mod published;
mod rules;

use std::collections::HashMap;
use std::path::Path;

use x402_verdict_core::endpoint::EndpointKey;
use x402_verdict_core::json::Value;
use x402_verdict_core::member::{MemberPath, MemberRule};
use x402_verdict_core::resource::path_span;
use x402_verdict_core::Endpoint;

pub use attestation::Attestation;
pub use coverage::Coverage;
pub use published::Published;
pub use rules::{EntryRule, RegistryError, RegistryRule};

use attestation::check_entry;
use coverage::covered_key;
use published::check_published;

use crate::jsonfile::{self, InvalidFile};

/// What the service answers from, indexed by [`Key`]: one index for each
/// [`Coverage`].
#[derive(Clone, Debug, Default)]
pub struct Registry {
    attestations: Vec<Attestation>,
    published: Vec<Published>,
    /// Exact entries, by their normalized URL.
    index: HashMap<Key, Entry>,
    /// Path attestations, by their normalized URL (no query).
    paths: HashMap<Key, usize>,
    /// Prefix attestations, by their normalized URL without a trailing `/`.
    prefixes: HashMap<Key, usize>,
}

/// Where an endpoint's entry is.
#[derive(Clone, Copy, Debug)]
enum Entry {
    Attested(usize),
    Published(usize),
}

/// Where the index finds an endpoint: its [`EndpointKey`].
type Key = EndpointKey;

/// What the registry holds for one endpoint.
pub enum Found<'a> {
    /// An attestation: derive and sign a verdict.
    Attested(&'a Attestation),
    /// A published document: serve it as it is.
    Published(&'a Published),
}

impl Registry {
    /// Reads and checks a registry file.
    ///
    /// # Errors
    ///
    /// One line naming the file, the entry and the field that is wrong.
    pub fn load(path: &Path) -> Result<Self, RegistryError> {
        let doc = jsonfile::read_strict(path)?;
        Registry::from_json(doc).map_err(|rule| {
            InvalidFile {
                path: path.to_owned(),
                rule,
            }
            .into()
        })
    }

    /// Checks a registry document, taking its strings.
    ///
    /// # Errors
    ///
    /// One line naming the entry and the field that is wrong.
    pub fn from_json(doc: Value) -> Result<Self, RegistryRule> {
        let Value::Object(mut top) = doc else {
            return Err(RegistryRule::NotAnObject);
        };
        let mut list = |name: &'static str| match top.remove(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(RegistryRule::Member(
                MemberRule::NotAList.at(MemberPath::root().member(name)),
            )),
        };
        let (attestations, published) = (list("attestations")?, list("published")?);
        if let Some(name) = top.names().next() {
            return Err(RegistryRule::UnknownMember(name.to_owned()));
        }
        let mut registry = Registry::default();
        for (i, item) in attestations.into_iter().enumerate() {
            let at = |rule| RegistryRule::Entry {
                list: "attestations",
                index: i,
                rule,
            };
            let attestation = check_entry(item).map_err(at)?;
            let key = covered_key(attestation.endpoint(), attestation.coverage())
                .map_err(|e| at(e.into()))?;
            let added = match attestation.coverage() {
                Coverage::Exact => add(&mut registry.index, key, Entry::Attested(i)),
                Coverage::Path => add(&mut registry.paths, key, i),
                Coverage::Prefix => add(&mut registry.prefixes, key, i),
            };
            added.map_err(at)?;
            registry.attestations.push(attestation);
        }
        for (i, item) in published.iter().enumerate() {
            let at = |rule| RegistryRule::Entry {
                list: "published",
                index: i,
                rule,
            };
            let published = check_published(item).map_err(at)?;
            add(
                &mut registry.index,
                published.endpoint.key(),
                Entry::Published(i),
            )
            .map_err(at)?;
            registry.published.push(published);
        }
        Ok(registry)
    }

    /// What the registry holds for `endpoint`, by the consumers' matching
    /// rule: the exact entry for its URL, else the path attestation for its
    /// path, else the attestation of the longest prefix covering its path
    /// (the normalized path, which has no `.` or `..` segment left).
    pub fn find(&self, endpoint: &Endpoint) -> Option<Found<'_>> {
        let mut key = endpoint.key();
        if let Some(entry) = self.index.get(&key) {
            return Some(match *entry {
                Entry::Attested(i) => Found::Attested(&self.attestations[i]),
                Entry::Published(i) => Found::Published(&self.published[i]),
            });
        }
        if self.paths.is_empty() && self.prefixes.is_empty() {
            return None;
        }
        let (start, end) = path_span(&key.resource_url)?;
        key.resource_url.truncate(end);
        let mut found = self.paths.get(&key);
        // The path itself, then each shorter path ending before a `/`.
        while found.is_none() {
            found = self.prefixes.get(&key);
            if found.is_none() {
                let parent = key.resource_url[start..].rfind('/')?;
                key.resource_url.truncate(start + parent);
            }
        }
        found.map(|&i| Found::Attested(&self.attestations[i]))
    }

    /// The published documents.
    pub fn published(&self) -> &[Published] {
        &self.published
    }

    /// The attestations, in file order.
    pub fn attestations(&self) -> &[Attestation] {
        &self.attestations
    }

    /// How many attestations the registry holds.
    pub fn attestation_count(&self) -> usize {
        self.attestations.len()
    }
}

/// Indexes an entry; each key may be named by one entry only.
fn add<T>(index: &mut HashMap<Key, T>, key: Key, entry: T) -> Result<(), EntryRule> {
    match index.entry(key) {
        std::collections::hash_map::Entry::Occupied(_) => Err(EntryRule::Duplicate),
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(entry);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests;
