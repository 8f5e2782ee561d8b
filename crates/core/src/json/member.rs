//! The one reader of a JSON object's members that every document reader
//! shares (verdicts, payment challenges, published metrics, and the
//! service's registry in the command): [`Members`] reads a member by name as
//! a string, a boolean, a list or a time, and says which [`MemberRule`] it
//! breaks; [`MemberError`] names where, by its [`MemberPath`]. Public as part of [`crate::json`].

use crate::json::{Object, Value};
use crate::time::Timestamp;
use crate::writing::{display_from_words, error_without_cause, uDisplay, words_from_str};

/// A rule any member can break, whatever the document. `Copy`, holding no
/// text, so that the errors holding it cost the browser's wasm nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberRule {
    /// It is required and absent.
    Missing,
    /// It is not a string.
    NotAString,
    /// It is not `true` or `false`.
    NotABoolean,
    /// It is not an array.
    NotAList,
    /// It is not an object.
    NotAnObject,
    /// It is a string, but not an RFC 3339 UTC time.
    NotATime,
}

impl MemberRule {
    /// The words after the member's name (`is missing`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Missing => "is missing",
            Self::NotAString => "is not a string",
            Self::NotABoolean => "is not true or false",
            Self::NotAList => "is not a list",
            Self::NotAnObject => "is not an object",
            Self::NotATime => "is not an RFC 3339 UTC time",
        }
    }
}

words_from_str!(MemberRule);

impl MemberRule {
    /// This rule, broken at `at`.
    pub fn at(self, at: MemberPath) -> MemberError {
        MemberError { at, rule: self }
    }
}

/// A member that breaks a rule, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberError {
    /// The member.
    pub at: MemberPath,
    /// The rule it breaks.
    pub rule: MemberRule,
}

impl uDisplay for MemberError {
    /// `entry.payTo is missing`.
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        ufmt::uwrite!(f, "{} {}", self.at, self.rule)
    }
}

/// A member an object's format does not have, for [`Members::only`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownMember(pub String);

impl uDisplay for UnknownMember {
    /// `unknown member `extra``.
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        ufmt::uwrite!(f, "unknown member `{}`", self.0)
    }
}

/// Where in a document: the members and items from the top, written as
/// `series[2] (revenue): points[0].active`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberPath(pub Vec<Step>);

/// One step of a [`MemberPath`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The member of an object with this name.
    Member(String),
    /// The item of an array at this index.
    Item(usize),
    /// An item of a list at this index, known by this id: written
    /// `[2] (revenue):`.
    Series(usize, String),
}

impl MemberPath {
    /// The document itself.
    pub fn root() -> Self {
        MemberPath::default()
    }

    /// This path, then the member `name`.
    pub fn member(&self, name: &str) -> Self {
        self.then(Step::Member(name.to_owned()))
    }

    /// This path, then the item at `index`.
    pub fn item(&self, index: usize) -> Self {
        self.then(Step::Item(index))
    }

    /// This path (to a list), then its item at `index` known by `id`.
    pub fn series(&self, index: usize, id: &str) -> Self {
        self.then(Step::Series(index, id.to_owned()))
    }

    fn then(&self, step: Step) -> Self {
        let mut steps = self.0.clone();
        steps.push(step);
        MemberPath(steps)
    }
}

impl uDisplay for MemberPath {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        let mut before: Option<&Step> = None;
        for step in &self.0 {
            match (step, before) {
                (Step::Member(name), Some(Step::Series(..))) => ufmt::uwrite!(f, ": {}", name)?,
                (Step::Member(name), Some(_)) => ufmt::uwrite!(f, ".{}", name)?,
                (Step::Member(name), None) => f.write_str(name)?,
                (Step::Item(index), _) => ufmt::uwrite!(f, "[{}]", *index)?,
                (Step::Series(index, id), _) => ufmt::uwrite!(f, "[{}] ({})", *index, id)?,
            }
            before = Some(step);
        }
        Ok(())
    }
}

display_from_words!(MemberRule, MemberPath);
// The rule completes the sentence that names the member (`entry.payTo is
// missing`): it is no cause of its own.
error_without_cause!(MemberError, UnknownMember);

/// The members of one object, read by name. Each reading says which
/// [`MemberRule`] the member breaks; `null` is a value like any other (not a
/// string, not a boolean).
#[derive(Clone, Copy, Debug)]
pub struct Members<'a>(pub &'a Object);

impl<'a> Members<'a> {
    /// Member `name`.
    ///
    /// # Errors
    ///
    /// [`MemberRule::Missing`].
    pub fn required(self, name: &str) -> Result<&'a Value, MemberRule> {
        self.0.get(name).ok_or(MemberRule::Missing)
    }

    /// Member `name` as a string, `None` when absent.
    ///
    /// # Errors
    ///
    /// [`MemberRule::NotAString`].
    pub fn optional_str(self, name: &str) -> Result<Option<&'a str>, MemberRule> {
        match self.0.get(name) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(_) => Err(MemberRule::NotAString),
        }
    }

    /// Member `name` as a string.
    ///
    /// # Errors
    ///
    /// [`MemberRule::Missing`] or [`MemberRule::NotAString`].
    pub fn str(self, name: &str) -> Result<&'a str, MemberRule> {
        self.optional_str(name)?.ok_or(MemberRule::Missing)
    }

    /// Member `name` as an RFC 3339 UTC time, `None` when absent.
    ///
    /// # Errors
    ///
    /// [`MemberRule::NotAString`] or [`MemberRule::NotATime`].
    pub fn optional_time(self, name: &str) -> Result<Option<Timestamp>, MemberRule> {
        self.optional_str(name)?
            .map(|text| Timestamp::parse_rfc3339(text).ok_or(MemberRule::NotATime))
            .transpose()
    }

    /// Member `name` as an RFC 3339 UTC time.
    ///
    /// # Errors
    ///
    /// [`MemberRule::Missing`], [`MemberRule::NotAString`] or [`MemberRule::NotATime`].
    pub fn time(self, name: &str) -> Result<Timestamp, MemberRule> {
        self.optional_time(name)?.ok_or(MemberRule::Missing)
    }

    /// Member `name` as a boolean.
    ///
    /// # Errors
    ///
    /// [`MemberRule::Missing`] or [`MemberRule::NotABoolean`].
    pub fn bool(self, name: &str) -> Result<bool, MemberRule> {
        match self.required(name)? {
            Value::Bool(flag) => Ok(*flag),
            _ => Err(MemberRule::NotABoolean),
        }
    }

    /// Member `name` as a list.
    ///
    /// # Errors
    ///
    /// [`MemberRule::Missing`] or [`MemberRule::NotAList`].
    pub fn list(self, name: &str) -> Result<&'a [Value], MemberRule> {
        self.required(name)?.as_array().ok_or(MemberRule::NotAList)
    }

    /// Refuses the first member whose name is not in `allowed`.
    ///
    /// # Errors
    ///
    /// [`UnknownMember`], naming it.
    pub fn only(self, allowed: &[&str]) -> Result<(), UnknownMember> {
        match self.0.names().find(|name| !allowed.contains(name)) {
            Some(name) => Err(UnknownMember(name.to_owned())),
            None => Ok(()),
        }
    }
}
