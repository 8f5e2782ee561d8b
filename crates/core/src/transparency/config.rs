//! A consumer's transparency settings (docs/protocol.md, Transparency log,
//! "The rule"): the log's key, the witnesses' keys, the quorum and the
//! policy, read and checked once here for every consumer, each of which
//! names the four settings its own way (`--log-key`, `logKey`,
//! `VERIFICATION_LOG_KEY`, `log_key`).

use super::note::{decimal, NoteKey};
use super::proof::{LogTrust, LogTrustError, Policy};

/// A consumer's transparency configuration: the policy it reads proofs
/// under and the log it trusts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogConfig {
    /// How proofs are taken: never [`Policy::Off`] (a consumer whose
    /// policy is `off` holds no configuration).
    pub policy: Policy,
    /// The log, its witnesses and the quorum.
    pub trust: LogTrust,
}

/// The four settings, as a consumer was given them (each as text, the
/// quorum as a whole number).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogSettings<'a> {
    /// The log's verifier key, `<origin>+<keyid>+<base64>`.
    pub log_key: Option<&'a str>,
    /// The witnesses' verifier keys.
    pub witness_keys: Vec<&'a str>,
    /// How many witnesses must cosign; one when witnesses are given and
    /// it is not, else none.
    pub witness_quorum: Option<u64>,
    /// `off` (the default), `if-present` or `required`.
    pub transparency: Option<&'a str>,
}

/// One of the four settings, for [`LogConfigError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogSetting {
    /// The log's key.
    LogKey,
    /// The witnesses' keys.
    WitnessKeys,
    /// The quorum.
    WitnessQuorum,
    /// The policy.
    Transparency,
}

impl LogSetting {
    /// Every setting, in the order they are read.
    pub const ALL: [LogSetting; 4] = [
        LogSetting::LogKey,
        LogSetting::WitnessKeys,
        LogSetting::WitnessQuorum,
        LogSetting::Transparency,
    ];

    /// The setting's name as the options object spells it (`logKey`,
    /// `witnessKeys`, `witnessQuorum`, `transparency`).
    pub fn option_name(self) -> &'static str {
        match self {
            LogSetting::LogKey => "logKey",
            LogSetting::WitnessKeys => "witnessKeys",
            LogSetting::WitnessQuorum => "witnessQuorum",
            LogSetting::Transparency => "transparency",
        }
    }
}

/// A rule a transparency setting breaks, as a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogRule {
    /// Not a verifier key `<origin>+<keyid>+<base64>` whose id matches.
    NotAVerifierKey,
    /// The setting is given without a log key.
    NeedsLogKey,
    /// A key of the wrong kind, a witness twice, a quorum too high.
    Trust(LogTrustError),
    /// Not a whole number.
    NotAQuorum,
    /// Not `off`, `if-present` or `required`.
    NotAPolicy,
    /// Not a string, or not a list of strings.
    NotText,
}

impl LogRule {
    /// The rule, as a predicate of the setting's name.
    pub fn as_str(self) -> &'static str {
        match self {
            LogRule::NotAVerifierKey => {
                "is not a note verifier key <origin>+<keyid>+<base64> whose keyid matches"
            }
            LogRule::NeedsLogKey => "needs the log's key",
            LogRule::Trust(LogTrustError::LogKeyKind) => {
                "is a witness's cosignature key (type 0x04), not a log's"
            }
            LogRule::Trust(LogTrustError::WitnessKeyKind) => {
                "holds a log's note key (type 0x01), not a witness's"
            }
            LogRule::Trust(LogTrustError::DuplicateWitness) => "names one witness twice",
            LogRule::Trust(LogTrustError::QuorumTooHigh) => "is more than the witnesses given",
            LogRule::NotAQuorum => "must be a whole number",
            LogRule::NotAPolicy => "must be off, if-present or required",
            LogRule::NotText => "must be text",
        }
    }
}

/// A transparency setting that breaks a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogConfigError {
    /// Which setting.
    pub setting: LogSetting,
    /// The rule it breaks.
    pub rule: LogRule,
}

impl LogConfigError {
    /// The error's line, the setting named by `name` (`--log-key is not a
    /// note verifier key …`).
    pub fn line_naming(&self, name: impl Fn(LogSetting) -> &'static str) -> String {
        [name(self.setting), " ", self.rule.as_str()].concat()
    }
}

impl ufmt::uDisplay for LogConfigError {
    /// The line naming the setting as the options object does.
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        f.write_str(&self.line_naming(LogSetting::option_name))
    }
}

crate::writing::error_without_cause!(LogConfigError);

/// Reads a quorum written as text (a flag, an environment variable).
///
/// # Errors
///
/// Not a whole number in decimal.
pub fn parse_quorum(text: &str) -> Result<u64, LogConfigError> {
    decimal(text.trim_ascii()).ok_or(LogConfigError {
        setting: LogSetting::WitnessQuorum,
        rule: LogRule::NotAQuorum,
    })
}

impl LogConfig {
    /// The configuration the settings make: `None` when the policy is
    /// `off` (proofs are then never read), after every setting is checked
    /// all the same.
    ///
    /// # Errors
    ///
    /// The first setting that breaks a rule: a key that is not a verifier
    /// key or of the wrong kind, a witness twice, a quorum above the
    /// witnesses, a policy not spelled as one, or witnesses, a quorum or a
    /// policy other than `off` without a log key.
    pub fn from_settings(settings: &LogSettings<'_>) -> Result<Option<Self>, LogConfigError> {
        let error = |setting, rule| LogConfigError { setting, rule };
        let policy = match settings.transparency.map(str::trim_ascii) {
            None => Policy::Off,
            Some(text) => {
                Policy::parse(text).ok_or(error(LogSetting::Transparency, LogRule::NotAPolicy))?
            }
        };
        let key = |text: &str, setting| {
            NoteKey::parse(text.trim_ascii()).ok_or(error(setting, LogRule::NotAVerifierKey))
        };
        let witnesses = settings
            .witness_keys
            .iter()
            .map(|text| key(text, LogSetting::WitnessKeys))
            .collect::<Result<Vec<_>, _>>()?;
        let Some(log_key) = settings.log_key else {
            let unneeded = [
                (!witnesses.is_empty(), LogSetting::WitnessKeys),
                (settings.witness_quorum.is_some(), LogSetting::WitnessQuorum),
                (policy != Policy::Off, LogSetting::Transparency),
            ];
            return match unneeded.into_iter().find(|(given, _)| *given) {
                Some((_, setting)) => Err(error(setting, LogRule::NeedsLogKey)),
                None => Ok(None),
            };
        };
        let log = key(log_key, LogSetting::LogKey)?;
        let quorum = settings
            .witness_quorum
            .unwrap_or(u64::from(!witnesses.is_empty()));
        let quorum = usize::try_from(quorum).unwrap_or(usize::MAX);
        let trust = LogTrust::new(log, witnesses, quorum).map_err(|e| {
            let setting = match e {
                LogTrustError::LogKeyKind => LogSetting::LogKey,
                LogTrustError::WitnessKeyKind | LogTrustError::DuplicateWitness => {
                    LogSetting::WitnessKeys
                }
                LogTrustError::QuorumTooHigh => LogSetting::WitnessQuorum,
            };
            error(setting, LogRule::Trust(e))
        })?;
        Ok((policy != Policy::Off).then_some(LogConfig { policy, trust }))
    }
}
