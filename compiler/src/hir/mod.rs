//! The resolved, typed intermediate representation that `check` produces and
//! `lower` consumes.
//!
//! Every name of the source has become a dense id (a `u32` newtype indexing
//! one vector of [`Program`]), every label is attached to its lattice, every
//! lattice carries precomputed `leq`, `join` and `meet` tables, contract
//! parameters are resolved to values, and guard sugar is expanded into one
//! small typed expression tree ([`Guard`]). Nothing here refers back to the
//! AST; spans are kept only where a later stage points at source (rules,
//! thresholds, forbid cuts, budgets, transforms, substitutes, tests).
//!
//! Design notes:
//!
//! - **Global ids.** Declarations from every loaded module (the user's files
//!   and the `std` modules they import) share one id space per kind, so
//!   lowering sees one flat program. Module scoping is resolved away.
//! - **Labels.** A [`LabelId`] is global, and the labels of one lattice are
//!   contiguous; [`Lattice::local`] gives a label's index within its lattice,
//!   which is what the order tables are indexed by.
//! - **Roles.** The argument lattice and the destination lattice are the
//!   lattices declared `for args` and `for destination`; at most one of each
//!   per program (the checker reports a second one).
//! - **Modes and effects** are the values of the enums named `Mode` and
//!   `Effect`. The mode named `committed` is special: it is the mode a
//!   deferred event is re-decided in when its branch is promoted.
//! - **Recovery.** A program is returned even when the checker reported
//!   errors; lowering must only run on an error-free program, where every
//!   id is valid and every guard well-typed.

mod contract;

pub use contract::*;

use crate::source::Span;

macro_rules! ids {
    ($( $(#[doc = $doc:literal])* $name:ident, )*) => {
        $(
            $(#[doc = $doc])*
            #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
            pub struct $name(pub u32);

            impl $name {
                /// The id as a vector index.
                pub fn index(self) -> usize {
                    self.0 as usize
                }

                /// The id of the `index`-th element; `None` past `u32`'s range.
                pub fn from_index(index: usize) -> Option<$name> {
                    u32::try_from(index).ok().map($name)
                }
            }
        )*
    };
}

ids! {
    /// A lattice in [`Program::lattices`].
    LatticeId,
    /// A label in [`Program::labels`].
    LabelId,
    /// An execution mode in [`Program::modes`].
    ModeId,
    /// An effect class in [`Program::effects`].
    EffectId,
    /// A channel in [`Program::channels`].
    ChannelId,
    /// An observer in [`Program::observers`].
    ObserverId,
    /// A destination in [`Program::destinations`].
    DestId,
    /// A tool in [`Program::tools`].
    ToolId,
    /// A substitute in [`Program::substitutes`].
    SubstituteId,
    /// A lexicon in [`Program::lexicons`].
    LexiconId,
    /// A labeler in [`Program::labelers`].
    LabelerId,
    /// A transform in [`Program::transforms`].
    TransformId,
    /// A contract in [`Program::contracts`].
    ContractId,
    /// A rule in [`Contract::rules`] (local to its contract).
    RuleId,
    /// A budget in [`Contract::budgets`] (local to its contract).
    BudgetId,
    /// A parameter in [`Contract::params`] (local to its contract).
    ParamId,
}

/// Everything the user's files and their imports declare, resolved.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    /// Every lattice.
    pub lattices: Vec<Lattice>,
    /// Every label of every lattice; each lattice's labels are contiguous.
    pub labels: Vec<Label>,
    /// The lattice declared `for args`.
    pub arg_lattice: Option<LatticeId>,
    /// The lattice declared `for destination`.
    pub dest_lattice: Option<LatticeId>,
    /// The values of `enum Mode`.
    pub modes: Vec<Mode>,
    /// The mode named `committed`, if declared.
    pub committed: Option<ModeId>,
    /// The values of `enum Effect`.
    pub effects: Vec<Effect>,
    /// Every other enumeration (usable as a field type).
    pub enums: Vec<Enum>,
    /// The channels declared in `channels { ... }`.
    pub channels: Vec<Channel>,
    /// Every observer.
    pub observers: Vec<Observer>,
    /// Every destination.
    pub destinations: Vec<Destination>,
    /// Every tool.
    pub tools: Vec<Tool>,
    /// Every SHADOW substitute.
    pub substitutes: Vec<Substitute>,
    /// Every lexicon.
    pub lexicons: Vec<Lexicon>,
    /// Every labeler.
    pub labelers: Vec<Labeler>,
    /// Every REWRITE transform.
    pub transforms: Vec<Transform>,
    /// Every contract.
    pub contracts: Vec<Contract>,
    /// Every named set that checked, with its members expanded (contracts
    /// hold the expansion already; this is for tools that show a set).
    pub sets: Vec<Set>,
}

/// A named set of tools or of destinations, expanded.
#[derive(Clone, Debug, PartialEq)]
pub struct Set {
    /// Its name.
    pub name: String,
    /// Its tools, each once, in the order first reached.
    pub tools: Vec<ToolId>,
    /// Its destinations, each once, in the order first reached.
    pub destinations: Vec<DestId>,
    /// The declaration's name.
    pub span: Span,
}

impl Program {
    /// The lattice with this id.
    pub fn lattice(&self, id: LatticeId) -> Option<&Lattice> {
        self.lattices.get(id.index())
    }

    /// The label with this id.
    pub fn label(&self, id: LabelId) -> Option<&Label> {
        self.labels.get(id.index())
    }

    /// A label's name, or `?` for an invalid id.
    pub fn label_name(&self, id: LabelId) -> &str {
        self.label(id).map_or("?", |l| l.name.as_str())
    }

    /// `a <= b` in their common lattice; `None` when they are in different
    /// lattices or an id is invalid.
    pub fn leq(&self, a: LabelId, b: LabelId) -> Option<bool> {
        let la = self.label(a)?;
        let lb = self.label(b)?;
        if la.lattice != lb.lattice {
            return None;
        }
        self.lattice(la.lattice)?.leq(a, b)
    }

    /// The argument lattice, if declared.
    pub fn args(&self) -> Option<&Lattice> {
        self.arg_lattice.and_then(|id| self.lattice(id))
    }

    /// The destination lattice, if declared.
    pub fn dests(&self) -> Option<&Lattice> {
        self.dest_lattice.and_then(|id| self.lattice(id))
    }

    /// The tool with this id.
    pub fn tool(&self, id: ToolId) -> Option<&Tool> {
        self.tools.get(id.index())
    }

    /// The destination with this id.
    pub fn destination(&self, id: DestId) -> Option<&Destination> {
        self.destinations.get(id.index())
    }

    /// The observer with this id.
    pub fn observer(&self, id: ObserverId) -> Option<&Observer> {
        self.observers.get(id.index())
    }

    /// The substitute with this id.
    pub fn substitute(&self, id: SubstituteId) -> Option<&Substitute> {
        self.substitutes.get(id.index())
    }

    /// The transform with this id.
    pub fn transform(&self, id: TransformId) -> Option<&Transform> {
        self.transforms.get(id.index())
    }

    /// The contract called `name`.
    pub fn contract(&self, name: &str) -> Option<&Contract> {
        self.contracts.iter().find(|c| c.name == name)
    }

    /// Whether a destination is seen by some external observer.
    pub fn is_external(&self, dest: DestId) -> bool {
        self.destination(dest).is_some_and(|d| {
            d.observers
                .iter()
                .any(|o| self.observer(*o).is_some_and(|o| o.external))
        })
    }
}

/// Which label a lattice provides (`for args` / `for destination`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    /// Argument fields.
    Args,
    /// The destination.
    Destination,
}

/// A proven lattice with its order tables.
///
/// Tables are indexed by local label index (see [`Lattice::local`]) in
/// row-major order: `leq[i * n + j]` is `labels[i] <= labels[j]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Lattice {
    /// Its name.
    pub name: String,
    /// `for args` or `for destination`, if declared.
    pub role: Option<Subject>,
    /// Its labels in declaration order (contiguous ids).
    pub labels: Vec<LabelId>,
    /// The reflexive-transitive order, `n * n`.
    pub leq_table: Vec<bool>,
    /// Least upper bounds as local indices, `n * n`.
    pub join_table: Vec<u32>,
    /// Greatest lower bounds as local indices, `n * n`.
    pub meet_table: Vec<u32>,
    /// The least label.
    pub bottom: Option<LabelId>,
    /// The greatest label.
    pub top: Option<LabelId>,
    /// Whether every pair is comparable.
    pub total: bool,
    /// The declaration.
    pub span: Span,
}

impl Lattice {
    /// Number of labels.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether it has no labels.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// A label's index within this lattice.
    pub fn local(&self, label: LabelId) -> Option<usize> {
        let first = self.labels.first()?;
        let i = label.index().checked_sub(first.index())?;
        (i < self.labels.len()).then_some(i)
    }

    /// The label at a local index.
    pub fn at(&self, local: usize) -> Option<LabelId> {
        self.labels.get(local).copied()
    }

    fn cell<T: Copy>(&self, table: &[T], a: LabelId, b: LabelId) -> Option<T> {
        let (i, j) = (self.local(a)?, self.local(b)?);
        table.get(i * self.labels.len() + j).copied()
    }

    /// `a <= b`.
    pub fn leq(&self, a: LabelId, b: LabelId) -> Option<bool> {
        self.cell(&self.leq_table, a, b)
    }

    /// The least upper bound of `a` and `b`.
    pub fn join(&self, a: LabelId, b: LabelId) -> Option<LabelId> {
        self.cell(&self.join_table, a, b)
            .and_then(|i| self.at(i as usize))
    }

    /// The greatest lower bound of `a` and `b`.
    pub fn meet(&self, a: LabelId, b: LabelId) -> Option<LabelId> {
        self.cell(&self.meet_table, a, b)
            .and_then(|i| self.at(i as usize))
    }

    /// Every label `l` with `l >= cut` (the labels a forbid cut forbids).
    pub fn at_or_above(&self, cut: LabelId) -> Vec<LabelId> {
        self.labels
            .iter()
            .copied()
            .filter(|l| self.leq(cut, *l) == Some(true))
            .collect()
    }
}

/// One label.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Its name.
    pub name: String,
    /// The lattice it belongs to.
    pub lattice: LatticeId,
    /// Where it is first written.
    pub span: Span,
}

/// An execution mode (a value of `enum Mode`).
#[derive(Clone, Debug, PartialEq)]
pub struct Mode {
    /// Its name, such as `speculative`.
    pub name: String,
    /// Where it is declared.
    pub span: Span,
}

/// An effect class (a value of `enum Effect`).
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    /// Its name, such as `external_read`.
    pub name: String,
    /// Where it is declared.
    pub span: Span,
}

/// A user enumeration other than `Mode` and `Effect`.
#[derive(Clone, Debug, PartialEq)]
pub struct Enum {
    /// Its name.
    pub name: String,
    /// Its values.
    pub values: Vec<String>,
    /// The declaration.
    pub span: Span,
}

/// A disclosure channel, such as `arguments` or `timing`.
#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    /// Its name.
    pub name: String,
    /// Where it is declared.
    pub span: Span,
}

/// An observer class.
#[derive(Clone, Debug, PartialEq)]
pub struct Observer {
    /// Its name.
    pub name: String,
    /// Outside the trusted boundary.
    pub external: bool,
    /// The channels it sees.
    pub sees: Vec<ChannelId>,
    /// The declaration.
    pub span: Span,
}

/// How a destination is addressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressKind {
    /// A host name or glob.
    Host,
    /// A URL pattern.
    Url,
    /// A document collection.
    Collection,
}

/// A destination address.
#[derive(Clone, Debug, PartialEq)]
pub struct Address {
    /// Host, URL or collection.
    pub kind: AddressKind,
    /// The literal or glob.
    pub value: String,
}

/// A destination.
#[derive(Clone, Debug, PartialEq)]
pub struct Destination {
    /// Its name.
    pub name: String,
    /// Its addresses.
    pub addresses: Vec<Address>,
    /// Its label in the destination lattice.
    pub label: Option<LabelId>,
    /// The observers that record calls to it.
    pub observers: Vec<ObserverId>,
    /// The declaration.
    pub span: Span,
}

/// An argument field's type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// Free text.
    Text,
    /// A structured entity (email, phone, ...).
    Entity,
    /// A time or date.
    Time,
    /// A number.
    Number,
    /// One of a fixed set of words.
    Enum(Vec<String>),
    /// A list of values.
    List(Box<Type>),
    /// A type the checker could not resolve (recovery; never after success).
    Error,
}

impl Type {
    /// The type as written in source.
    pub fn display(&self) -> String {
        match self {
            Type::Text => "text".into(),
            Type::Entity => "entity".into(),
            Type::Time => "time".into(),
            Type::Number => "number".into(),
            Type::Enum(vs) => format!("enum({})", vs.join(", ")),
            Type::List(t) => format!("list({})", t.display()),
            Type::Error => "{unknown}".into(),
        }
    }
}

/// One typed argument field of a tool.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Where it is declared.
    pub span: Span,
}

/// A tool.
#[derive(Clone, Debug, PartialEq)]
pub struct Tool {
    /// Its name.
    pub name: String,
    /// Its effect class.
    pub effect: Option<EffectId>,
    /// Its argument fields.
    pub fields: Vec<Field>,
    /// The destinations it may call.
    pub destinations: Vec<DestId>,
    /// Its SHADOW substitute.
    pub substitute: Option<SubstituteId>,
    /// The declaration.
    pub span: Span,
}

impl Tool {
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// What happens to a shadowed call when its branch is promoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromoteMode {
    /// Keep the substitute's result.
    Reuse,
    /// Re-decide as committed and call the real provider.
    Reissue,
}

/// A trusted local stand-in for a tool (SHADOW).
#[derive(Clone, Debug, PartialEq)]
pub struct Substitute {
    /// Its name.
    pub name: String,
    /// The tool it stands in for; `None` when the name did not resolve
    /// (reported; such a program is never lowered).
    pub tool: Option<ToolId>,
    /// The observers that see it run.
    pub observers: Vec<ObserverId>,
    /// Reuse or reissue on promotion (default: reissue).
    pub on_promote: PromoteMode,
    /// The declaration.
    pub span: Span,
}

/// A phrase list.
#[derive(Clone, Debug, PartialEq)]
pub struct Lexicon {
    /// Its name.
    pub name: String,
    /// `(phrase, generic replacement)` pairs.
    pub entries: Vec<(String, Option<String>)>,
    /// The declaration.
    pub span: Span,
}

// Entity kinds and time granularities are the runtime's vocabulary: the
// runtime implements the recognisers and the coarsening, so its enums are the
// one list; the checker validates names against them and lowering copies them.
pub use stpc_runtime::table::{EntityKind, Granularity};

/// A labeler: rules that give a label from what a value contains.
#[derive(Clone, Debug, PartialEq)]
pub struct Labeler {
    /// Its name.
    pub name: String,
    /// Arguments or destination.
    pub subject: Subject,
    /// Matching rules in order (the fallback is separate).
    pub rules: Vec<LabelRule>,
    /// The label for values no rule matches.
    pub fallback: Option<LabelId>,
    /// The declaration.
    pub span: Span,
}

/// What a labeler rule matches.
#[derive(Clone, Debug, PartialEq)]
pub enum Matcher {
    /// A phrase of one of the lexicons, verbatim.
    Lexicon(Vec<LexiconId>),
    /// A term of one of the lexicons as words (folded, inflected, compounds,
    /// typos).
    Terms(Vec<LexiconId>),
    /// A term of one of the lexicons inside words.
    Parts(Vec<LexiconId>),
    /// A regular expression (known to compile within the runtime's limits).
    Pattern(String),
    /// An entity kind.
    Entity(EntityKind),
    /// A destination address glob.
    Address(AddressKind, String),
}

/// One labeler rule: conditions that must all hold, hard negatives none of
/// which may, and the label.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelRule {
    /// Conditions that must all hold (at least one).
    pub when: Vec<Matcher>,
    /// Conditions none of which may hold.
    pub unless: Vec<Matcher>,
    /// Tool names the rule is limited to (empty: every tool).
    pub tools: Vec<String>,
    /// Field names the rule is limited to (empty: every field).
    pub fields: Vec<String>,
    /// The label a match gives.
    pub label: LabelId,
    /// The rule.
    pub span: Span,
}

/// One rewriting step.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Replace phrases of a lexicon (by their replacement, or this text).
    ReplaceLexicon(LexiconId, Option<String>),
    /// Redact entities of a kind (with this text, or a default placeholder).
    RedactEntity(EntityKind, Option<String>),
    /// Coarsen times to a granularity.
    CoarsenTime(Granularity),
    /// Replace the whole value with a constant.
    Constant(String),
}

/// A REWRITE transform.
#[derive(Clone, Debug, PartialEq)]
pub struct Transform {
    /// Its name.
    pub name: String,
    /// The field types it applies to.
    pub inputs: Vec<Type>,
    /// The declared label of its output (A3: strictly below every cut it
    /// serves); `None` when it did not resolve (reported).
    pub output: Option<LabelId>,
    /// Steps in order.
    pub steps: Vec<Step>,
    /// The declaration.
    pub span: Span,
}

impl Transform {
    /// Whether it applies to a field of type `ty`.
    ///
    /// A list is accepted where its element type is: the runtime applies
    /// the transform to each element (as `stpc_runtime::transform::fits`
    /// says).
    pub fn accepts(&self, ty: &Type) -> bool {
        *ty == Type::Error
            || self.inputs.iter().any(|t| t == ty || *t == Type::Error)
            || matches!(ty, Type::List(item) if self.accepts(item))
    }
}
