//! Reading a facilitator's discovery listing: x402's bazaar extension,
//! `GET {facilitator}/discovery/resources?limit=&offset=`, which answers
//! `{"x402Version", "items": [...], "pagination": {"limit", "offset",
//! "total"}}`. Each item is a resource that some server accepts payment
//! for: `{"resource", "type", "x402Version", "accepts": [...],
//! "lastUpdated", …}`, its `accepts` the options of its 402 answer.
//!
//! An item names one endpoint per accepted option: the option's `network`
//! (read through the same aliases as everywhere), its `payTo`, and the
//! item's `resource` (x402 v2) or the option's own `resource` (v1), each
//! read by the rules of a challenge ([`crate::challenge`]). A page is read
//! strictly and within bounds ([`MAX_PAGE_BYTES`], [`MAX_PAGE_ITEMS`]); an
//! item that is wrong is one [`ItemError`] naming what is wrong, and the
//! other items are still read. Unknown members are ignored; nothing from
//! the listing is copied into an error.

use crate::challenge::{
    read_accepts, text, ChallengeEndpoints, ChallengeMember, ChallengeRule, PaymentOption,
    ValueRule,
};
use crate::json::MemberRule;
use crate::json::{parse_strict, ParseError, Value};
use crate::options::ReadError;
use crate::writing::{error_from_words, line, shortened, uDisplay, ErrorChain};

/// The largest page read, in bytes of JSON.
pub const MAX_PAGE_BYTES: usize = 4 << 20;
/// The most items a page may hold.
pub const MAX_PAGE_ITEMS: usize = 1000;

/// One resource of a listing, and the endpoints its options name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscoveryItem {
    /// The item's `resource`.
    pub resource: String,
    /// Its `x402Version`: 1 or 2.
    pub version: u8,
    /// Its accepted options, in order, each with its endpoint.
    pub options: Vec<PaymentOption>,
}

/// Where a page stands in the listing: its `pagination`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pagination {
    /// `limit`: the most items the page was asked for.
    pub limit: u64,
    /// `offset`: how many items come before it.
    pub offset: u64,
    /// `total`: how many items the listing claims to hold.
    pub total: u64,
}

/// A page of a listing (or one item read alone): its items, each read or
/// refused, and its pagination (none for an item alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    /// The items, in order.
    pub items: Vec<Result<DiscoveryItem, ItemError>>,
    /// The page's `pagination`.
    pub pagination: Option<Pagination>,
}

impl Page {
    /// Reads a page from JSON text: a listing response, or one item.
    ///
    /// # Errors
    ///
    /// Text over [`MAX_PAGE_BYTES`], text that is not strict JSON, or JSON
    /// that is no page ([`Page::from_value`]).
    pub fn from_json(bytes: &[u8]) -> Result<Self, PageError> {
        if bytes.len() > MAX_PAGE_BYTES {
            return Err(PageError::TooLarge);
        }
        let value = parse_strict(bytes).map_err(PageError::NotJson)?;
        Self::from_value(&value)
    }

    /// Reads a listing response (an object with `items`) or one item (an
    /// object with `accepts`).
    ///
    /// # Errors
    ///
    /// Anything else; `items` that is not a list or holds more than
    /// [`MAX_PAGE_ITEMS`]; a `pagination` that is not three whole numbers.
    pub fn from_value(value: &Value) -> Result<Self, PageError> {
        if !matches!(value, Value::Object(_)) {
            return Err(PageError::NotAnObject);
        }
        let Some(items) = value.get("items") else {
            if value.get("accepts").is_some() {
                // An item names its resource by a string; a payment
                // challenge has none (v1) or an object (v2).
                if !matches!(value.get("resource"), Some(Value::String(_))) {
                    return Err(PageError::Challenge);
                }
                return Ok(Page {
                    items: vec![DiscoveryItem::from_value(value)],
                    pagination: None,
                });
            }
            return Err(PageError::NotAListing);
        };
        let Value::Array(items) = items else {
            return Err(PageError::ItemsNotAList);
        };
        if items.len() > MAX_PAGE_ITEMS {
            return Err(PageError::TooManyItems(items.len()));
        }
        let pagination = match value.get("pagination") {
            None | Some(Value::Null) => None,
            Some(p) => Some(Pagination::from_value(p)?),
        };
        let items = items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                DiscoveryItem::from_value(item).map_err(|e| ItemError { index, ..e })
            })
            .collect();
        Ok(Page { items, pagination })
    }
}

impl Page {
    /// A page handed over as a value (a browser's object, read by property
    /// access): anything that is no object, or holds a value JSON cannot
    /// hold, is no page.
    ///
    /// # Errors
    ///
    /// As [`Page::from_value`], and [`PageError::ValueNotJson`].
    pub fn read_value(read: Result<Option<Value>, ReadError>) -> Result<Self, PageError> {
        match read {
            Ok(Some(value)) => Page::from_value(&value),
            Ok(None) => Err(PageError::NotAnObject),
            Err(problem) => Err(PageError::ValueNotJson(problem)),
        }
    }
}

impl Pagination {
    fn from_value(value: &Value) -> Result<Self, PageError> {
        let number = |name: &'static str| match value.get(name) {
            Some(Value::Integer(n)) if *n >= 0 => Ok(n.unsigned_abs()),
            _ => Err(PageError::Pagination(name)),
        };
        if !matches!(value, Value::Object(_)) {
            return Err(PageError::Pagination("pagination"));
        }
        Ok(Pagination {
            limit: number("limit")?,
            offset: number("offset")?,
            total: number("total")?,
        })
    }
}

impl DiscoveryItem {
    /// Reads one item (its index in the error is 0).
    ///
    /// # Errors
    ///
    /// The first member that is missing or wrong, with the item's resource
    /// when it could be read.
    pub fn from_value(value: &Value) -> Result<Self, ItemError> {
        if !matches!(value, Value::Object(_)) {
            return Err(ItemError {
                index: 0,
                resource: None,
                rule: ItemRule::NotAnObject,
            });
        }
        let resource = text(value, "resource").map_err(|rule| ItemError {
            index: 0,
            resource: None,
            rule: ItemRule::Challenge(ChallengeRule::Member {
                member: ChallengeMember::Top("resource"),
                rule,
            }),
        })?;
        let refused = |rule| ItemError {
            index: 0,
            resource: Some(shortened(resource, MAX_NAMED_RESOURCE_BYTES).into_owned()),
            rule,
        };
        let member = |name, rule| {
            refused(ItemRule::Challenge(ChallengeRule::Member {
                member: ChallengeMember::Top(name),
                rule,
            }))
        };
        let version = match value.get("x402Version") {
            Some(Value::Integer(1)) => 1,
            Some(Value::Integer(2)) => 2,
            None | Some(Value::Null) => {
                return Err(member(
                    "x402Version",
                    ValueRule::Member(MemberRule::Missing),
                ))
            }
            Some(_) => return Err(member("x402Version", ValueRule::NotOneOrTwo)),
        };
        let accepts = match value.get("accepts") {
            Some(Value::Array(accepts)) => accepts,
            None | Some(Value::Null) => {
                return Err(member("accepts", ValueRule::Member(MemberRule::Missing)))
            }
            Some(_) => return Err(member("accepts", ValueRule::Member(MemberRule::NotAList))),
        };
        // v2 names the resource once, for every option; v1 in each option.
        let shared = (version == 2).then_some(resource);
        let options =
            read_accepts(accepts, shared).map_err(|rule| refused(ItemRule::Challenge(rule)))?;
        Ok(DiscoveryItem {
            resource: resource.to_owned(),
            version,
            options,
        })
    }
}

/// What a reading gives a caller that wants endpoints (the browser's
/// `endpointsFromDiscovery`): each item's endpoints, or none and the
/// reason, as `endpointsFromPaymentRequired` gives a challenge's; the
/// page's pagination; or no items and why the page cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiscoveryEndpoints {
    /// One per item, in order.
    pub items: Vec<ChallengeEndpoints>,
    /// The page's `pagination`, when it has one.
    pub pagination: Option<Pagination>,
    /// Why the page cannot be read.
    pub reason: Option<String>,
}

impl From<Result<Page, PageError>> for DiscoveryEndpoints {
    fn from(read: Result<Page, PageError>) -> Self {
        let page = match read {
            Ok(page) => page,
            Err(e) => {
                return DiscoveryEndpoints {
                    items: Vec::new(),
                    pagination: None,
                    reason: Some(line(&e)),
                }
            }
        };
        let items = page
            .items
            .into_iter()
            .map(|item| match item {
                Ok(item) => ChallengeEndpoints {
                    endpoints: item.options,
                    reason: None,
                },
                Err(e) => ChallengeEndpoints {
                    endpoints: Vec::new(),
                    reason: Some(line(&e)),
                },
            })
            .collect();
        DiscoveryEndpoints {
            items,
            pagination: page.pagination,
            reason: None,
        }
    }
}

/// Why a page cannot be read at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageError {
    /// More than [`MAX_PAGE_BYTES`] of JSON.
    TooLarge,
    /// Not JSON under the core's strict rules.
    NotJson(ParseError),
    /// JSON, but not an object.
    NotAnObject,
    /// An object with neither `items` nor `accepts`.
    NotAListing,
    /// `items` is not a list.
    ItemsNotAList,
    /// `items` holds this many, more than [`MAX_PAGE_ITEMS`].
    TooManyItems(usize),
    /// `pagination`, or this member of it, is not a whole number ≥ 0.
    Pagination(&'static str),
    /// A value in the page that JSON cannot hold (a browser's object).
    ValueNotJson(ReadError),
    /// An object with `accepts` but no `resource` string: a payment
    /// challenge (x402 v1 names no resource at its top, v2 an object), not
    /// a listing or one of its items.
    Challenge,
}

/// The longest resource an [`ItemError`] names, in bytes: longer ones are
/// shortened in the middle (`…`).
pub const MAX_NAMED_RESOURCE_BYTES: usize = 80;

/// Why one item of a page cannot be read: its index, its resource when it
/// has one, and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemError {
    /// Its index in `items`.
    pub index: usize,
    /// Its `resource`, when that could be read (it follows the rule of
    /// every endpoint value: no control or format character), shortened
    /// to [`MAX_NAMED_RESOURCE_BYTES`], so that a reader of a long
    /// listing finds the item.
    pub resource: Option<String>,
    /// What is wrong with it.
    pub rule: ItemRule,
}

/// What is wrong with an item, for [`ItemError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemRule {
    /// The item is not an object.
    NotAnObject,
    /// A member breaks the rule a challenge's would (`accepts[0].payTo is
    /// missing`, `resource is missing`).
    Challenge(ChallengeRule),
}

impl uDisplay for PageError {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        match self {
            PageError::TooLarge => f.write_str("the listing page is larger than 4 MiB"),
            PageError::NotJson(_) => f.write_str("the listing page is not strict JSON"),
            PageError::NotAnObject => f.write_str("the listing page is not a JSON object"),
            PageError::NotAListing => f.write_str(
                "neither a discovery listing (no items) nor a discovery item (no accepts)",
            ),
            PageError::ItemsNotAList => f.write_str("items is not a list"),
            PageError::TooManyItems(n) => {
                ufmt::uwrite!(
                    f,
                    "items lists {} resources, more than {}",
                    *n,
                    MAX_PAGE_ITEMS
                )
            }
            PageError::ValueNotJson(problem) => {
                ufmt::uwrite!(f, "a value in the listing {}", problem.as_str())
            }
            PageError::Challenge => f.write_str(
                "a payment challenge (accepts without a resource string), not a discovery listing or item",
            ),
            PageError::Pagination("pagination") => f.write_str("pagination is not an object"),
            PageError::Pagination(name) => {
                ufmt::uwrite!(
                    f,
                    "pagination.{} is not a whole number of at least 0",
                    *name
                )
            }
        }
    }
}

impl uDisplay for ItemError {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        ufmt::uwrite!(f, "items[{}]", self.index)?;
        if let Some(resource) = &self.resource {
            ufmt::uwrite!(f, " ({})", resource.as_str())?;
        }
        match &self.rule {
            ItemRule::NotAnObject => f.write_str(" is not an object"),
            ItemRule::Challenge(rule) => ufmt::uwrite!(f, ": {}", rule),
        }
    }
}

impl ErrorChain for PageError {
    type Wrapped = ParseError;
    /// The strict parser's error under [`PageError::NotJson`].
    fn wrapped(&self) -> Option<&ParseError> {
        match self {
            PageError::NotJson(e) => Some(e),
            _ => None,
        }
    }
}

impl ErrorChain for ItemError {
    type Wrapped = ParseError;
    /// The strict parser's error under its challenge rule, if any
    /// ([`ChallengeRule::wrapped`]); the other rules complete the sentence
    /// that names the item.
    fn wrapped(&self) -> Option<&ParseError> {
        match &self.rule {
            ItemRule::NotAnObject => None,
            ItemRule::Challenge(rule) => rule.wrapped(),
        }
    }
}

error_from_words!(PageError, ItemError);
