//! Recognisers for the entity kinds of `entity <kind> -> <label>` rules and
//! `redact entity <kind>` steps.
//!
//! Each kind is one hand-written regular expression, compiled once per
//! [`crate::Engine`]. They aim at high recall on the shapes agents actually
//! put into tool arguments (US and international phone numbers, ISO and
//! written dates, SSN-like identifiers, ...) rather than at validating them:
//! a false positive costs a rewrite, a false negative leaks.
//!
//! Where the entity is only part of the match (the name after `my name is`),
//! the expression puts it in a group named `e`; redaction replaces only that
//! group.
//!
//! Word boundaries are ASCII (`(?-u:\b)`): every shape here begins and ends
//! with ASCII, and an ASCII boundary keeps the expressions within the lazy
//! DFA on any text (a Unicode `\b` sends non-ASCII text to a slower
//! engine). One [`PatternSet`] of every kind finds, in one pass over a
//! value, which kinds occur.

use std::sync::{Arc, OnceLock};

use regex::Regex;

use crate::patterns::{self, PatternSet};

use crate::table::EntityKind;

/// The expression for one kind.
#[must_use]
pub fn pattern(kind: EntityKind) -> &'static str {
    match kind {
        EntityKind::Email => {
            r"(?i)(?-u:\b)[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?-u:\b)"
        }
        EntityKind::Phone => concat!(
            r"(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|(?-u:\b)\d{3}[ .-])\d{3}[ .-]?\d{4}(?-u:\b)",
            r"|\+\d{1,3}[ .-]?\d{2,4}[ .-]?\d{3,4}[ .-]?\d{3,4}(?-u:\b)",
            r"|(?-u:\b)\d{3}\.\d{3}\.\d{4}(?-u:\b)"
        ),
        EntityKind::PersonName => concat!(
            r"(?-u:\b)(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+(?P<e>[A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)?)",
            r"|(?i:(?-u:\b)my\s+name\s+is|(?-u:\b)name\s*:)\s+(?P<e2>[A-Za-z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)?)"
        ),
        EntityKind::Date => concat!(
            r"(?i)(?-u:\b)\d{4}-\d{1,2}-\d{1,2}(?-u:\b)",
            r"|(?-u:\b)\d{1,2}/\d{1,2}/\d{2,4}(?-u:\b)",
            r"|(?-u:\b)\d{1,2}\.\d{1,2}\.\d{4}(?-u:\b)",
            r"|(?-u:\b)(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?(?-u:\b)",
            r"|(?-u:\b)\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?-u:\b)(?:,?\s+\d{4}(?-u:\b))?"
        ),
        EntityKind::Time => concat!(
            r"(?i)(?-u:\b)(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:\s?[ap]\.?m(?-u:\b)\.?)?",
            r"|(?-u:\b)(?:1[0-2]|0?[1-9])\s?[ap]\.?m(?-u:\b)\.?"
        ),
        EntityKind::Money => concat!(
            r"(?i)[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|thousand|million|billion)(?-u:\b))?",
            r"|(?-u:\b)\d[\d,]*(?:\.\d+)?\s?(?:k\s)?(?:usd|eur|gbp|dollars?|euros?|pounds?|bucks)(?-u:\b)"
        ),
        EntityKind::GovId => concat!(
            r"(?-u:\b)\d{3}-\d{2}-\d{4}(?-u:\b)",
            r"|(?-u:\b)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?-u:\b)",
            r"|(?i:(?-u:\b)(?:ssn|social security(?: number)?|passport(?: number| no\.?)?|national id|tax id|driver'?s licen[cs]e(?: number)?)\s*[:#]?\s*)(?P<e>[A-Z0-9][A-Z0-9-]{4,})(?-u:\b)"
        ),
        EntityKind::Address => concat!(
            r"(?i)(?-u:\b)\d{1,6}\s+(?:[a-z0-9.'-]+\s+){0,4}",
            r"(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|parkway|pkwy|highway|hwy|square|sq|circle|cir)(?-u:\b)\.?",
            // Dutch and German street names end in their kind, the number follows.
            r"|(?i)(?-u:\b)[a-zà-ÿ'-]{2,}(?:straat|strasse|straße|str\.|steeg|weg|laan|gracht|plein|kade|dijk|singel|markt|allee|gasse|platz|ring|damm|ufer)\s+\d{1,4}[a-z]?(?-u:\b)",
            // French, Spanish and Italian: kind, name, number (either order).
            r"|(?i)(?-u:\b)(?:rue|avenue|boulevard|bd|chemin|impasse|allée|calle|c/|avenida|avda\.?|plaza|paseo|carrer|via|viale|piazza)\s+(?:(?:de|del|la|las|los|des|du|le|les|di|della)\s+)*[a-zà-ÿ'-]{2,}(?:\s+[a-zà-ÿ'-]{2,}){0,3},?\s+(?:n[º°o]\.?\s*)?\d{1,4}(?-u:\b)",
            r"|(?i)(?-u:\b)\d{1,4}(?:\s?bis)?,?\s+(?:rue|avenue|boulevard|bd|chemin|impasse|allée|place)(?-u:\b)"
        ),
        EntityKind::Url => r#"(?i)(?-u:\b)(?:https?|ftp)://[^\s<>"']+|(?-u:\b)www\.[^\s<>"']+"#,
        EntityKind::Ip => concat!(
            r"(?-u:\b)(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?-u:\b)",
            r"|(?i)(?-u:\b)(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?-u:\b)",
            r"|(?i)(?-u:\b)(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}:?){0,6}[0-9a-f]{1,4}(?-u:\b)"
        ),
        EntityKind::Secret => concat!(
            // Prefixed tokens of the common providers.
            r"(?-u:\b)(?:glpat|gldt|ghp|gho|ghu|ghs|ghr|github_pat|xox[abprs]|sk|sk_live|sk_test|rk_live|pk_live|npm|pypi|hf|shpat|dop_v1)[-_][A-Za-z0-9_-]{12,}",
            r"|(?-u:\b)(?:AKIA|ASIA)[0-9A-Z]{16}(?-u:\b)|(?-u:\b)AIza[0-9A-Za-z_-]{20,}",
            // A JWT, a private key block.
            r"|(?-u:\b)eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
            r"|-----BEGIN [A-Z ]*PRIVATE KEY-----|(?-u:\b)ssh-(?:ed25519|rsa|dss|ecdsa[\w-]*) AAAA[0-9A-Za-z+/]{8,}",
            // A secret given inline: `password=...`, `api_key: ...`.
            r"|(?i:(?-u:\b)(?:password|passwd|pwd|passwort|wachtwoord|contraseña|mot de passe|secret|token|api[_-]?key|access[_-]?key)\s*[:=]\s*)[^\s,;]{4,}"
        ),
        EntityKind::Coordinates => {
            r"-?(?-u:\b)(?:[0-8]?\d|90)\.\d{3,},\s?-?(?-u:\b)(?:1[0-7]\d|0?\d{1,2}|180)\.\d{3,}(?-u:\b)"
        }
        EntityKind::AccountNumber => concat!(
            r"(?-u:\b)[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?-u:\b)",
            r"|(?-u:\b)(?:\d{4}[ -]){3}\d{4}(?-u:\b)|(?-u:\b)\d{16}(?-u:\b)"
        ),
    }
}

/// The compiled recognisers.
///
/// They do not depend on the table, so one set serves every engine of a
/// process ([`Recognisers::shared`]), and each kind's own expression (for
/// finding and redacting, not for detecting) is compiled the first time a
/// rewrite needs it: an engine's start-up pays for the detecting set only.
#[derive(Debug)]
pub struct Recognisers {
    by_kind: [OnceLock<Option<Regex>>; EntityKind::ALL.len()],
    /// Every kind, in [`EntityKind::ALL`] order.
    any: PatternSet,
}

impl Recognisers {
    /// Compile the detecting set (the set compiles exactly when every
    /// kind's expression does).
    ///
    /// # Errors
    ///
    /// A kind whose expression does not compile (a bug, caught by tests).
    pub fn new() -> Result<Recognisers, EntityKind> {
        let limits = patterns::Limits {
            nfa: 1 << 23,
            cache: 1 << 21,
        };
        let any = PatternSet::new(&EntityKind::ALL.map(pattern), limits)
            .map_err(|_| EntityKind::ALL[0])?;
        Ok(Recognisers {
            by_kind: std::array::from_fn(|_| OnceLock::new()),
            any,
        })
    }

    /// The recognisers of this process, compiled on first use.
    ///
    /// # Errors
    ///
    /// As [`Recognisers::new`].
    pub fn shared() -> Result<Arc<Recognisers>, EntityKind> {
        static SHARED: OnceLock<Result<Arc<Recognisers>, EntityKind>> = OnceLock::new();
        SHARED
            .get_or_init(|| Recognisers::new().map(Arc::new))
            .clone()
    }

    /// Which kinds occur in `text`, indexed as [`EntityKind::ALL`], in one
    /// pass.
    #[must_use]
    pub fn present(&self, text: &str) -> [bool; EntityKind::ALL.len()] {
        let mut out = [false; EntityKind::ALL.len()];
        self.any.matches(text, |i| {
            if let Some(slot) = out.get_mut(i) {
                *slot = true;
            }
        });
        out
    }

    fn regex(&self, kind: EntityKind) -> Option<&Regex> {
        let i = EntityKind::ALL.iter().position(|k| *k == kind)?;
        self.by_kind
            .get(i)?
            .get_or_init(|| Regex::new(pattern(kind)).ok())
            .as_ref()
    }

    /// Whether `text` contains an entity of `kind`. Fails closed: a missing
    /// recogniser reports a match.
    #[must_use]
    pub fn is_match(&self, kind: EntityKind, text: &str) -> bool {
        self.regex(kind).is_none_or(|r| r.is_match(text))
    }

    /// Byte ranges of the entities of `kind` in `text`, in order, non-overlapping.
    #[must_use]
    pub fn find(&self, kind: EntityKind, text: &str) -> Vec<std::ops::Range<usize>> {
        let Some(re) = self.regex(kind) else {
            return std::iter::once(0..text.len()).collect();
        };
        re.captures_iter(text)
            .filter_map(|c| {
                c.name("e")
                    .or_else(|| c.name("e2"))
                    .or_else(|| c.get(0))
                    .map(|m| m.range())
            })
            .collect()
    }
}
