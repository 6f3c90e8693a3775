//! The decision-table wire format: the contract between the compiler and
//! every runtime.
//!
//! A table is plain JSON. Everything a runtime needs is in it: the two label
//! lattices with dense join tables, the dimensions of the abstract domain, a
//! reduced ordered multi-valued decision diagram over those dimensions whose
//! terminals are cells (action + transform or substitute + the rule that
//! produced it), the tool, destination and observer vocabularies, the forbidden
//! cuts, thresholds, budgets, audit policy, substitutes, transforms, lexicons
//! and labeler rules.
//!
//! Design rules, shared with Cedar's EST:
//!
//! - every struct is `#[serde(deny_unknown_fields)]` and every enum has an
//!   explicit `rename_all = "snake_case"`; enums with data are internally
//!   tagged, so a reader in another language dispatches on one string field;
//! - names are referred to by dense index (`u32`) into the vector that declares
//!   them, never by string, so a runtime resolves nothing at decision time;
//! - the table is versioned ([`FORMAT_VERSION`]) and carries a SHA-256 digest
//!   of its canonical encoding ([`compute_digest`]); [`Table::from_json`] refuses an
//!   unknown version, a wrong digest, a file that is not byte-for-byte in one
//!   of the two canonical layouts, and any structural inconsistency (see
//!   [`validate`]);
//! - evaluation fails closed: `decide::evaluate` returns a synthetic BLOCK
//!   cell for any out-of-range index, never ALLOW;
//! - the dimension order and the meaning of confidence and budget values are
//!   defined once, in [`domain`].
//!
//! Why a decision diagram rather than a dense array of cells: the domain is a
//! product (tools × destinations × modes × labels × confidence intervals ×
//! budget states), which grows multiplicatively, while contracts decide on a
//! few of those dimensions at a time. The compiler shares equal subtables, so
//! the table stays small, and an evaluation is still one array lookup per
//! dimension.

pub(crate) mod digest;
pub mod domain;
mod layout;
mod schema;
pub mod validate;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::LoadError;

pub use digest::{canonical_bytes, compute_digest};
pub use schema::json_schema;

/// The format version this runtime reads and writes.
pub const FORMAT_VERSION: u32 = 2;

/// The name of the implicit last value of the tool and destination dimensions.
pub const UNKNOWN: &str = "<unknown>";

/// The name of the implicit last value of the label dimensions.
pub const MISSING: &str = "<missing>";

/// The most dimensions a table may have (six fixed, budgets, field labels).
pub const MAX_DIMS: usize = 24;

/// A compiled contract: the whole wire format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Table {
    /// Version of this format; must equal [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Lowercase hex SHA-256 of the canonical encoding (see [`compute_digest`]).
    pub digest: String,
    /// Name of the contract the table was compiled from.
    pub contract: String,
    /// Contract parameters after substitution, by name.
    pub params: BTreeMap<String, f64>,
    /// The argument and destination label lattices.
    pub lattices: Lattices,
    /// The dimensions of the abstract domain, in the fixed order of [`DimensionKind`].
    pub dimensions: Vec<Dimension>,
    /// The decision diagram over `dimensions`.
    pub diagram: Diagram,
    /// Terminal cells that diagram leaves point to.
    pub cells: Vec<Cell>,
    /// Tools the contract knows (index = tool id = value of the tool dimension).
    pub tools: Vec<Tool>,
    /// Destinations (index = destination id = value of the destination dimension).
    pub destinations: Vec<Destination>,
    /// Whether the contract allows destinations its tools do not declare
    /// and decides them by the destination labeler's label
    /// (`destinations undeclared;`). Absent (false) in every table whose
    /// contract does not say so: the verifier then proves that every
    /// `<unknown>` destination is DEFERred or BLOCKed; when true, only
    /// that an `<unknown>` destination without a label is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undeclared_destinations: bool,
    /// Observer classes.
    pub observers: Vec<Observer>,
    /// Forbidden cuts: labels that must not reach the named observers.
    pub forbid: Vec<ForbidCut>,
    /// Confidence thresholds per mode (informational; the diagram already uses them).
    pub thresholds: Vec<Threshold>,
    /// Per-task disclosure budgets (index = budget id).
    pub budgets: Vec<Budget>,
    /// Who receives audit records and what they may contain.
    pub audit: AuditPolicy,
    /// Trusted local substitutes for SHADOW.
    pub substitutes: Vec<Substitute>,
    /// REWRITE transforms.
    pub transforms: Vec<Transform>,
    /// Phrase lists used by labeler rules and transforms.
    pub lexicons: Vec<Lexicon>,
    /// Labeler rules for arguments and destinations.
    pub labelers: Labelers,
    /// The precompiled labeler index `stpc compile` wrote beside the table
    /// (see [`crate::label::index`]). Absent in a table without one; a
    /// process then builds the index from `lexicons` itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<IndexRef>,
}

/// Names the labeler index that belongs to a table. It is covered by the
/// digest (and a signature), so an index is trusted exactly when its bytes
/// hash to `sha256`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct IndexRef {
    /// Lowercase hex SHA-256 of the index file.
    pub sha256: String,
    /// Length of the index file in bytes.
    pub bytes: u64,
}

/// The two label lattices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Lattices {
    /// Lattice of argument labels (`public < personal < ...`).
    pub args: Lattice,
    /// Lattice of destination labels.
    pub destination: Lattice,
}

/// A finite lattice with a dense join table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Lattice {
    /// Name of the lattice in the source.
    pub name: String,
    /// Label names; the index is the label id.
    pub labels: Vec<String>,
    /// `join[a][b]` is the label id of the least upper bound of `a` and `b`;
    /// `a <= b` exactly when `join[a][b] == b`.
    pub join: Vec<Vec<u32>>,
    /// Label id of the least element.
    pub bottom: u32,
}

impl Lattice {
    /// Join of two label ids; an out-of-range id joins to `None`.
    #[must_use]
    pub fn join(&self, a: u32, b: u32) -> Option<u32> {
        self.join.get(a as usize)?.get(b as usize).copied()
    }

    /// Whether `a <= b`; false when either id is out of range.
    #[must_use]
    pub fn leq(&self, a: u32, b: u32) -> bool {
        self.join(a, b) == Some(b)
    }

    /// Name of a label id.
    #[must_use]
    pub fn label_name(&self, id: u32) -> Option<&str> {
        self.labels.get(id as usize).map(String::as_str)
    }

    /// Id of a label name.
    #[must_use]
    pub fn label_id(&self, name: &str) -> Option<u32> {
        self.labels
            .iter()
            .position(|l| l == name)
            .and_then(|i| u32::try_from(i).ok())
    }
}

/// One dimension of the abstract domain and its value names.
///
/// Dimensions appear in this order: `tool`, `destination`, `mode`,
/// `arg_label`, `dest_label`, `confidence`, then one `budget` per budget in
/// budget order, then any `field_label` dimensions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Dimension {
    /// What the dimension ranges over.
    pub kind: DimensionKind,
    /// Value names; the index is the value id used by branch children.
    pub values: Vec<String>,
}

/// What a dimension ranges over, with the data needed to compute its value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "dim")]
pub enum DimensionKind {
    /// `tools[i].name` for each tool, then [`UNKNOWN`].
    Tool,
    /// `destinations[i].name` for each destination, then [`UNKNOWN`].
    Destination,
    /// The execution modes; must contain `committed`.
    Mode,
    /// Argument lattice labels, then [`MISSING`]: the join over all fields.
    ArgLabel,
    /// Destination lattice labels, then [`MISSING`].
    DestLabel,
    /// Confidence intervals: value `i` is `[cuts[i-1], cuts[i])`, with
    /// `cuts[-1] = -inf` and `cuts[len] = +inf`, so there are `len + 1` values.
    Confidence {
        /// Strictly increasing finite cut points.
        cuts: Vec<f64>,
    },
    /// Budget state: value 0 is `available`, value 1 is `exhausted`.
    Budget {
        /// Budget id.
        budget: u32,
    },
    /// The label of one named argument field: argument labels, then [`MISSING`]
    /// (field absent).
    FieldLabel {
        /// Field name.
        field: String,
    },
}

/// A reduced ordered multi-valued decision diagram.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Diagram {
    /// Index of the root node.
    pub root: u32,
    /// Nodes; a branch's children always test a later dimension or are leaves.
    pub nodes: Vec<Node>,
}

/// One node of the decision diagram.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "node")]
pub enum Node {
    /// Test dimension `dim`; `children[v]` is the next node for value `v`.
    Branch {
        /// Dimension index.
        dim: u16,
        /// One node index per value of the dimension.
        children: Vec<u32>,
    },
    /// A terminal.
    Leaf {
        /// Cell index.
        cell: u32,
    },
}

/// The five actions of the decision function.
///
/// Ordered by what they disclose at issue time ([`Action::disclosure_rank`]):
/// ALLOW discloses the event as proposed, REWRITE a transformed event,
/// SHADOW and DEFER nothing yet, BLOCK nothing ever.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Dispatch unchanged.
    Allow,
    /// Transform fields at or above the cut, then dispatch.
    Rewrite,
    /// Run a trusted local substitute instead.
    Shadow,
    /// Buffer until the branch is promoted or abandoned.
    Defer,
    /// Drop with a policy denial.
    Block,
}

impl Action {
    /// How much the action discloses at issue time: BLOCK 0, SHADOW and
    /// DEFER 1, REWRITE 2, ALLOW 3. A change to a higher rank weakens a
    /// contract; the verifier's monotonicity check and `stpc diff` both
    /// order actions by it.
    #[must_use]
    pub fn disclosure_rank(self) -> u8 {
        match self {
            Action::Allow => 3,
            Action::Rewrite => 2,
            Action::Shadow | Action::Defer => 1,
            Action::Block => 0,
        }
    }

    /// The lowercase name used in the table and in audit records.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Allow => "allow",
            Action::Rewrite => "rewrite",
            Action::Shadow => "shadow",
            Action::Defer => "defer",
            Action::Block => "block",
        }
    }
}

/// A terminal of the diagram: one decision and its provenance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Cell {
    /// The action.
    pub action: Action,
    /// Transform indices, applied in order (REWRITE only; empty otherwise).
    pub transforms: Vec<u32>,
    /// Substitute index (SHADOW only); `null` means the tool's own substitute.
    pub substitute: Option<u32>,
    /// Index of the `decide` rule that produced this cell.
    pub rule_id: u32,
    /// Name of that rule (`rule#<n>`, counting from 1, when the source gave none).
    pub rule_name: String,
    /// REWRITE only (`rewrite args >= L using ...`): fields labelled at or
    /// above this argument label are rewritten too, whatever the cuts say;
    /// fields at or above a cut that covers the event always are. Absent
    /// when the rule names no scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<u32>,
    /// REWRITE only (`on promote reissue`): when the branch of a rewritten
    /// speculative call is promoted, the call is decided again as committed
    /// with its original arguments. Absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reissue: bool,
}

/// A tool the contract knows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Tool {
    /// Tool name as the agent calls it.
    pub name: String,
    /// Effect class (`external_read`, ...).
    pub effect: String,
    /// Declared argument fields.
    pub args: Vec<ArgField>,
    /// Destination indices the tool may reach.
    pub destinations: Vec<u32>,
    /// Substitute index for SHADOW, if the tool has one.
    pub substitute: Option<u32>,
}

/// A declared argument field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct ArgField {
    /// Field name.
    pub name: String,
    /// Field type.
    #[serde(rename = "type")]
    pub ty: FieldType,
}

/// Type of an argument field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "kind")]
pub enum FieldType {
    /// Free text.
    Text,
    /// A named entity (person, organisation, ...).
    Entity,
    /// A date, time or time range.
    Time,
    /// A number.
    Number,
    /// One of a fixed set of values.
    Enum {
        /// Allowed values.
        values: Vec<String>,
    },
    /// A list of values of one type.
    List {
        /// Element type.
        item: Box<FieldType>,
    },
}

/// A destination.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Destination {
    /// Destination name in the contract.
    pub name: String,
    /// Where it is.
    pub address: Address,
    /// Destination label id.
    pub label: u32,
    /// Observer indices that record traffic to it.
    pub observers: Vec<u32>,
}

/// A destination address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Address {
    /// Host, URL pattern or collection.
    pub kind: AddressKind,
    /// The host name, URL glob (`*` and `?`) or collection name.
    pub value: String,
}

/// Kind of a destination address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AddressKind {
    /// A host name (`api.brave.com`).
    Host,
    /// A URL glob.
    Url,
    /// A collection (index, table, folder).
    Collection,
}

/// An observer class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Observer {
    /// Observer name.
    pub name: String,
    /// Outside or inside the trusted boundary.
    pub locality: Locality,
    /// Channel names the observer sees.
    pub sees: Vec<String>,
}

/// Where an observer sits relative to the trusted boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Locality {
    /// Outside (provider, network, co-tenant).
    External,
    /// Inside (runtime log, auditor).
    Internal,
}

/// What a cut or budget is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    /// The joined argument label.
    Args,
    /// The destination label.
    Destination,
}

/// `forbid <subject> >= <label> at <observers>`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct ForbidCut {
    /// Arguments or destination.
    pub subject: Subject,
    /// Label id in the subject's lattice; labels `>=` it are forbidden.
    pub label: u32,
    /// Observer indices the cut protects against.
    pub observers: Vec<u32>,
    /// Mode values (indices in the mode dimension) the cut does not cover:
    /// `unless committed` states what ghost calls may add (the marginal
    /// exposure), not what the committed plan itself discloses. Empty, and
    /// then not written, for a cut that covers every mode.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unless: Vec<u32>,
}

impl ForbidCut {
    /// Whether the cut covers events of mode value `mode` (`None`, a mode
    /// the table does not know, is covered: fail closed).
    #[must_use]
    pub fn covers(&self, mode: Option<u32>) -> bool {
        mode.is_none_or(|m| !self.unless.contains(&m))
    }
}

/// `threshold <mode> <value>`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Threshold {
    /// Value index in the mode dimension.
    pub mode: u32,
    /// Threshold in `[0, 1]`.
    pub value: f64,
}

/// `budget <name> <limit> per task counting <subject> >= <label>`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Budget {
    /// Budget name.
    pub name: String,
    /// Dispatches allowed per task before the budget is exhausted (at least 1).
    pub limit: u32,
    /// Which label counts.
    pub subject: Subject,
    /// Dispatches whose subject label is `>=` this label id count.
    pub at_least: u32,
}

/// The audit policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct AuditPolicy {
    /// Observer indices that receive audit records; empty means `audit none`.
    pub sinks: Vec<u32>,
    /// `with raw args`: committed events' raw arguments may be recorded.
    pub raw_args: bool,
    /// `without destination unless dispatched`: the record of an event that
    /// never left (deferred, shadowed, blocked, abandoned) names no
    /// destination and no destination label. Absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withhold_destination: bool,
    /// `without labels unless dispatched`: such a record carries no
    /// argument or destination labels. Absent when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withhold_labels: bool,
    /// `scrub after commit`: raw arguments are removed when the task ends.
    pub scrub_after_commit: bool,
}

/// A trusted local substitute.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Substitute {
    /// Substitute name; the embedder registers an implementation under it.
    pub name: String,
    /// Tool index it stands in for.
    pub tool: u32,
    /// Observer indices that see it (all internal after checking).
    pub observers: Vec<u32>,
    /// What promotion does with a shadowed event.
    pub on_promote: OnPromote,
}

/// What happens to a SHADOWed event when its branch is promoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OnPromote {
    /// Keep the substitute's result.
    Reuse,
    /// Re-decide the event as committed and dispatch to the real provider.
    Reissue,
}

/// A REWRITE transform.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Transform {
    /// Transform name.
    pub name: String,
    /// Field types it applies to.
    pub applies_to: Vec<FieldType>,
    /// Declared output label id (argument lattice), checked by the compiler.
    pub output_label: u32,
    /// Steps, applied in order.
    pub steps: Vec<Step>,
}

/// One step of a transform.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "op")]
pub enum Step {
    /// Replace phrases of a lexicon by their replacement, else `with`, else a
    /// generic default.
    ReplaceLexicon {
        /// Lexicon index.
        lexicon: u32,
        /// Replacement text for entries without their own.
        with: Option<String>,
    },
    /// Replace entity matches by `with`, else `[kind]`.
    RedactEntity {
        /// Entity kind.
        kind: EntityKind,
        /// Replacement text.
        with: Option<String>,
    },
    /// Coarsen dates and times to a granularity.
    CoarsenTime {
        /// Target granularity.
        to: Granularity,
    },
    /// Replace the whole field with a constant string.
    Constant {
        /// The value.
        value: String,
    },
}

/// Entity kinds the labeler recognises.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    /// E-mail address.
    Email,
    /// Telephone number.
    Phone,
    /// Person name after a cue (`Dr.`, `Mr.`, `my name is`).
    PersonName,
    /// Calendar date.
    Date,
    /// Time of day.
    Time,
    /// Amount of money.
    Money,
    /// Government identifier (US SSN, UK NINO, cue + number).
    GovId,
    /// Street address.
    Address,
    /// URL.
    Url,
    /// IPv4 or IPv6 address.
    Ip,
    /// A credential: an API key or token of a known shape, a private key
    /// block, a JWT, or `password=...`.
    Secret,
    /// Latitude and longitude written as decimal degrees.
    Coordinates,
    /// A bank or card account number (IBAN, 16-digit card number).
    AccountNumber,
}

impl EntityKind {
    /// Every kind, in declaration order.
    pub const ALL: [EntityKind; 13] = [
        EntityKind::Email,
        EntityKind::Phone,
        EntityKind::PersonName,
        EntityKind::Date,
        EntityKind::Time,
        EntityKind::Money,
        EntityKind::GovId,
        EntityKind::Address,
        EntityKind::Url,
        EntityKind::Ip,
        EntityKind::Secret,
        EntityKind::Coordinates,
        EntityKind::AccountNumber,
    ];

    /// The snake_case name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            EntityKind::Email => "email",
            EntityKind::Phone => "phone",
            EntityKind::PersonName => "person_name",
            EntityKind::Date => "date",
            EntityKind::Time => "time",
            EntityKind::Money => "money",
            EntityKind::GovId => "gov_id",
            EntityKind::Address => "address",
            EntityKind::Url => "url",
            EntityKind::Ip => "ip",
            EntityKind::Secret => "secret",
            EntityKind::Coordinates => "coordinates",
            EntityKind::AccountNumber => "account_number",
        }
    }

    /// The kind with this snake_case name.
    #[must_use]
    pub fn parse(name: &str) -> Option<EntityKind> {
        EntityKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// Granularity for `coarsen time`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Granularity {
    /// Keep the hour.
    Hour,
    /// Keep the day.
    Day,
    /// Keep the ISO week (Monday).
    Week,
    /// Keep the month.
    Month,
    /// Keep the year.
    Year,
}

impl Granularity {
    /// Every granularity, finest first.
    pub const ALL: [Granularity; 5] = [
        Granularity::Hour,
        Granularity::Day,
        Granularity::Week,
        Granularity::Month,
        Granularity::Year,
    ];

    /// The snake_case name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Granularity::Hour => "hour",
            Granularity::Day => "day",
            Granularity::Week => "week",
            Granularity::Month => "month",
            Granularity::Year => "year",
        }
    }

    /// The granularity with this snake_case name.
    #[must_use]
    pub fn parse(name: &str) -> Option<Granularity> {
        Granularity::ALL.into_iter().find(|g| g.as_str() == name)
    }
}

/// A phrase list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Lexicon {
    /// Lexicon name.
    pub name: String,
    /// Entries.
    pub entries: Vec<LexiconEntry>,
}

/// One lexicon entry: `"phrase"` or `"phrase" => "replacement"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct LexiconEntry {
    /// Phrase, matched case-insensitively (ASCII) at word boundaries.
    pub phrase: String,
    /// Replacement used by `replace lexicon` steps.
    pub replacement: Option<String>,
}

/// The argument and destination labelers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Labelers {
    /// Labels argument values (argument lattice).
    pub args: Labeler,
    /// Labels destinations not declared in the table (destination lattice).
    pub destination: Labeler,
}

/// Ordered labeler rules and the required fallback.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct Labeler {
    /// Rules; a value's label is the join of every matching rule's label.
    pub rules: Vec<LabelRule>,
    /// Label id for a value no rule matches.
    pub fallback: u32,
}

/// One labeler rule: when every condition of `when` holds in a value and
/// none of `unless` does, the value gets `label`. A rule with `fields` (or
/// `tools`) applies only to argument fields of those names (or events of
/// those tools); destination rules have neither.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct LabelRule {
    /// Conditions that must all hold (at least one).
    pub when: Vec<Condition>,
    /// Conditions none of which may hold (hard negatives).
    pub unless: Vec<Condition>,
    /// Argument field names the rule is limited to; empty: every field.
    pub fields: Vec<String>,
    /// Tool names the rule is limited to; empty: every tool.
    pub tools: Vec<String>,
    /// Label id.
    pub label: u32,
}

/// Something that occurs in a value (a string leaf, or a destination).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case", tag = "match")]
pub enum Condition {
    /// A phrase of one of the lexicons occurs verbatim at word boundaries
    /// (ASCII case-insensitive).
    Lexicon {
        /// Lexicon indices (at least one).
        lexicons: Vec<u32>,
    },
    /// A term of one of the lexicons occurs as words: case and accents folded,
    /// inflectional endings accepted, `*` at either end of an entry
    /// matching inside a word (compounds), one typo tolerated in long
    /// words. The matching rules are in the book's table-format chapter.
    Terms {
        /// Lexicon indices (at least one).
        lexicons: Vec<u32>,
    },
    /// A term of one of the lexicons occurs anywhere inside a word (concatenated
    /// names such as host labels and mailboxes: `soberpath`, `debtfree`).
    Parts {
        /// Lexicon indices (at least one).
        lexicons: Vec<u32>,
    },
    /// A regular expression (Rust `regex` syntax) matches.
    Pattern {
        /// The expression.
        regex: String,
    },
    /// An entity of a kind occurs.
    Entity {
        /// Entity kind.
        kind: EntityKind,
    },
    /// The destination matches a glob (`*`, `?`), case-insensitively.
    Address {
        /// Which part of the destination the glob is matched against.
        kind: AddressKind,
        /// The glob.
        glob: String,
    },
}

impl Table {
    /// Parse, verify and validate a serialized table.
    ///
    /// Checks, in order: JSON shape, [`FORMAT_VERSION`], that the bytes are
    /// exactly the compact or pretty canonical encoding (so no byte of the
    /// file is insignificant), the digest, and [`validate::validate`].
    ///
    /// # Errors
    ///
    /// A [`LoadError`] naming what is wrong; the table is then unusable.
    pub fn from_json(bytes: &[u8]) -> Result<Table, LoadError> {
        // One parse on the way that succeeds; the version is read on its
        // own only to explain a failure, so a future format gets a clear
        // error rather than a shape error.
        #[derive(Deserialize)]
        struct VersionOnly {
            format_version: u32,
        }
        let parsed: Result<Table, _> = serde_json::from_slice(bytes);
        let wrong_version = |found: u32| LoadError::UnsupportedVersion {
            found,
            supported: FORMAT_VERSION,
        };
        let mut table = match parsed {
            Ok(t) => t,
            // Text that is not JSON at all has no version to read (and
            // reading it again would only double the cost of refusing it).
            Err(e) if matches!(e.classify(), serde_json::error::Category::Data) => {
                return Err(match serde_json::from_slice::<VersionOnly>(bytes) {
                    Ok(v) if v.format_version != FORMAT_VERSION => wrong_version(v.format_version),
                    _ => LoadError::from_json(&e),
                })
            }
            Err(e) => return Err(LoadError::from_json(&e)),
        };
        if table.format_version != FORMAT_VERSION {
            return Err(wrong_version(table.format_version));
        }
        // One serialisation serves both checks: the canonical bytes (the
        // digest emptied) are hashed, and the file is compared with them,
        // the claimed digest put back, in either layout (see `layout`).
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let claimed = std::mem::take(&mut table.digest);
        // The compact encoding is never longer than the file: one
        // allocation, not a doubling series of them.
        let mut canonical = Vec::with_capacity(bytes.len());
        serde_json::to_writer(&mut canonical, &table).map_err(|_| LoadError::Encode)?;
        let filled = with_digest(&canonical, &claimed).ok_or(LoadError::Encode)?;
        if !layout::matches(body, &filled) {
            return Err(LoadError::NotCanonical);
        }
        if digest::sha256_hex(&canonical) != claimed {
            return Err(LoadError::DigestMismatch);
        }
        table.digest = claimed;
        validate::validate(&table)?;
        Ok(table)
    }

    /// Pretty JSON (two-space indent), the layout `stpc compile` writes.
    ///
    /// # Errors
    ///
    /// Only if serialization fails (a non-finite float).
    pub fn to_json_pretty(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }

    /// Compute and set the digest, returning the sealed table.
    ///
    /// # Errors
    ///
    /// Only if serialization fails (a non-finite float).
    pub fn seal(mut self) -> Result<Table, serde_json::Error> {
        self.digest = compute_digest(&self)?;
        Ok(self)
    }

    /// One state per budget, in budget order: `true` when `exhausted` says
    /// so of the budget's name.
    #[must_use]
    pub fn budget_states(&self, exhausted: impl Fn(&str) -> bool) -> Vec<bool> {
        self.budgets.iter().map(|b| exhausted(&b.name)).collect()
    }

    /// Index of the mode value named `committed`.
    #[must_use]
    pub fn committed_mode(&self) -> Option<u32> {
        let modes = self.dimensions.get(domain::MODE)?;
        let i = modes.values.iter().position(|m| m == "committed")?;
        u32::try_from(i).ok()
    }

    /// Whether an event of tool value `tool` can be placed at destination
    /// value `dest`: a tool that declares destinations is only ever placed
    /// at those (any other is placed as `<unknown>`). `<unknown>` tools and
    /// destinations fit everything. The one statement of the rule that
    /// [`crate::Decider::placed_destination`] applies to events and the
    /// verifier and the vector generator apply to points.
    #[must_use]
    pub fn places(&self, tool: u32, dest: u32) -> bool {
        self.tools.get(tool as usize).is_none_or(|t| {
            dest as usize >= self.destinations.len()
                || t.destinations.is_empty()
                || t.destinations.contains(&dest)
        })
    }
}

/// `canonical` (the compact encoding with an empty digest) with `digest`
/// in its digest field, as a compact file holds it.
fn with_digest(canonical: &[u8], digest: &str) -> Option<Vec<u8>> {
    const EMPTY: &[u8] = b"\"digest\":\"\"";
    // The digest is the second field, after a number: its first occurrence.
    let at = memchr::memmem::find(canonical, EMPTY)?;
    let value = serde_json::to_vec(digest).ok()?;
    let (head, tail) = canonical.split_at(at + EMPTY.len() - 2);
    let tail = tail.get(2..)?;
    let mut out = Vec::with_capacity(canonical.len() + value.len());
    out.extend_from_slice(head);
    out.extend_from_slice(&value);
    out.extend_from_slice(tail);
    Some(out)
}
