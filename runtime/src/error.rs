//! Typed errors of the runtime.
//!
//! Messages are lowercase, one line, without a final period, and name fields,
//! tools, indices and codes only. No message, `Debug` output or payload ever
//! contains an argument value: the runtime handles data the contract may
//! forbid anyone to see, and error text ends up in logs. Every error on the
//! decision path ends in DEFER or BLOCK (see [`crate::monitor`]).

use thiserror::Error;

/// Why a table could not be loaded. The runtime refuses such a table.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// The bytes are not JSON of the table's shape.
    #[error("table is not valid at line {line}, column {column}: {reason}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde found wrong (field and variant names; quoted strings elided).
        reason: String,
    },
    /// The table was written by a different format version.
    #[error(
        "table format version {found} is not supported (this runtime reads version {supported})"
    )]
    UnsupportedVersion {
        /// Version in the file.
        found: u32,
        /// Version this runtime reads.
        supported: u32,
    },
    /// The bytes are valid JSON but not the canonical layout.
    #[error("table bytes are not in canonical layout (write tables with `stpc compile` or `Table::to_json_pretty`)")]
    NotCanonical,
    /// The digest does not match the content.
    #[error("table digest does not match its content (the table is corrupted or was edited)")]
    DigestMismatch,
    /// A signature was required and there is none, it is malformed, it is
    /// not over this table's digest, or no trusted key made it.
    #[error("table signature refused: {0}")]
    Signature(String),
    /// The labeler index given with the table is not the one it names.
    #[error("labeler index refused: {0}")]
    Index(&'static str),
    /// The table could not be re-encoded (a non-finite number).
    #[error("table could not be encoded canonically (a number is not finite)")]
    Encode,
    /// An index points outside the vector it refers to.
    #[error("{what} refers to index {index} but only {len} exist")]
    IndexOutOfRange {
        /// Path of the offending field, such as `cells[3].transforms[0]`.
        what: String,
        /// The index found.
        index: u64,
        /// Number of valid indices.
        len: usize,
    },
    /// A structural rule of the format is broken.
    #[error("{what}: {rule}")]
    Invalid {
        /// Path of the offending part, such as `diagram.nodes[4]`.
        what: String,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// A branch does not have one child per value of its dimension.
    #[error("diagram.nodes[{node}] tests dimension {dim} with {found} children but the dimension has {expected} values")]
    ChildCount {
        /// Node index.
        node: u32,
        /// Dimension index.
        dim: u16,
        /// Values of the dimension.
        expected: usize,
        /// Children found.
        found: usize,
    },
    /// A labeler pattern does not compile.
    #[error("labeler `{labeler}` rule {} has a pattern that does not compile", rule + 1)]
    BadPattern {
        /// `args` or `destination`.
        labeler: &'static str,
        /// Rule index (from 0; the message numbers rules from 1, as every
        /// message people read does).
        rule: usize,
    },
    /// A lexicon could not be compiled into a matcher.
    #[error("lexicon {lexicon} could not be compiled into a matcher")]
    BadLexicon {
        /// Lexicon index.
        lexicon: usize,
    },
}

impl LoadError {
    /// Convert a serde_json error, keeping its position and eliding quoted
    /// strings from its message.
    pub(crate) fn from_json(e: &serde_json::Error) -> LoadError {
        LoadError::Json {
            line: e.line(),
            column: e.column(),
            reason: elide_quoted(&e.to_string()),
        }
    }

    pub(crate) fn invalid(what: impl Into<String>, rule: &'static str) -> LoadError {
        LoadError::Invalid {
            what: what.into(),
            rule,
        }
    }
}

/// Replace every `"..."` in a serde message by `"…"`, and the backticked
/// name serde quotes from the input (`unknown variant `x``, `unknown field
/// `x``, `duplicate field `x``) by `` `…` `` unless it is a short plain
/// identifier (a misspelt key), and cut the trailing position
/// serde appends (we report it separately). Table content never reaches a
/// message: a hostile table could carry terminal escapes or megabytes in a
/// name. The names serde lists as expected are the format's own and stay.
pub(crate) fn elide_quoted(msg: &str) -> String {
    let msg = msg.split(" at line ").next().unwrap_or(msg);
    let mut out = String::with_capacity(msg.len());
    let mut inside = false;
    for ch in msg.chars() {
        if ch == '"' {
            if inside {
                out.push('…');
                out.push('"');
            } else {
                out.push('"');
            }
            inside = !inside;
        } else if !inside {
            out.push(ch);
        }
    }
    for prefix in ["unknown variant `", "unknown field `", "duplicate field `"] {
        if let Some(at) = out.find(prefix) {
            let start = at + prefix.len();
            // The input's name ends at the first backtick followed by a
            // comma or the end of the message.
            let rest = out.get(start..).unwrap_or("");
            let end = rest
                .match_indices('`')
                .map(|(i, _)| i)
                .find(|&i| matches!(rest.get(i + 1..i + 2), None | Some(",")))
                .unwrap_or(rest.len());
            // A plain short identifier (a misspelt key) helps and cannot
            // carry anything; anything else is elided.
            let name = rest.get(..end).unwrap_or("");
            let plain = (1..=32).contains(&name.len())
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            if !plain {
                out.replace_range(start..start + end, "…");
            }
        }
    }
    out.retain(|c| !c.is_control());
    out
}

/// Why a point of the abstract domain could not be built. The monitor turns
/// each into a fail-closed decision.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecideError {
    /// The mode name is not a value of the mode dimension.
    #[error("mode is not declared by the contract")]
    UnknownMode,
    /// Confidence is NaN or infinite.
    #[error("confidence is not a finite number")]
    NonFiniteConfidence,
    /// Confidence is outside `[0, 1]`.
    #[error("confidence is outside [0, 1]")]
    ConfidenceOutOfRange,
    /// The number of budget states does not match the table.
    #[error("expected {expected} budget states, found {found}")]
    BudgetCount {
        /// Budgets in the table.
        expected: usize,
        /// States supplied.
        found: usize,
    },
    /// A label id is outside its lattice.
    #[error("a label id is outside its lattice")]
    LabelOutOfRange,
    /// The table has more dimensions than a point can hold.
    #[error("the table has too many dimensions")]
    TooManyDimensions,
    /// The arguments nest deeper than the labeler reads.
    #[error("the arguments nest more than {limit} levels deep")]
    ArgumentsTooDeep {
        /// The limit, [`crate::label::MAX_DEPTH`].
        limit: usize,
    },
    /// The arguments hold more text than the labeler reads.
    #[error("the arguments hold more than {limit} bytes of text")]
    ArgumentsTooLarge {
        /// The limit, [`crate::label::MAX_BYTES`].
        limit: usize,
    },
}

/// Misuse of the monitor's task protocol.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MonitorError {
    /// An event was issued outside a task.
    #[error("no task is active (call `begin_task` first)")]
    NoTask,
    /// `begin_task` while another task is active.
    #[error("a task is already active (call `end_task` first)")]
    TaskActive,
    /// A ticket or event from an earlier task was handed back.
    #[error("event {seq} belongs to an earlier task")]
    StaleEvent {
        /// Event sequence number.
        seq: u64,
    },
    /// The table has no `committed` mode, so promotion is impossible.
    #[error("the table's mode dimension has no `committed` value")]
    NoCommittedMode,
    /// A budget name the table does not declare.
    #[error("the table declares no budget of that name")]
    UnknownBudget,
    /// The audit sink failed when the task ended.
    #[error("audit sink failed: {0}")]
    Audit(#[from] AuditError),
}

/// Failure of an audit sink.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuditError {
    /// Writing or reading the sink failed.
    #[error("audit sink i/o failed ({kind})")]
    Io {
        /// The `std::io::ErrorKind`, as text.
        kind: String,
    },
    /// A record could not be encoded.
    #[error("audit record could not be encoded")]
    Encode,
    /// A sink supplied by an embedding (a Python callable, say) refused or
    /// failed to record; what it raised is not repeated, as it may quote
    /// the record.
    #[error("audit sink refused the record")]
    Refused,
}

impl From<std::io::Error> for AuditError {
    fn from(e: std::io::Error) -> AuditError {
        AuditError::Io {
            kind: e.kind().to_string(),
        }
    }
}
