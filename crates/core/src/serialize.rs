//! The structured result through serde (feature `serde`): the shape
//! [`evaluation_schema`](crate::schema::evaluation_schema) describes, absent fields
//! left out; an option read from a payment challenge (with the verdict
//! stapled for it, as the `verdict` option of a lookup); the endpoints of a
//! discovery listing's page; and the rows of a live read.
//!
//! Written by hand with `serialize_map` rather than derived, from the
//! members the core lists ([`Evaluation::members`]), which the badge's wasm
//! writes as a JS object itself. A row of a live read (`scan --live`,
//! feature `live`) is written here too, and read back by
//! `LiveRow::from_value`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::challenge::{Endpoints, PaymentOption};
use crate::discovery::{DiscoveryEndpoints, Pagination};
use crate::evaluate::{Evaluation, MemberValue};
#[cfg(feature = "live")]
use crate::live::{ItemLive, LiveEndpoints, LiveRow};

impl Serialize for Evaluation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (name, value) in self.members() {
            match value {
                MemberValue::Text(text) => map.serialize_entry(name, &text)?,
                MemberValue::Number(number) => map.serialize_entry(name, &number)?,
            }
        }
        map.end()
    }
}

impl Serialize for PaymentOption {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        option_entries(&mut map, self)?;
        if let Some(verdict) = &self.verdict {
            map.serialize_entry("verdict", verdict)?;
        }
        map.end()
    }
}

/// The six members of `option`: `chain`, `payTo`, `resourceUrl`, `scheme`,
/// `asset`, `amount`.
fn option_entries<M: SerializeMap>(map: &mut M, option: &PaymentOption) -> Result<(), M::Error> {
    map.serialize_entry("chain", option.endpoint.chain())?;
    map.serialize_entry("payTo", option.endpoint.pay_to())?;
    map.serialize_entry("resourceUrl", option.endpoint.resource_url())?;
    map.serialize_entry("scheme", &option.scheme)?;
    map.serialize_entry("asset", &option.asset)?;
    map.serialize_entry("amount", &option.amount)
}

impl Serialize for Endpoints {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("endpoints", &self.endpoints)?;
        if let Some(reason) = &self.reason {
            map.serialize_entry("reason", reason)?;
        }
        map.end()
    }
}

impl Serialize for DiscoveryEndpoints {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("items", &self.items)?;
        if let Some(pagination) = &self.pagination {
            map.serialize_entry("pagination", pagination)?;
        }
        if let Some(reason) = &self.reason {
            map.serialize_entry("reason", reason)?;
        }
        map.end()
    }
}

/// A page's endpoints as [`DiscoveryEndpoints`] writes them, each endpoint
/// with its live row's kind and note as `live` (where the snapshot has
/// one), each item with the options its resource added as `added` (each
/// with its `live`), and `liveReason`.
#[cfg(feature = "live")]
impl Serialize for LiveEndpoints {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let page = &self.page;
        let mut map = serializer.serialize_map(None)?;
        let items: Vec<WithLive<'_>> = page
            .items
            .iter()
            .zip(&self.live)
            .map(|(endpoints, live)| WithLive(endpoints, live, &self.snapshot.rows))
            .collect();
        map.serialize_entry("items", &items)?;
        if let Some(pagination) = &page.pagination {
            map.serialize_entry("pagination", pagination)?;
        }
        if let Some(reason) = &page.reason {
            map.serialize_entry("reason", reason)?;
        }
        if let Some(reason) = self.reason() {
            map.serialize_entry("liveReason", &reason)?;
        }
        map.end()
    }
}

/// An item's endpoints with what a live snapshot's rows say of them.
#[cfg(feature = "live")]
struct WithLive<'a>(&'a Endpoints, &'a ItemLive, &'a [LiveRow]);

/// An endpoint, with its live row (its kind and note) when there is one.
#[cfg(feature = "live")]
struct EndpointWithLive<'a>(&'a PaymentOption, Option<&'a LiveRow>);

#[cfg(feature = "live")]
impl Serialize for WithLive<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let WithLive(endpoints, live, rows) = *self;
        let mut map = serializer.serialize_map(None)?;
        let row = |i: &usize| rows.get(*i);
        let listed: Vec<EndpointWithLive<'_>> = endpoints
            .endpoints
            .iter()
            .enumerate()
            .map(|(n, option)| {
                let i = live.listed.get(n).copied().flatten();
                EndpointWithLive(option, i.as_ref().and_then(row))
            })
            .collect();
        map.serialize_entry("endpoints", &listed)?;
        if let Some(reason) = &endpoints.reason {
            map.serialize_entry("reason", reason)?;
        }
        if !live.added.is_empty() {
            let added: Vec<EndpointWithLive<'_>> = live
                .added
                .iter()
                .filter_map(row)
                .map(|r| EndpointWithLive(&r.option, Some(r)))
                .collect();
            map.serialize_entry("added", &added)?;
        }
        map.end()
    }
}

#[cfg(feature = "live")]
impl Serialize for EndpointWithLive<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        option_entries(&mut map, self.0)?;
        if let Some(row) = self.1 {
            map.serialize_entry("live", &LiveNote(row))?;
        }
        map.end()
    }
}

/// A live row's kind and note: `{ live, note }`.
#[cfg(feature = "live")]
struct LiveNote<'a>(&'a LiveRow);

#[cfg(feature = "live")]
impl Serialize for LiveNote<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("live", self.0.kind.as_str())?;
        map.serialize_entry("note", &self.0.note())?;
        map.end()
    }
}

/// A row of a live read, as `scan --live --json` writes it (before its
/// `result`): the resource read, `live` (its kind), the option's six
/// members, `change`, `listed`, `status` and `reason` when it has them,
/// and `note`, its line.
#[cfg(feature = "live")]
impl Serialize for LiveRow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("resource", &self.resource)?;
        map.serialize_entry("live", self.kind.as_str())?;
        option_entries(&mut map, &self.option)?;
        if let Some(change) = &self.change {
            map.serialize_entry("change", &change.words())?;
        }
        if let Some(listed) = &self.listed {
            map.serialize_entry("listed", listed)?;
        }
        if let Some(status) = self.status {
            map.serialize_entry("status", &status)?;
        }
        if let Some(reason) = &self.reason {
            map.serialize_entry("reason", reason)?;
        }
        map.serialize_entry("note", &self.note())?;
        map.end()
    }
}

impl Serialize for Pagination {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("limit", &self.limit)?;
        map.serialize_entry("offset", &self.offset)?;
        map.serialize_entry("total", &self.total)?;
        map.end()
    }
}
