//! The structured result through serde (feature `serde`): the shape
//! [`evaluation_schema`](crate::schema::evaluation_schema) describes, absent fields
//! left out; an option read from a payment challenge; the endpoints of a
//! discovery listing's page; and the rows of a live read.
//!
//! Written by hand with `serialize_map` rather than derived, from the
//! members the core lists ([`Evaluation::members`]), which the badge's wasm
//! writes as a JS object itself. A row of a live read (`scan --live`) is
//! written here too, and read back by [`LiveRow::from_value`].

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::challenge::{Endpoints, PaymentOption};
use crate::discovery::{DiscoveryEndpoints, ItemLive, Pagination};
use crate::evaluate::{Evaluation, MemberValue};
use crate::live::LiveRow;

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
        let mut map = serializer.serialize_map(Some(6))?;
        option_entries(&mut map, self)?;
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
        if self.live.is_empty() {
            map.serialize_entry("items", &self.items)?;
        } else {
            let items: Vec<WithLive<'_>> =
                self.items.iter().zip(&self.live).map(WithLive).collect();
            map.serialize_entry("items", &items)?;
        }
        if let Some(pagination) = &self.pagination {
            map.serialize_entry("pagination", pagination)?;
        }
        if let Some(reason) = &self.reason {
            map.serialize_entry("reason", reason)?;
        }
        if let Some(reason) = &self.live_reason {
            map.serialize_entry("liveReason", reason)?;
        }
        map.end()
    }
}

/// An item's endpoints with what a live snapshot says of them: each
/// endpoint with its row as `live` (when the snapshot has one), and the
/// rows of the options added as `added`.
struct WithLive<'a>((&'a Endpoints, &'a ItemLive));

/// An endpoint, with its live row when there is one.
struct EndpointWithLive<'a>(&'a PaymentOption, Option<&'a LiveRow>);

impl Serialize for WithLive<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (endpoints, live) = self.0;
        let mut map = serializer.serialize_map(None)?;
        let rows = live
            .listed
            .iter()
            .map(Option::as_ref)
            .chain(std::iter::repeat(None));
        let listed: Vec<EndpointWithLive<'_>> = endpoints
            .endpoints
            .iter()
            .zip(rows)
            .map(|(option, row)| EndpointWithLive(option, row))
            .collect();
        map.serialize_entry("endpoints", &listed)?;
        if let Some(reason) = &endpoints.reason {
            map.serialize_entry("reason", reason)?;
        }
        if !live.added.is_empty() {
            map.serialize_entry("added", &live.added)?;
        }
        map.end()
    }
}

impl Serialize for EndpointWithLive<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        option_entries(&mut map, self.0)?;
        if let Some(row) = self.1 {
            map.serialize_entry("live", row)?;
        }
        map.end()
    }
}

/// A row of a live read, as `scan --live --json` writes it (before its
/// `result`): the resource read, `live` (its kind), the option's six
/// members, `change`, `listed`, `status` and `reason` when it has them,
/// and `note`, its line.
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
