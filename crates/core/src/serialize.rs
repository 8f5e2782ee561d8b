//! The structured result through serde (feature `serde`): the shape
//! [`EVALUATION_SCHEMA`](crate::EVALUATION_SCHEMA) describes, absent fields
//! left out; and an option read from a payment challenge.
//!
//! Written by hand with `serialize_map` rather than derived: the badge hands
//! the result to `serde_wasm_bindgen`, where this costs 736 bytes of gzip
//! and the derived code 2,036 (measured on full release builds).

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::challenge::{Endpoints, PaymentOption};
use crate::evaluate::Evaluation;

impl Serialize for Evaluation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("state", self.state.as_str())?;
        map.serialize_entry("outcome", self.outcome.as_str())?;
        map.serialize_entry("freshness", self.freshness.as_str())?;
        map.serialize_entry("signature", self.signature.as_str())?;
        if let Some(level) = &self.assurance_level {
            map.serialize_entry("assuranceLevel", level)?;
        }
        if let Some(at) = self.verified_at {
            map.serialize_entry("verifiedAt", &at.to_rfc3339())?;
        }
        if let Some(hours) = self.recheck_every_hours {
            map.serialize_entry("recheckEveryHours", &hours)?;
        }
        if let Some(reason) = self.reason {
            map.serialize_entry("reason", reason.as_str())?;
        }
        if let Some(detail) = &self.detail {
            map.serialize_entry("detail", detail)?;
        }
        map.end()
    }
}

impl Serialize for PaymentOption {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("chain", self.endpoint.chain())?;
        map.serialize_entry("payTo", self.endpoint.pay_to())?;
        map.serialize_entry("resourceUrl", self.endpoint.resource_url())?;
        map.serialize_entry("scheme", &self.scheme)?;
        map.serialize_entry("asset", &self.asset)?;
        map.serialize_entry("amount", &self.amount)?;
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
