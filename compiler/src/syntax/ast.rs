//! The abstract syntax tree: the source, owned and spanned, nothing desugared.
//!
//! Every node carries a [`Loc`], which is invisible to `==` and `Hash`, so
//! ASTs compare by content alone. Nothing here is resolved: names are
//! [`Ident`]s, and the `check` stage gives them meaning. The formatter prints
//! this tree back, so it keeps the user's choices (a rule's `when` versus
//! `unless`, a bare mode flag versus `mode == x`).

use crate::source::Loc;

/// A name with its location.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it is written.
    pub loc: Loc,
}

/// A string literal, unescaped, with its location.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Str {
    /// The value after unescaping.
    pub value: String,
    /// Whether it was written as a raw string (`r"..."`).
    pub raw: bool,
    /// Where it is written.
    pub loc: Loc,
}

/// A number literal, kept as written so printing is exact.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Number {
    /// The literal text, such as `0.7`.
    pub text: String,
    /// Where it is written.
    pub loc: Loc,
}

impl Number {
    /// The value; literals the grammar accepts always parse.
    pub fn value(&self) -> f64 {
        self.text.parse().unwrap_or(f64::NAN)
    }
}

/// One `.stpc` file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct File {
    /// Top-level items in order.
    pub items: Vec<Item>,
}

/// A top-level declaration.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// `use std::labels;`
    Use(Use),
    /// `lattice ArgLabel for args { ... }`
    Lattice(Lattice),
    /// `enum Mode { ... }`
    Enum(Enum),
    /// `channels { ... }`
    Channels(Channels),
    /// `observer provider external sees ...;`
    Observer(Observer),
    /// `destination brave { ... }`
    Destination(Destination),
    /// `tool web_search { ... }`
    Tool(Tool),
    /// `substitute local_search for web_search { ... }`
    Substitute(Substitute),
    /// `lexicon intent_phrases { ... }`
    Lexicon(Lexicon),
    /// `labeler topics for args { ... }`
    Labeler(Labeler),
    /// `transform generic_query(text) -> public { ... }`
    Transform(Transform),
    /// `set search_engines { brave, duckduckgo }`
    Set(Set),
    /// `contract web_default { ... }`
    Contract(Contract),
}

impl Item {
    /// The declared name, for items that declare one.
    pub fn name(&self) -> Option<&Ident> {
        match self {
            Item::Use(_) | Item::Channels(_) => None,
            Item::Lattice(x) => Some(&x.name),
            Item::Enum(x) => Some(&x.name),
            Item::Set(x) => Some(&x.name),
            Item::Observer(x) => Some(&x.name),
            Item::Destination(x) => Some(&x.name),
            Item::Tool(x) => Some(&x.name),
            Item::Substitute(x) => Some(&x.name),
            Item::Lexicon(x) => Some(&x.name),
            Item::Labeler(x) => Some(&x.name),
            Item::Transform(x) => Some(&x.name),
            Item::Contract(x) => Some(&x.name),
        }
    }

    /// The whole item's location.
    pub fn loc(&self) -> Loc {
        match self {
            Item::Use(x) => x.loc,
            Item::Lattice(x) => x.loc,
            Item::Enum(x) => x.loc,
            Item::Set(x) => x.loc,
            Item::Channels(x) => x.loc,
            Item::Observer(x) => x.loc,
            Item::Destination(x) => x.loc,
            Item::Tool(x) => x.loc,
            Item::Substitute(x) => x.loc,
            Item::Lexicon(x) => x.loc,
            Item::Labeler(x) => x.loc,
            Item::Transform(x) => x.loc,
            Item::Contract(x) => x.loc,
        }
    }
}

/// `use a::b;` or `use a::b::{c, d};`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Use {
    /// The path segments, such as `std`, `labels`.
    pub path: Vec<Ident>,
    /// The names in `{...}`, if a group was written.
    pub group: Option<Vec<Ident>>,
    /// The whole declaration.
    pub loc: Loc,
}

/// Which label a lattice provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    /// Argument fields.
    Args,
    /// The destination.
    Destination,
}

impl Subject {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Subject::Args => "args",
            Subject::Destination => "destination",
        }
    }
}

/// `lattice Name [for args|destination] { a < b, a <= c }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lattice {
    /// The lattice's name.
    pub name: Ident,
    /// The role, if declared.
    pub role: Option<Subject>,
    /// Chains, each `a < b < c`; a single label is a chain of one.
    pub chains: Vec<Chain>,
    /// The whole declaration.
    pub loc: Loc,
}

/// `a < b <= c`: consecutive labels are ordered. `<=` and `<` mean the same.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chain {
    /// The labels from lowest to highest.
    pub labels: Vec<Ident>,
    /// The operators between them, as written (`<` or `<=`).
    pub ops: Vec<String>,
}

/// `enum Name { a, b, c }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Enum {
    /// The enumeration's name.
    pub name: Ident,
    /// Its values.
    pub values: Vec<Ident>,
    /// The whole declaration.
    pub loc: Loc,
}

/// `set search_engines { brave, duckduckgo, more_engines }`: a named list of
/// tools or of destinations (members may be other sets), written wherever a
/// contract lists tools or destinations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Set {
    /// The set's name.
    pub name: Ident,
    /// Its members, as written.
    pub members: Vec<Ident>,
    /// The whole declaration.
    pub loc: Loc,
}

/// `channels { arguments, destination, ... }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Channels {
    /// The channel names.
    pub names: Vec<Ident>,
    /// The whole declaration.
    pub loc: Loc,
}

/// Whether an observer is outside the trusted boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Locality {
    /// Outside: a provider, the network, a co-tenant.
    External,
    /// Inside: the runtime log, the auditor.
    Internal,
}

/// `observer provider external sees arguments, destination;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Observer {
    /// The observer's name.
    pub name: Ident,
    /// External or internal.
    pub locality: Locality,
    /// The channels it sees.
    pub sees: Vec<Ident>,
    /// The whole declaration.
    pub loc: Loc,
}

/// How a destination is addressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressKind {
    /// A host name or host glob.
    Host,
    /// A URL pattern.
    Url,
    /// A document collection.
    Collection,
}

impl AddressKind {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            AddressKind::Host => "host",
            AddressKind::Url => "url",
            AddressKind::Collection => "collection",
        }
    }
}

/// `destination name { host "..."; label public; observed by provider; }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Destination {
    /// The destination's name.
    pub name: Ident,
    /// Statements in order.
    pub stmts: Vec<DestinationStmt>,
    /// The whole declaration.
    pub loc: Loc,
}

/// One statement in a destination.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DestinationStmt {
    /// `host "api.brave.com";`
    Address(AddressKind, Str),
    /// `label public;`
    Label(Ident),
    /// `observed by provider, network;`
    ObservedBy(Vec<Ident>),
}

/// `tool name { effect ...; args { ... } destinations ...; substitute ...; }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tool {
    /// The tool's name.
    pub name: Ident,
    /// Statements in order.
    pub stmts: Vec<ToolStmt>,
    /// The whole declaration.
    pub loc: Loc,
}

/// One statement in a tool.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToolStmt {
    /// `effect external_read;`
    Effect(Ident),
    /// `args { q: text, n: number }`
    Args(Vec<Field>),
    /// `destinations brave, ddg;`
    Destinations(Vec<Ident>),
    /// `substitute local_search;`
    Substitute(Ident),
}

/// `name: type`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// The field's name.
    pub name: Ident,
    /// Its type.
    pub ty: FieldType,
}

/// An argument field's type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// A named type: `text`, `entity`, `time`, `number`.
    Named(Ident),
    /// `enum(a, b)`
    Enum(Vec<Ident>, Loc),
    /// `list(text)`
    List(Box<FieldType>, Loc),
}

/// `substitute name for tool { observed by ...; on promote reuse; }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Substitute {
    /// The substitute's name.
    pub name: Ident,
    /// The tool it stands in for.
    pub tool: Ident,
    /// Statements in order.
    pub stmts: Vec<SubstituteStmt>,
    /// The whole declaration.
    pub loc: Loc,
}

/// What happens to a shadowed call when its branch is promoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PromoteMode {
    /// Keep the substitute's result.
    Reuse,
    /// Re-decide as committed and call the real provider.
    Reissue,
}

/// One statement in a substitute.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SubstituteStmt {
    /// `observed by runtime_log;`
    ObservedBy(Vec<Ident>),
    /// `on promote reuse;`
    OnPromote(PromoteMode, Loc),
}

/// `lexicon name { "phrase" => "replacement", "phrase" }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lexicon {
    /// The lexicon's name.
    pub name: Ident,
    /// Entries in order.
    pub entries: Vec<LexiconEntry>,
    /// The whole declaration.
    pub loc: Loc,
}

/// A phrase and its optional generic replacement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LexiconEntry {
    /// The phrase to match.
    pub phrase: Str,
    /// What REWRITE replaces it with, if given.
    pub replacement: Option<Str>,
}

/// `labeler name for args { rules }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Labeler {
    /// The labeler's name.
    pub name: Ident,
    /// What it labels.
    pub subject: Subject,
    /// Rules in order.
    pub rules: Vec<LabelRule>,
    /// The whole declaration.
    pub loc: Loc,
}

/// One labeler rule.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LabelRule {
    /// `[tool a:] [field x, y:] m1 and m2 -> label [unless m3 or m4];`
    Match(MatchRule),
    /// `fallback personal;`
    Fallback {
        /// The label for values no rule labels.
        label: Ident,
        /// The rule.
        loc: Loc,
    },
}

impl LabelRule {
    /// The rule's location.
    pub fn loc(&self) -> Loc {
        match self {
            LabelRule::Match(m) => m.loc,
            LabelRule::Fallback { loc, .. } => *loc,
        }
    }
}

/// A labeler rule with its conditions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MatchRule {
    /// `tool a, b:`: the tools the rule is limited to (empty: every tool).
    pub tools: Vec<Ident>,
    /// `field x, y:`: the argument fields it is limited to (empty: every field).
    pub fields: Vec<Ident>,
    /// Conditions that must all hold.
    pub when: Vec<Matcher>,
    /// The label a match gives.
    pub label: Ident,
    /// Hard negatives: none of them may hold.
    pub unless: Vec<Matcher>,
    /// The rule.
    pub loc: Loc,
}

/// Something that occurs in a value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Matcher {
    /// `lexicon x, y`: a phrase of `x` or `y`, verbatim.
    Lexicon(Vec<Ident>),
    /// `terms x, y`: a term of `x` or `y` as words (folded, inflected,
    /// compounds, typos).
    Terms(Vec<Ident>),
    /// `parts x, y`: a term of `x` or `y` inside words.
    Parts(Vec<Ident>),
    /// `pattern r"..."`
    Pattern(Str),
    /// `entity email`
    Entity(Ident),
    /// `host "*.gov"`, `url "..."`, `collection "..."`
    Address(AddressKind, Str),
}

impl Matcher {
    /// Where the matcher is written (its name or string).
    pub fn loc(&self) -> Loc {
        match self {
            Matcher::Lexicon(names) | Matcher::Terms(names) | Matcher::Parts(names) => {
                match (names.first(), names.last()) {
                    (Some(a), Some(b)) => Loc(a.loc.0.to(b.loc.0)),
                    _ => Loc::default(),
                }
            }
            Matcher::Entity(i) => i.loc,
            Matcher::Pattern(s) | Matcher::Address(_, s) => s.loc,
        }
    }
}

/// `transform name(text, entity) -> public { steps }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    /// The transform's name.
    pub name: Ident,
    /// Field types it applies to.
    pub inputs: Vec<FieldType>,
    /// The declared output label.
    pub output: Ident,
    /// Steps in order.
    pub steps: Vec<TransformStep>,
    /// The whole declaration.
    pub loc: Loc,
}

/// One rewriting step.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TransformStep {
    /// `replace lexicon x [with "..."];`
    ReplaceLexicon(Ident, Option<Str>, Loc),
    /// `redact entity email [with "..."];`
    RedactEntity(Ident, Option<Str>, Loc),
    /// `coarsen time to day;`
    CoarsenTime(Ident, Loc),
    /// `constant "...";`
    Constant(Str, Loc),
}

/// `contract name(param = 0.7) extends parent { statements }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    /// The contract's name.
    pub name: Ident,
    /// Parameters with defaults.
    pub params: Vec<Param>,
    /// The contract this one extends (`extends std::policies::rewrite`),
    /// as written: one name in scope or a module path.
    pub extends: Option<Vec<Ident>>,
    /// Statements in order.
    pub stmts: Vec<ContractStmt>,
    /// The whole declaration.
    pub loc: Loc,
}

/// `tau = 0.7`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    /// The parameter's name.
    pub name: Ident,
    /// Its default.
    pub default: Number,
}

/// A number or a parameter name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NumberOrParam {
    /// A literal.
    Number(Number),
    /// A contract parameter.
    Param(Ident),
}

/// One statement in a contract.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ContractStmt {
    /// `tools a, b;` or `tools += a, b;`
    Tools(AllowList),
    /// `destinations a, b;` or `destinations += a, b;`
    Destinations(AllowList),
    /// `labelers a, b;`
    Labelers(Vec<Ident>, Loc),
    /// `forbid args >= sensitive at provider, network;`
    Forbid(Forbid),
    /// `threshold speculative 0.7;`
    Threshold(Threshold),
    /// `budget name 5 per task counting args >= sensitive;`
    Budget(Budget),
    /// `audit ...;`
    Audit(Audit),
    /// `decide { rules }`
    Decide(Decide),
    /// `test "name" { ... }`
    Test(Test),
}

/// The names of a `tools` or `destinations` statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AllowList {
    /// Tools, destinations or sets of them, as written.
    pub names: Vec<Ident>,
    /// `+=`: added to the inherited list instead of replacing it.
    pub extend: bool,
    /// The whole statement.
    pub loc: Loc,
}

/// `forbid args >= sensitive at provider, network;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Forbid {
    /// Arguments or destination.
    pub subject: Subject,
    /// The cut: labels at or above it are forbidden.
    pub label: Ident,
    /// The observers it applies to.
    pub observers: Vec<Ident>,
    /// `unless committed`: the modes it does not cover (empty: every mode).
    pub unless: Vec<Ident>,
    /// The statement.
    pub loc: Loc,
}

/// `threshold speculative 0.7;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Threshold {
    /// The execution mode.
    pub mode: Ident,
    /// The minimum confidence.
    pub value: NumberOrParam,
    /// The statement.
    pub loc: Loc,
}

/// `budget name 5 per task counting args >= sensitive;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// The budget's name.
    pub name: Ident,
    /// How many qualifying dispatches a task may make.
    pub limit: Number,
    /// What it counts.
    pub subject: Subject,
    /// Dispatches at or above this label count.
    pub label: Ident,
    /// The statement.
    pub loc: Loc,
}

/// `audit none;` or `audit to runtime_log without raw args [, without
/// destination unless dispatched] [scrub after commit];`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Audit {
    /// The sinks; empty for `audit none`.
    pub sinks: Vec<Ident>,
    /// `Some(true)` for `with raw args`, `Some(false)` for `without raw args`.
    pub raw_args: Option<bool>,
    /// `without destination unless dispatched`, `without labels unless
    /// dispatched`: what a record of an event that never left omits.
    pub withheld: Vec<(Withheld, Loc)>,
    /// `scrub after commit` (Late-Scrub).
    pub scrub_after_commit: bool,
    /// Whether `none` was written.
    pub none: bool,
    /// The statement.
    pub loc: Loc,
}

/// What an audit record of a never-dispatched event omits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Withheld {
    /// The destination's name (and its label).
    Destination,
    /// The field, argument and destination labels.
    Labels,
}

impl Withheld {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            Withheld::Destination => "destination",
            Withheld::Labels => "labels",
        }
    }
}

/// `rewrite [args >= label] using t1, t2 [on promote reissue]`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rewrite {
    /// The transforms, in order.
    pub transforms: Vec<Ident>,
    /// `args >= label`: fields at or above it are rewritten too, whatever
    /// the cuts say.
    pub scope: Option<Ident>,
    /// `on promote reuse|reissue`.
    pub on_promote: Option<(PromoteMode, Loc)>,
}

/// `decide { rules }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decide {
    /// Rules in order; the last should be a default with no guard.
    pub rules: Vec<Rule>,
    /// The block.
    pub loc: Loc,
}

/// `[name:] action [when|unless guard];`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// An optional name used in provenance.
    pub name: Option<Ident>,
    /// What to do.
    pub action: Action,
    /// When to do it.
    pub guard: Option<Guard>,
    /// The rule.
    pub loc: Loc,
}

/// One of the five actions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Dispatch unchanged.
    Allow(Loc),
    /// Drop with a denial.
    Block(Loc),
    /// Buffer until the branch is promoted.
    Defer(Loc),
    /// Rewrite forbidden (and scoped) fields with these transforms.
    Rewrite(Rewrite, Loc),
    /// Run a local substitute (the tool's own when none is named).
    Shadow(Option<Ident>, Loc),
}

impl Action {
    /// The keyword.
    pub fn keyword(&self) -> &'static str {
        match self {
            Action::Allow(_) => "allow",
            Action::Block(_) => "block",
            Action::Defer(_) => "defer",
            Action::Rewrite(..) => "rewrite",
            Action::Shadow(..) => "shadow",
        }
    }

    /// The action's location.
    pub fn loc(&self) -> Loc {
        match self {
            Action::Allow(l) | Action::Block(l) | Action::Defer(l) => *l,
            Action::Rewrite(_, l) | Action::Shadow(_, l) => *l,
        }
    }
}

/// `when expr` or `unless expr`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    /// `true` for `unless`.
    pub negated: bool,
    /// The condition.
    pub expr: Expr,
}

/// A boolean condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// `true` or `false`.
    Bool(bool, Loc),
    /// `not e`
    Not(Box<Expr>, Loc),
    /// `a and b`
    And(Box<Expr>, Box<Expr>, Loc),
    /// `a or b`
    Or(Box<Expr>, Box<Expr>, Loc),
    /// A unary predicate such as `tool allowed`.
    Predicate(Predicate, Loc),
    /// `subject op operand` or `subject in {..}`.
    Compare(Compare),
    /// A bare name, such as the mode `speculative`.
    Flag(Ident),
    /// `( e )`, kept so printing preserves the user's grouping.
    Paren(Box<Expr>, Loc),
}

impl Expr {
    /// The expression's location.
    pub fn loc(&self) -> Loc {
        match self {
            Expr::Bool(_, l)
            | Expr::Not(_, l)
            | Expr::And(_, _, l)
            | Expr::Or(_, _, l)
            | Expr::Predicate(_, l)
            | Expr::Paren(_, l) => *l,
            Expr::Compare(c) => c.loc,
            Expr::Flag(i) => i.loc,
        }
    }
}

/// A unary predicate.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Predicate {
    /// `tool allowed`
    ToolAllowed,
    /// `destination allowed`
    DestinationAllowed,
    /// `destination external`
    DestinationExternal,
    /// `destination undeclared`
    DestinationUndeclared,
    /// `budget [name] exhausted`
    BudgetExhausted(Option<Ident>),
    /// `labels missing`
    LabelsMissing,
    /// `substitute available`
    SubstituteAvailable,
}

/// What a comparison reads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CompareSubject {
    /// The tool.
    Tool,
    /// The destination (identity with `==`/`in`, label with orderings).
    Destination,
    /// The execution mode.
    Mode,
    /// The tool's effect class.
    Effect,
    /// The branch confidence.
    Confidence,
    /// The argument label: the join over every field, or one field.
    Args(Option<Ident>),
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// The right-hand side of a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A number.
    Number(Number),
    /// `threshold`: the contract's threshold for the event's mode.
    Threshold(Loc),
    /// A name: a label, tool, destination, mode, effect or parameter.
    Name(Ident),
}

/// `subject op operand` or `subject in {a, b}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Compare {
    /// What is compared.
    pub subject: CompareSubject,
    /// Where the subject is written.
    pub subject_loc: Loc,
    /// The test.
    pub test: CompareTest,
    /// The whole comparison.
    pub loc: Loc,
}

/// The test a comparison applies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CompareTest {
    /// `op operand`
    Op(CmpOp, Operand),
    /// `in {a, b}`
    In(Vec<Ident>),
}

/// `test "name" { call tool(args) clauses [expect labels {..};] expect
/// action [by rule] [to {..}]; }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Test {
    /// The test's name.
    pub name: Str,
    /// The tool called.
    pub tool: Ident,
    /// Arguments.
    pub args: Vec<CallArg>,
    /// Event clauses in order.
    pub clauses: Vec<EventClause>,
    /// The expected action keyword.
    pub expect: ExpectAction,
    /// The rule expected to decide, if given.
    pub expect_rule: Option<Ident>,
    /// `to { field: value }`: what the dispatched arguments hold.
    pub expect_to: Option<(Vec<CallArg>, Loc)>,
    /// `expect labels { field: label }`: the labels the decision used.
    pub expect_labels: Option<(Vec<(Ident, Ident)>, Loc)>,
    /// The block.
    pub loc: Loc,
}

/// The action a test expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpectAction {
    /// `allow`
    Allow,
    /// `block`
    Block,
    /// `defer`
    Defer,
    /// `rewrite`
    Rewrite,
    /// `shadow`
    Shadow,
}

impl ExpectAction {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            ExpectAction::Allow => "allow",
            ExpectAction::Block => "block",
            ExpectAction::Defer => "defer",
            ExpectAction::Rewrite => "rewrite",
            ExpectAction::Shadow => "shadow",
        }
    }
}

/// `name: value`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallArg {
    /// The field name.
    pub name: Ident,
    /// The value.
    pub value: Value,
}

/// A JSON-like argument value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A string.
    Str(Str),
    /// A number.
    Number(Number),
    /// `true` / `false`.
    Bool(bool, Loc),
    /// `[a, b]`
    List(Vec<Value>, Loc),
    /// `{k: v}`
    Object(Vec<CallArg>, Loc),
}

/// Where a test event goes, and how.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EventClause {
    /// `to brave` or `to "api.brave.com"`.
    ToName(Ident),
    /// `to "api.brave.com"`.
    ToAddress(Str),
    /// `speculative`, or the deprecated `mode speculative` (with the
    /// location of the whole clause).
    Mode(Ident, Option<Loc>),
    /// `confidence 0.9`
    Confidence(Number),
    /// `branch "b1"`
    Branch(Str),
    /// `after 5 dispatches of budget_name`
    After(Number, Ident),
    /// `labels { q: intent_revealing, destination: public }`
    Labels(Vec<(Ident, Ident)>),
}
