//! Strict JSON for a signed protocol: a parser that refuses what two readers
//! could read differently, and the RFC 8785 (JCS) canonical writer.
//!
//! The parser rejects duplicate member names anywhere (a lenient parser keeps
//! one of them, so a signer and a verifier could see two documents), nesting
//! deeper than [`MAX_DEPTH`], invalid UTF-8, lone surrogates in `\u`
//! escapes, raw control characters in strings, and anything after the value.
//!
//! Numbers: every number in a verdict is an integer of magnitude at most
//! 2^53 - 1 (protocol section 4). Such a literal (`-?(0|[1-9][0-9]*)`, not
//! `-0`) parses to [`Value::Integer`], whose RFC 8785 form is its decimal
//! digits. Any other valid number parses to [`Value::OtherNumber`], which
//! keeps its literal as written: the document is still JSON, but a value holding one has no canonical form
//! here, and the verdict rules refuse it.
//!
//! Objects keep their members sorted by the UTF-16 code units of their names,
//! the order RFC 8785 writes them in.
//!
//! Every document reader shares one reader of an object's members
//! ([`Members`]: a member by name as a string, a boolean, a list or a
//! time), which says which [`MemberRule`] a member breaks and, as a
//! [`MemberError`], where ([`MemberPath`]):
//!
//! ```
//! use x402_verdict_core::json::{MemberPath, MemberRule, Members, Object};
//!
//! let object = Object::parse(br#"{"chain": 5}"#).unwrap();
//! let members = Members(&object);
//! assert_eq!(members.str("chain"), Err(MemberRule::NotAString));
//! assert_eq!(members.str("payTo"), Err(MemberRule::Missing));
//! let at = MemberPath::root().member("entry").member("chain");
//! assert_eq!(MemberRule::NotAString.at(at).to_string(), "entry.chain is not a string");
//! ```

use std::cmp::Ordering;

mod member;

pub use member::{MemberError, MemberPath, MemberRule, Members, Step, UnknownMember};

use crate::encoding::push_hex;
use crate::writing::{error_from_words, error_without_cause, uDisplay, ErrorChain};

/// The deepest nesting of arrays and objects a document may have.
pub const MAX_DEPTH: usize = 16;

/// The largest integer magnitude a [`Value::Integer`] holds: 2^53 - 1.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// Why a text is not a document under the rules of this module, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub kind: ParseErrorKind,
    /// The byte offset where it was found (for a duplicate member name: the
    /// end of the object holding it).
    pub offset: usize,
}

/// What is wrong with a text, for [`ParseError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The bytes are not UTF-8.
    InvalidUtf8,
    /// Something follows the value.
    TrailingCharacters,
    /// No JSON value starts here.
    ExpectedValue,
    /// The text ends inside a value.
    UnexpectedEnd,
    /// Arrays and objects nest deeper than [`MAX_DEPTH`].
    TooDeep,
    /// An array item is followed by neither `,` nor `]`.
    ExpectedCommaOrBracket,
    /// An object member is followed by neither `,` nor `}`.
    ExpectedCommaOrBrace,
    /// An object holds something other than a member name here.
    ExpectedMemberName,
    /// A member name is not followed by `:`.
    ExpectedColon,
    /// Two members of one object have the same name (after escapes).
    DuplicateMemberName,
    /// A raw control character inside a string.
    ControlCharacter,
    /// A string is not closed.
    UnterminatedString,
    /// A `\u` escape names half of a surrogate pair.
    LoneSurrogate,
    /// A backslash is followed by a character that escapes nothing.
    InvalidEscape,
    /// A `\u` is not followed by four hex digits.
    InvalidUnicodeEscape,
    /// A number lacks a digit where one must be.
    ExpectedDigit,
}

impl ParseErrorKind {
    /// The words for it, as [`ParseError`]'s `Display` writes them.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidUtf8 => "invalid UTF-8",
            Self::TrailingCharacters => "trailing characters",
            Self::ExpectedValue => "expected a JSON value",
            Self::UnexpectedEnd => "unexpected end of input",
            Self::TooDeep => "nesting deeper than 16 levels",
            Self::ExpectedCommaOrBracket => "expected ',' or ']'",
            Self::ExpectedCommaOrBrace => "expected ',' or '}'",
            Self::ExpectedMemberName => "expected a member name",
            Self::ExpectedColon => "expected ':'",
            Self::DuplicateMemberName => "duplicate member name in the object ending",
            Self::ControlCharacter => "control character in a string",
            Self::UnterminatedString => "unterminated string",
            Self::LoneSurrogate => "lone surrogate in a \\u escape",
            Self::InvalidEscape => "invalid escape",
            Self::InvalidUnicodeEscape => "invalid \\u escape",
            Self::ExpectedDigit => "expected a digit",
        }
    }
}

impl uDisplay for ParseError {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        ufmt::uwrite!(f, "{} at byte {}", self.kind.as_str(), self.offset)
    }
}

/// Why a text is not a JSON object, for [`Object::parse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectError {
    /// The text is not a document under the rules of [`parse_strict`].
    NotJson(ParseError),
    /// The document is a value other than an object.
    NotAnObject,
}

impl uDisplay for ObjectError {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        match self {
            Self::NotJson(_) => f.write_str("not strict JSON"),
            Self::NotAnObject => f.write_str("not a JSON object"),
        }
    }
}

impl ErrorChain for ObjectError {
    type Wrapped = ParseError;
    /// The strict parser's error under [`ObjectError::NotJson`].
    fn wrapped(&self) -> Option<&ParseError> {
        match self {
            Self::NotJson(e) => Some(e),
            Self::NotAnObject => None,
        }
    }
}

error_without_cause!(ParseError);
error_from_words!(ObjectError);

/// A parsed JSON value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// An integer literal of magnitude at most 2^53 - 1.
    Integer(i64),
    /// Any other number: a fraction, an exponent, `-0`, or a larger integer.
    /// It has no RFC 8785 form here. It holds its literal as written (for a
    /// number that came from JavaScript, as JavaScript prints it), for a
    /// reader that accepts fractions to convert (the published metrics'
    /// ratios). Two such numbers are equal when their literals are: never
    /// two different numbers, though `1.5` and `1.50` differ too.
    OtherNumber(Box<str>),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Object),
}

/// A JSON object: unique member names, sorted by their UTF-16 code units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Object(Vec<(String, Value)>);

/// The order of RFC 8785: names compared as arrays of UTF-16 code units.
fn utf16_order(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

impl Object {
    /// An empty object.
    pub fn new() -> Self {
        Object::default()
    }

    /// Builds an object from members in any order; `None` if a name repeats.
    fn from_members(mut members: Vec<(String, Value)>) -> Option<Self> {
        members.sort_unstable_by(|a, b| utf16_order(&a.0, &b.0));
        if members.windows(2).any(|pair| pair[0].0 == pair[1].0) {
            return None;
        }
        Some(Object(members))
    }

    /// Parses `bytes` as a JSON object under the rules of [`parse_strict`].
    ///
    /// # Errors
    ///
    /// The first problem found, or that the value is not an object.
    pub fn parse(bytes: &[u8]) -> Result<Self, ObjectError> {
        match parse_strict(bytes).map_err(ObjectError::NotJson)? {
            Value::Object(object) => Ok(object),
            _ => Err(ObjectError::NotAnObject),
        }
    }

    fn position(&self, name: &str) -> Result<usize, usize> {
        self.0
            .binary_search_by(|(member, _)| utf16_order(member, name))
    }

    /// The value of member `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.position(name).ok().map(|i| &self.0[i].1)
    }

    /// Sets member `name`, replacing any value it had.
    pub fn insert(&mut self, name: &str, value: Value) {
        match self.position(name) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => self.0.insert(i, (name.to_owned(), value)),
        }
    }

    /// Removes member `name` and returns its value.
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        self.position(name).ok().map(|i| self.0.remove(i).1)
    }

    /// The RFC 8785 canonical form; `None` if the object holds a
    /// [`Value::OtherNumber`].
    pub fn canonical(&self) -> Option<String> {
        let mut out = String::new();
        self.write_canonical(&mut out).then_some(out)
    }

    fn write_canonical(&self, out: &mut String) -> bool {
        out.push('{');
        for (i, (name, value)) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_string(out, name);
            out.push(':');
            if !value.write_canonical(out) {
                return false;
            }
        }
        out.push('}');
        true
    }

    /// The member values, in name order.
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.0.iter().map(|(_, value)| value)
    }

    /// The member names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(name, _)| name.as_str())
    }
}

impl Value {
    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// Member `name`, if this is an object that has it.
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Object(object) => object.get(name),
            _ => None,
        }
    }

    /// The RFC 8785 canonical form; `None` if the value holds a
    /// [`Value::OtherNumber`].
    pub fn canonical(&self) -> Option<String> {
        let mut out = String::new();
        self.write_canonical(&mut out).then_some(out)
    }

    fn write_canonical(&self, out: &mut String) -> bool {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Integer(n) => {
                let Ok(()) = ufmt::uwrite!(out, "{}", *n);
            }
            Value::OtherNumber(_) => return false,
            Value::String(text) => write_string(out, text),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    if !item.write_canonical(out) {
                        return false;
                    }
                }
                out.push(']');
            }
            Value::Object(object) => return object.write_canonical(out),
        }
        true
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::String(text.to_owned())
    }
}

/// A string as RFC 8785 writes it: only `"`, `\` and control characters are
/// escaped, with the short escapes where JSON has them and `\u00xx` otherwise.
fn write_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c < ' ' => {
                out.push_str("\\u00");
                push_hex(out, c as u8, false);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Parses `bytes` as one JSON value under the rules of this module.
///
/// # Errors
///
/// The first problem, with its byte offset.
pub fn parse_strict(bytes: &[u8]) -> Result<Value, ParseError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ParseError {
        kind: ParseErrorKind::InvalidUtf8,
        offset: e.valid_up_to(),
    })?;
    let mut parser = Parser { text, pos: 0 };
    let value = parser.value(0)?;
    parser.skip_whitespace();
    if parser.pos < text.len() {
        return Err(parser.error(ParseErrorKind::TrailingCharacters));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            kind,
            offset: self.pos,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        self.pos += usize::from(found);
        found
    }

    fn expect(&mut self, byte: u8, problem: ParseErrorKind) -> Result<(), ParseError> {
        self.skip_whitespace();
        if self.eat(byte) {
            Ok(())
        } else {
            Err(self.error(problem))
        }
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.skip_whitespace();
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(_) => Err(self.error(ParseErrorKind::ExpectedValue)),
            None => Err(self.error(ParseErrorKind::UnexpectedEnd)),
        }
    }

    fn literal(&mut self, word: &str, value: Value) -> Result<Value, ParseError> {
        let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
        if rest.starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error(ParseErrorKind::ExpectedValue))
        }
    }

    /// Steps into an array or object, refusing to go deeper than [`MAX_DEPTH`].
    fn enter(&mut self, depth: usize) -> Result<usize, ParseError> {
        if depth >= MAX_DEPTH {
            return Err(self.error(ParseErrorKind::TooDeep));
        }
        self.pos += 1;
        self.skip_whitespace();
        Ok(depth + 1)
    }

    fn array(&mut self, depth: usize) -> Result<Value, ParseError> {
        let depth = self.enter(depth)?;
        let mut items = Vec::new();
        if !self.eat(b']') {
            loop {
                items.push(self.value(depth)?);
                self.skip_whitespace();
                if self.eat(b']') {
                    break;
                }
                self.expect(b',', ParseErrorKind::ExpectedCommaOrBracket)?;
            }
        }
        Ok(Value::Array(items))
    }

    fn object(&mut self, depth: usize) -> Result<Value, ParseError> {
        let depth = self.enter(depth)?;
        let mut members = Vec::new();
        if !self.eat(b'}') {
            loop {
                self.skip_whitespace();
                if self.peek() != Some(b'"') {
                    return Err(self.error(ParseErrorKind::ExpectedMemberName));
                }
                let name = self.string()?;
                self.expect(b':', ParseErrorKind::ExpectedColon)?;
                members.push((name, self.value(depth)?));
                self.skip_whitespace();
                if self.eat(b'}') {
                    break;
                }
                self.expect(b',', ParseErrorKind::ExpectedCommaOrBrace)?;
            }
        }
        Object::from_members(members)
            .map(Value::Object)
            .ok_or_else(|| self.error(ParseErrorKind::DuplicateMemberName))
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let start = self.pos;
            while matches!(self.peek(), Some(b) if b != b'"' && b != b'\\' && b >= 0x20) {
                self.pos += 1;
            }
            // The scan stops only at ASCII bytes, so both ends are char boundaries.
            out.push_str(self.text.get(start..self.pos).unwrap_or_default());
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    out.push(self.escape()?);
                }
                Some(_) => return Err(self.error(ParseErrorKind::ControlCharacter)),
                None => return Err(self.error(ParseErrorKind::UnterminatedString)),
            }
        }
    }

    fn escape(&mut self) -> Result<char, ParseError> {
        let byte = self.peek();
        self.pos += 1;
        Ok(match byte {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                let first = self.hex4()?;
                let code = match first {
                    0xD800..=0xDBFF if self.eat(b'\\') && self.eat(b'u') => {
                        let second = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&second) {
                            return Err(self.error(ParseErrorKind::LoneSurrogate));
                        }
                        0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    }
                    code => code,
                };
                char::from_u32(code).ok_or_else(|| self.error(ParseErrorKind::LoneSurrogate))?
            }
            _ => return Err(self.error(ParseErrorKind::InvalidEscape)),
        })
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = self.peek().and_then(|b| char::from(b).to_digit(16));
            code = code * 16
                + digit.ok_or_else(|| self.error(ParseErrorKind::InvalidUnicodeEscape))?;
            self.pos += 1;
        }
        Ok(code)
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        let negative = self.eat(b'-');
        let start = self.pos;
        let count = match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                1
            }
            _ => self.digits(),
        };
        if count == 0 {
            return Err(self.error(ParseErrorKind::ExpectedDigit));
        }
        let end = self.pos;
        let mut integer = true;
        if self.eat(b'.') {
            integer = false;
            if self.digits() == 0 {
                return Err(self.error(ParseErrorKind::ExpectedDigit));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            integer = false;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.error(ParseErrorKind::ExpectedDigit));
            }
        }
        // 16 digits cannot overflow an i64; more are beyond 2^53 anyway.
        let magnitude = (integer && count <= 16).then(|| {
            self.text.as_bytes()[start..end]
                .iter()
                .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'))
        });
        Ok(match magnitude {
            Some(m) if m <= MAX_SAFE_INTEGER && !(negative && m == 0) => {
                Value::Integer(if negative { -m } else { m })
            }
            _ => Value::OtherNumber(self.text[start - usize::from(negative)..self.pos].into()),
        })
    }
}

/// A `serde_json` value (the tests' `json!`) as a [`Value`].
#[cfg(test)]
pub(crate) fn from_serde(value: &serde_json::Value) -> Value {
    parse_strict(value.to_string().as_bytes()).expect("serde_json writes valid JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(text: &str) -> String {
        parse_strict(text.as_bytes()).unwrap().canonical().unwrap()
    }

    #[test]
    fn other_numbers_are_equal_only_when_written_alike() {
        let parse = |text: &str| parse_strict(text.as_bytes()).unwrap();
        assert_ne!(parse(r#"{"a":1.5}"#), parse(r#"{"a":2.5}"#));
        assert_ne!(parse("[1e2]"), parse("[2e2]"));
        assert_eq!(parse(r#"{"a":-0.25}"#), parse(r#"{ "a" : -0.25 }"#));
        assert_eq!(parse("-0"), Value::OtherNumber("-0".into()));
    }

    #[test]
    fn accepts_plain_documents() {
        let v = parse_strict(br#" {"a":[1,{"b":null}],"c":"d"} "#).unwrap();
        assert_eq!(
            v.get("a").unwrap().as_array().unwrap()[1].get("b"),
            Some(&Value::Null)
        );
        assert_eq!(v.get("c").and_then(Value::as_str), Some("d"));
    }

    fn error(text: &[u8]) -> (ParseErrorKind, usize) {
        let e = parse_strict(text).unwrap_err();
        (e.kind, e.offset)
    }

    #[test]
    fn rejects_duplicates_at_any_depth() {
        use ParseErrorKind::DuplicateMemberName as Dup;
        assert_eq!(error(br#"{"a":1,"a":2}"#), (Dup, 13));
        assert_eq!(error(br#"{"x":[{"a":1,"b":0,"a":1}]}"#), (Dup, 25));
        // Escapes are decoded before names are compared.
        assert_eq!(error(br#"{"a":1,"\u0061":2}"#), (Dup, 18));
        assert_eq!(
            parse_strict(br#"{"a":1,"a":2}"#).unwrap_err().to_string(),
            "duplicate member name in the object ending at byte 13"
        );
    }

    #[test]
    fn caps_depth_without_recursing_further() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse_strict(ok.as_bytes()).is_ok());
        let over = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(error(over.as_bytes()), (ParseErrorKind::TooDeep, MAX_DEPTH));
        let deep = "{\"a\":".repeat(100_000);
        assert_eq!(error(deep.as_bytes()).0, ParseErrorKind::TooDeep);
        assert!(ParseErrorKind::TooDeep
            .as_str()
            .contains(&MAX_DEPTH.to_string()));
    }

    #[test]
    fn rejects_what_json_does_not_allow() {
        use ParseErrorKind::*;
        for (bad, kind, offset) in [
            (&b""[..], UnexpectedEnd, 0),
            (b" ", UnexpectedEnd, 1),
            (b"{} {}", TrailingCharacters, 3),
            (b"\xff\xfe", InvalidUtf8, 0),
            (b"\xef\xbb\xbf{}", ExpectedValue, 0),
            (b"{,}", ExpectedMemberName, 1),
            (b"[1,]", ExpectedValue, 3),
            (b"{\"a\":1,}", ExpectedMemberName, 7),
            (b"{\"a\" 1}", ExpectedColon, 5),
            (b"{a:1}", ExpectedMemberName, 1),
            (b"'a'", ExpectedValue, 0),
            (b"01", TrailingCharacters, 1),
            (b"-", ExpectedDigit, 1),
            (b"1.", ExpectedDigit, 2),
            (b".5", ExpectedValue, 0),
            (b"1e", ExpectedDigit, 2),
            (b"+1", ExpectedValue, 0),
            (b"tru", ExpectedValue, 0),
            (b"nul", ExpectedValue, 0),
            (b"NaN", ExpectedValue, 0),
            (b"\"a", UnterminatedString, 2),
            (b"\"\x01\"", ControlCharacter, 1),
            (b"\"\\x\"", InvalidEscape, 3),
            (b"\"\\u12\"", InvalidUnicodeEscape, 5),
            (b"\"\\ud800\"", LoneSurrogate, 7),
            (b"\"\\udc00\"", LoneSurrogate, 7),
            (b"\"\\ud800\\u0041\"", LoneSurrogate, 13),
            (b"[1 2]", ExpectedCommaOrBracket, 3),
            (b"{\"a\":1 \"b\":2}", ExpectedCommaOrBrace, 7),
        ] {
            assert_eq!(
                error(bad),
                (kind, offset),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn numbers_split_into_safe_integers_and_others() {
        let parse = |text: &str| parse_strict(text.as_bytes()).unwrap();
        assert_eq!(parse("0"), Value::Integer(0));
        assert_eq!(parse("-17"), Value::Integer(-17));
        assert_eq!(parse("9007199254740991"), Value::Integer(MAX_SAFE_INTEGER));
        assert_eq!(
            parse("-9007199254740991"),
            Value::Integer(-MAX_SAFE_INTEGER)
        );
        for other in [
            "9007199254740992",
            "12345678901234567890123",
            "-0",
            "1.0",
            "1e2",
            "2E-3",
            "-0.5",
        ] {
            assert_eq!(parse(other), Value::OtherNumber((*other).into()), "{other}");
        }
        assert_eq!(parse("[1.5]").canonical(), None);
    }

    #[test]
    fn strings_decode_every_escape() {
        let v = parse_strict(r#""\"\\\/\b\f\n\r\t\u00e9\ud83d\ude02é""#.as_bytes()).unwrap();
        assert_eq!(v.as_str(), Some("\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1F602}é"));
    }

    #[test]
    fn canonical_form_sorts_by_utf16_and_escapes_minimally() {
        // U+FB33 sorts after U+1F602 in UTF-16 (a surrogate pair starts 0xD83D)
        // though not in UTF-8 or by code point.
        assert_eq!(
            canonical(r#"{"דּ":1,"😂":2,"b":[true,false,null],"a":{}}"#),
            r#"{"a":{},"b":[true,false,null],"😂":2,"דּ":1}"#
        );
        assert_eq!(
            canonical(r#""\u0001\u001f\u007f\u2028</script>""#),
            "\"\\u0001\\u001f\u{7f}\u{2028}</script>\""
        );
    }

    #[test]
    fn objects_stay_sorted_when_edited() {
        let mut o = Object::new();
        o.insert("b", Value::Integer(1));
        o.insert("a", "x".into());
        o.insert("b", Value::Integer(2));
        assert_eq!(
            Value::Object(o.clone()).canonical().unwrap(),
            r#"{"a":"x","b":2}"#
        );
        assert_eq!(o.remove("a"), Some("x".into()));
        assert_eq!(o.get("a"), None);
        assert_eq!(o.values().count(), 1);
    }

    #[test]
    fn object_parse_names_what_is_not_an_object() {
        assert_eq!(
            Object::parse(br#"{"b":1,"a":"x"}"#).map(|o| o.names().count()),
            Ok(2)
        );
        let not_json = Object::parse(b"{} x").unwrap_err();
        assert_eq!(
            not_json,
            ObjectError::NotJson(ParseError {
                kind: ParseErrorKind::TrailingCharacters,
                offset: 3
            })
        );
        assert_eq!(not_json.to_string(), "not strict JSON");
        assert_eq!(
            crate::writing::line(&not_json),
            "not strict JSON: trailing characters at byte 3"
        );
        for not_object in [&b"[1]"[..], b"null", b"\"1\""] {
            assert_eq!(Object::parse(not_object), Err(ObjectError::NotAnObject));
        }
        assert_eq!(ObjectError::NotAnObject.to_string(), "not a JSON object");
    }
}
