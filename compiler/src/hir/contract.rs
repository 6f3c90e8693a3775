//! Contracts: cuts, thresholds, budgets, audit, the typed decision pipeline
//! and tests. Re-exported from [`crate::hir`].

use super::{
    BudgetId, DestId, EffectId, LabelId, LabelerId, ModeId, ObserverId, ParamId, RuleId, Subject,
    SubstituteId, ToolId, TransformId,
};
use crate::source::Span;

/// A contract parameter with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// The declared default.
    pub default: f64,
    /// The value in effect (the default unless overridden).
    pub value: f64,
    /// The declaration.
    pub span: Span,
}

/// `forbid args >= cut at observers;`
#[derive(Clone, Debug, PartialEq)]
pub struct Forbid {
    /// Arguments or destination.
    pub subject: Subject,
    /// Labels at or above this one are forbidden.
    pub cut: LabelId,
    /// The observers it protects against.
    pub observers: Vec<ObserverId>,
    /// The modes it does not cover (`unless committed`); empty: every mode.
    pub unless: Vec<ModeId>,
    /// The statement.
    pub span: Span,
}

/// `threshold mode value;`
#[derive(Clone, Debug, PartialEq)]
pub struct Threshold {
    /// The execution mode.
    pub mode: ModeId,
    /// The value in [0, 1].
    pub value: f64,
    /// The parameter it was read from, if any.
    pub param: Option<ParamId>,
    /// The statement.
    pub span: Span,
}

/// `budget name n per task counting subject >= label;`
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// Its name.
    pub name: String,
    /// Qualifying dispatches allowed per task (at least 1).
    pub limit: u32,
    /// Arguments or destination.
    pub subject: Subject,
    /// Dispatches at or above this label count.
    pub label: LabelId,
    /// The statement.
    pub span: Span,
}

/// Who receives audit records.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Audit {
    /// The sinks; empty for `audit none` or no audit statement.
    pub sinks: Vec<ObserverId>,
    /// Whether raw arguments are granted to the sinks.
    pub raw_args: bool,
    /// `without destination unless dispatched`: a record of an event that
    /// never left (deferred, shadowed, blocked, abandoned) names no
    /// destination.
    pub withhold_destination: bool,
    /// `without labels unless dispatched`: such a record carries no labels.
    pub withhold_labels: bool,
    /// Late-Scrub: scrub the log after commit.
    pub scrub_after_commit: bool,
    /// The statement, if written.
    pub span: Option<Span>,
}

/// A decision.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Dispatch unchanged.
    Allow,
    /// Drop with a denial.
    Block,
    /// Buffer until promotion.
    Defer,
    /// Rewrite forbidden (and scoped) fields with these transforms.
    Rewrite(Rewrite),
    /// Run a substitute; `None` means each tool's own.
    Shadow(Option<SubstituteId>),
}

impl Action {
    /// The keyword.
    pub fn keyword(&self) -> &'static str {
        match self {
            Action::Allow => "allow",
            Action::Block => "block",
            Action::Defer => "defer",
            Action::Rewrite(_) => "rewrite",
            Action::Shadow(_) => "shadow",
        }
    }
}

/// `rewrite [args >= scope] using transforms [on promote reissue]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Rewrite {
    /// The transforms, applied in order to each field they fit.
    pub transforms: Vec<TransformId>,
    /// Fields at or above this label are rewritten too, whatever the cuts
    /// say (the cuts' fields always are).
    pub scope: Option<LabelId>,
    /// `on promote reissue`: when a speculative rewritten call's branch is
    /// promoted, it is decided again as committed with its original
    /// arguments.
    pub reissue: bool,
}

/// A comparison operator: the AST's, which has no sugar to expand.
pub use crate::syntax::ast::CmpOp;

/// What a confidence is compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// A literal.
    Value(f64),
    /// A contract parameter; its value is [`Param::value`].
    Param(ParamId),
    /// The contract's threshold for the event's mode (a mode without a
    /// threshold has none: the comparison is false).
    ThresholdOfMode,
}

/// A reference to one argument field by name (present in some tools).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldRef {
    /// The field's name.
    pub name: String,
}

/// A typed guard. An unguarded rule has `Guard::Bool(true)`; `unless g` is
/// `Not(g)`; `and`/`or` chains are flattened.
#[derive(Clone, Debug, PartialEq)]
pub enum Guard {
    /// A constant.
    Bool(bool),
    /// Negation.
    Not(Box<Guard>),
    /// Every operand holds.
    And(Vec<Guard>),
    /// Some operand holds.
    Or(Vec<Guard>),
    /// `tool allowed`
    ToolAllowed,
    /// `destination allowed`
    DestinationAllowed,
    /// `destination external`: some external observer records the destination.
    DestinationExternal,
    /// `destination undeclared`: the destination is not one the tool
    /// declares (the `<unknown>` value of the destination dimension).
    DestinationUndeclared,
    /// `budget [name] exhausted`; `None` means any budget of the contract.
    BudgetExhausted(Option<BudgetId>),
    /// `labels missing`: a field or the destination has no label.
    LabelsMissing,
    /// `substitute available`: the tool has a substitute.
    SubstituteAvailable,
    /// `tool == t` / `tool in {..}`
    ToolIs(Vec<ToolId>),
    /// `destination == d` / `destination in {..}`
    DestinationIs(Vec<DestId>),
    /// A bare mode, `mode == m`, `mode in {..}`
    ModeIs(Vec<ModeId>),
    /// `effect == e` / `effect in {..}`
    EffectIs(Vec<EffectId>),
    /// `confidence op bound`
    Confidence(CmpOp, Bound),
    /// `args op label` (the join over fields) or `args.f op label`.
    ArgLabel {
        /// One field, or `None` for the join over every field.
        field: Option<FieldRef>,
        /// The operator.
        op: CmpOp,
        /// A label of the argument lattice.
        label: LabelId,
    },
    /// `destination op label` in the destination lattice.
    DestLabel(CmpOp, LabelId),
}

/// One rule of a `decide` pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// The rule's name, if written.
    pub name: Option<String>,
    /// What it does.
    pub action: Action,
    /// When it fires.
    pub guard: Guard,
    /// Whether the source had no guard (a default rule).
    pub unguarded: bool,
    /// The rule.
    pub span: Span,
}

/// A test event's destination.
#[derive(Clone, Debug, PartialEq)]
pub enum TestDest {
    /// A declared destination.
    Named(DestId),
    /// A raw address, matched by the runtime.
    Address(String),
}

/// A test event's argument value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A string.
    Str(String),
    /// A number.
    Number(f64),
    /// A boolean.
    Bool(bool),
    /// A list.
    List(Vec<Value>),
    /// An object.
    Object(Vec<(String, Value)>),
}

/// What a test's `labels { .. }` clause pins.
#[derive(Clone, Debug, PartialEq)]
pub enum LabelTarget {
    /// An argument field.
    Field(String),
    /// The destination.
    Destination,
}

/// `test "name" { call ... expect ...; }`
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    /// The test's name.
    pub name: String,
    /// The tool called.
    pub tool: ToolId,
    /// Arguments.
    pub args: Vec<(String, Value)>,
    /// Where the call goes.
    pub destination: Option<TestDest>,
    /// The execution mode (default: committed).
    pub mode: Option<ModeId>,
    /// The branch confidence.
    pub confidence: Option<f64>,
    /// The branch name.
    pub branch: Option<String>,
    /// Budget state before the event: `after n dispatches of budget`.
    pub after: Vec<(BudgetId, u32)>,
    /// Labels pinned by the test instead of computed by the labelers.
    pub labels: Vec<(LabelTarget, LabelId)>,
    /// The expected action.
    pub expect: ActionKind,
    /// The rule expected to decide.
    pub expect_rule: Option<RuleId>,
    /// `to { .. }`: the dispatched arguments' named fields (the others must
    /// leave unchanged).
    pub expect_to: Option<Vec<(String, Value)>>,
    /// `expect labels { .. }`: the labels the decision must have used.
    pub expect_labels: Vec<(LabelTarget, LabelId)>,
    /// The test block.
    pub span: Span,
}

/// An action without its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// Allow.
    Allow,
    /// Block.
    Block,
    /// Defer.
    Defer,
    /// Rewrite.
    Rewrite,
    /// Shadow.
    Shadow,
}

/// A checked contract.
#[derive(Clone, Debug, PartialEq)]
pub struct Contract {
    /// Its name.
    pub name: String,
    /// The contract it extends, by name.
    pub extends: Option<String>,
    /// Its parameters.
    pub params: Vec<Param>,
    /// The allowed tools.
    pub tools: Vec<ToolId>,
    /// The allowed destinations.
    pub destinations: Vec<DestId>,
    /// `destinations undeclared;`: destinations the tool does not declare
    /// are allowed too, and decided by their label (off: they never pass
    /// `destination allowed`).
    pub undeclared_destinations: bool,
    /// The labelers its events go through (`labelers a, b;`); `None` when
    /// the contract names none and uses every labeler of the program
    /// (deprecated, `W0009`).
    pub labelers: Option<Vec<LabelerId>>,
    /// Forbidden cuts.
    pub forbids: Vec<Forbid>,
    /// Confidence thresholds per mode.
    pub thresholds: Vec<Threshold>,
    /// Per-task budgets.
    pub budgets: Vec<Budget>,
    /// The audit policy.
    pub audit: Audit,
    /// The ordered decision pipeline; the last is unguarded after success.
    pub rules: Vec<Rule>,
    /// Tests.
    pub tests: Vec<Test>,
    /// The declaration.
    pub span: Span,
}

impl Contract {
    /// Whether the contract's events go through labeler `id`: it names it,
    /// or it names none (every labeler of the program, deprecated).
    pub fn uses_labeler(&self, id: LabelerId) -> bool {
        self.labelers.as_ref().is_none_or(|l| l.contains(&id))
    }

    /// The threshold for a mode.
    pub fn threshold(&self, mode: ModeId) -> Option<&Threshold> {
        self.thresholds.iter().find(|t| t.mode == mode)
    }

    /// The forbid statements on arguments.
    pub fn arg_cuts(&self) -> impl Iterator<Item = &Forbid> {
        self.forbids.iter().filter(|f| f.subject == Subject::Args)
    }

    /// The budget called `name`.
    pub fn budget(&self, name: &str) -> Option<BudgetId> {
        self.budgets
            .iter()
            .position(|b| b.name == name)
            .and_then(BudgetId::from_index)
    }

    /// Overrides parameters (`name=value`) and re-resolves every threshold
    /// read from one. Returns the names that are not parameters of this
    /// contract or whose value is outside [0, 1].
    pub fn override_params(&mut self, overrides: &[(String, f64)]) -> Vec<String> {
        let mut rejected = Vec::new();
        for (name, value) in overrides {
            match self.params.iter_mut().find(|p| &p.name == name) {
                Some(p) if (0.0..=1.0).contains(value) => p.value = *value,
                _ => rejected.push(name.clone()),
            }
        }
        for t in &mut self.thresholds {
            if let Some(p) = t.param.and_then(|p| self.params.get(p.index())) {
                t.value = p.value;
            }
        }
        rejected
    }
}
