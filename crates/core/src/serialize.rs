//! The structured result through serde (feature `serde`): the shape
//! [`evaluation_schema`](crate::schema::evaluation_schema) describes, absent fields
//! left out; an option read from a payment challenge (with the verdict
//! stapled for it, as the `verdict` option of a lookup); and the endpoints of
//! a discovery listing's page.
//!
//! Written by hand with `serialize_map` rather than derived, from the
//! members the core lists ([`Evaluation::members`]), which the badge's wasm
//! writes as a JS object itself.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::challenge::{Endpoints, PaymentOption};
use crate::discovery::{DiscoveryEndpoints, Pagination};
use crate::evaluate::{Evaluation, MemberValue};

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
        map.serialize_entry("chain", self.endpoint.chain())?;
        map.serialize_entry("payTo", self.endpoint.pay_to())?;
        map.serialize_entry("resourceUrl", self.endpoint.resource_url())?;
        map.serialize_entry("scheme", &self.scheme)?;
        map.serialize_entry("asset", &self.asset)?;
        map.serialize_entry("amount", &self.amount)?;
        if let Some(verdict) = &self.verdict {
            map.serialize_entry("verdict", verdict)?;
        }
        map.end()
    }
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

impl Serialize for Pagination {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("limit", &self.limit)?;
        map.serialize_entry("offset", &self.offset)?;
        map.serialize_entry("total", &self.total)?;
        map.end()
    }
}
