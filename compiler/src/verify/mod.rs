//! Verification: the compiled table, checked exhaustively against the
//! contract's promises before it is written.
//!
//! Consumes the sealed `Table` (and the `hir` contract, only for rule names
//! and spans) and reports:
//!
//! - `E0604` unless the table is a total, deterministic function of the
//!   domain (structure: every index in range, one child per value, children
//!   test later dimensions, so each point follows exactly one path to one
//!   leaf; and, for domains under [`ENUMERATION_LIMIT`] points, by
//!   evaluating every point);
//! - `E0601`/`E0602` for any point whose cell lets a label at or above a
//!   forbidden cut reach an observer the cut names (Theorem 1; the model of
//!   each action is in `soundness`), with the counterexample event and the
//!   observer;
//! - `E0601` for an audit policy that records raw arguments at a sink an
//!   argument cut names;
//! - `E0603` for any point with a `<missing>` label, an `<unknown>` tool or
//!   an `<unknown>` destination whose action is not DEFER or BLOCK;
//! - `W0601` where raising a label makes the action more disclosing
//!   (`monotone`), and `W0602` for rules that decide no point.
//!
//! Why over the table and not over the rules: the table is what the runtime
//! runs, so checking it also checks lowering, and the domain is finite, so
//! "every point" is a loop, not a proof obligation. The loop is over diagram
//! prefixes paired with the cells below them (see `cubes`), expanding only
//! the dimensions a check reads, so its cost follows the diagram's size
//! rather than the product of every dimension. Points are restricted to the
//! feasible ones under A2: a declared destination has its declared label.

mod cubes;
mod errors;
mod examples;
mod fail_closed;
mod monotone;
mod point;
mod soundness;

use std::collections::BTreeMap;

use crate::diagnostics::{Code, Diagnostic, Diagnostics};
use crate::hir;
use crate::lower::rule_name;
use crate::source::Span;
use stpc_runtime::table::{DimensionKind, Subject, Table};

/// Domains up to this many points are also verified point by point.
pub const ENUMERATION_LIMIT: u128 = 2_000_000;

/// Verifies a lowered table against its contract, reporting into
/// `diagnostics`.
pub fn verify(
    program: &hir::Program,
    contract: &hir::Contract,
    table: &Table,
    diagnostics: &mut Diagnostics,
) {
    let already: Vec<Span> = diagnostics
        .iter()
        .filter(|d| d.code == Code::W0002)
        .filter_map(Diagnostic::primary_span)
        .collect();
    run(
        &Cx {
            table,
            origin: Origin::Contract(program, contract),
            classes: cubes::Classes::new(table),
            examples: point::Examples::new(table),
        },
        &already,
        diagnostics,
    );
}

/// Verifies a compiled table on its own, from what it carries (cuts,
/// observers, lattices, transforms' declared output labels, audit policy):
/// soundness against every declared cut, fail-closed cells, totality and
/// monotonicity, with the same counterexamples as at compile time. Rules
/// are named as the table names them; every diagnostic points at `span`
/// (where the table names its contract). Unreachable rules cannot be
/// reported: the table keeps only the rules that decide some point.
pub fn verify_table(table: &Table, span: Span, diagnostics: &mut Diagnostics) {
    run(
        &Cx {
            table,
            origin: Origin::Table(span),
            classes: cubes::Classes::new(table),
            examples: point::Examples::new(table),
        },
        &[],
        diagnostics,
    );
}

fn run(cx: &Cx<'_>, already: &[Span], diagnostics: &mut Diagnostics) {
    let table = cx.table;
    let mut out = Vec::new();
    match cubes::structure(table) {
        Ok(()) => {
            enumerate(cx, &mut out);
            let prefixes = cubes::prefixes(table, &cx.classes, point::CONF);
            let mut below = cubes::Below::default();
            soundness_pass(cx, &prefixes, &mut below, &mut out);
            fail_closed::check(cx, &prefixes, &mut below, &mut out);
            monotone::check(cx, &mut out);
            audit(cx, &mut out);
            unreachable(cx, already, &mut out);
        }
        Err(defect) => out.push(errors::not_total(cx.name(), &describe(&defect), cx.span())),
    }
    diagnostics.extend(out);
}

/// Where the names and spans of diagnostics come from.
pub(crate) enum Origin<'a> {
    /// The program and the contract the table was lowered from.
    Contract(&'a hir::Program, &'a hir::Contract),
    /// Only the table: names from its cells, one span for everything.
    Table(Span),
}

/// What the checks share.
pub(crate) struct Cx<'a> {
    /// The table being verified.
    pub(crate) table: &'a Table,
    /// Names and spans.
    pub(crate) origin: Origin<'a>,
    /// The table's value classes.
    pub(crate) classes: cubes::Classes,
    /// Concrete argument values for counterexamples.
    pub(crate) examples: point::Examples<'a>,
}

impl Cx<'_> {
    /// A rule's display name and span (the contract's span if out of range).
    pub(crate) fn rule(&self, id: u32) -> (String, Span) {
        match &self.origin {
            Origin::Contract(_, c) => match c.rules.get(id as usize) {
                Some(r) => (rule_name(r, id as usize), r.span),
                None => (format!("rule#{}", u64::from(id) + 1), c.span),
            },
            Origin::Table(span) => (
                self.table
                    .cells
                    .iter()
                    .find(|c| c.rule_id == id)
                    .map_or_else(
                        || format!("rule#{}", u64::from(id) + 1),
                        |c| c.rule_name.clone(),
                    ),
                *span,
            ),
        }
    }

    /// A rule's action keyword.
    pub(crate) fn action_keyword(&self, id: u32) -> &'static str {
        match &self.origin {
            Origin::Contract(_, c) => c.rules.get(id as usize).map_or("?", |r| r.action.keyword()),
            Origin::Table(_) => self
                .table
                .cells
                .iter()
                .find(|c| c.rule_id == id)
                .map_or("?", |c| c.action.as_str()),
        }
    }

    /// The contract's name.
    pub(crate) fn name(&self) -> &str {
        match &self.origin {
            Origin::Contract(_, c) => &c.name,
            Origin::Table(_) => &self.table.contract,
        }
    }

    /// The contract's span.
    pub(crate) fn span(&self) -> Span {
        match &self.origin {
            Origin::Contract(_, c) => c.span,
            Origin::Table(span) => *span,
        }
    }

    /// The span of the `i`-th forbid cut.
    pub(crate) fn forbid_span(&self, i: usize) -> Option<Span> {
        match &self.origin {
            Origin::Contract(_, c) => c.forbids.get(i).map(|f| f.span),
            Origin::Table(_) => None,
        }
    }

    /// The span of the audit statement.
    pub(crate) fn audit_span(&self) -> Span {
        match &self.origin {
            Origin::Contract(_, c) => c.audit.span.unwrap_or(c.span),
            Origin::Table(span) => *span,
        }
    }
}

fn describe(d: &cubes::Defect) -> String {
    match d {
        cubes::Defect::Dangling(what) => format!("{what} does not exist"),
        cubes::Defect::Arity(n) => format!("node {n} does not have one child per value"),
        cubes::Defect::Unordered(n) => {
            format!("node {n} has a child that tests an earlier dimension")
        }
    }
}

/// Totality by enumeration, for small domains: every point reaches a cell.
fn enumerate(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    let sizes = cubes::sizes(cx.table);
    let total: u128 = sizes.iter().map(|s| *s as u128).product();
    if total > ENUMERATION_LIMIT {
        return;
    }
    let all: Vec<usize> = (0..sizes.len()).collect();
    let free = vec![None; sizes.len()];
    let mut bad = None;
    // Every point, feasible or not: the runtime must place each one.
    cubes::expand(cx.table, &cx.classes, &free, &all, true, &mut |p| {
        if bad.is_some() {
            return;
        }
        let coords: Vec<u32> = p.iter().map(|v| v.unwrap_or(0)).collect();
        let ok = stpc_runtime::Point::new(&coords)
            .and_then(|pt| stpc_runtime::decide::evaluate_index(cx.table, &pt))
            .is_some_and(|c| (c as usize) < cx.table.cells.len());
        if !ok {
            bad = Some(coords);
        }
    });
    if let Some(p) = bad {
        out.push(errors::not_total(
            cx.name(),
            &format!("point {p:?} reaches no cell"),
            cx.span(),
        ));
    }
}

#[derive(Default)]
struct Found {
    observers: Vec<String>,
    label: Option<u32>,
    rewritten: bool,
    example: String,
    promoted: bool,
}

/// Runs the soundness model on every feasible point and reports one
/// diagnostic per (rule, cut, substitute).
fn soundness_pass(
    cx: &Cx<'_>,
    prefixes: &[cubes::Prefix],
    below: &mut cubes::Below,
    out: &mut Vec<Diagnostic>,
) {
    let t = cx.table;
    // A cut scoped by mode makes the mode decide what leaks: fix it too.
    let scoped = t.forbid.iter().any(|c| !c.unless.is_empty());
    let dims: &[usize] = if scoped {
        &[
            point::TOOL,
            point::DEST,
            point::ARG,
            point::DLABEL,
            point::MODE,
        ]
    } else {
        &[point::TOOL, point::DEST, point::ARG, point::DLABEL]
    };
    let committed = t.committed_mode();
    let top = match t.dimensions.get(point::CONF).map(|d| &d.kind) {
        Some(DimensionKind::Confidence { cuts }) => cuts.iter().take_while(|c| 1.0 >= **c).count(),
        _ => 0,
    };
    let mut found: BTreeMap<(u32, Option<usize>, Option<u32>), Found> = BTreeMap::new();
    for prefix in prefixes {
        for c in below.cells(t, prefix.node) {
            let Some(cell) = t.cells.get(c as usize) else {
                continue;
            };
            if matches!(
                cell.action,
                stpc_runtime::Action::Defer | stpc_runtime::Action::Block
            ) {
                continue;
            }
            cubes::expand(t, &cx.classes, &prefix.coords, dims, false, &mut |p| {
                let e = point::Event::of(t, p);
                for leak in soundness::leaks(t, &e, cell) {
                    let entry = found
                        .entry((cell.rule_id, leak.cut, leak.substitute))
                        .or_insert_with(|| {
                            let path =
                                cubes::path_to(t, prefix.node, c, p).unwrap_or_else(|| p.to_vec());
                            let mode = path.get(point::MODE).copied().flatten();
                            let conf = path.get(point::CONF).copied().flatten().map(|v| v as usize);
                            Found {
                                label: leak.label,
                                rewritten: leak.rewritten,
                                example: point::render(&cx.examples, &path),
                                promoted: mode.is_some()
                                    && mode == committed
                                    && conf.is_none_or(|c| c == top),
                                ..Found::default()
                            }
                        });
                    let name = t
                        .observers
                        .get(leak.observer as usize)
                        .map_or("?", |o| o.name.as_str())
                        .to_owned();
                    if !entry.observers.contains(&name) {
                        entry.observers.push(name);
                    }
                }
            });
        }
    }
    for ((rule, cut, sub), f) in found {
        let (name, span) = cx.rule(rule);
        let action = cx.action_keyword(rule);
        let d = match (cut.and_then(|i| t.forbid.get(i).map(|c| (i, c))), sub) {
            (Some((i, c)), None) => {
                let (subject, lattice) = match c.subject {
                    Subject::Args => ("args", &t.lattices.args),
                    Subject::Destination => ("destination", &t.lattices.destination),
                };
                let label = f.label.and_then(|l| lattice.label_name(l)).unwrap_or("?");
                let unless: Vec<String> = c
                    .unless
                    .iter()
                    .filter_map(|m| {
                        t.dimensions
                            .get(point::MODE)
                            .and_then(|d| d.values.get(*m as usize))
                            .cloned()
                    })
                    .collect();
                let leak = errors::Leak {
                    unless: &unless,
                    rule: &name,
                    action,
                    subject,
                    label,
                    cut: lattice.label_name(c.label).unwrap_or("?"),
                    observers: &f.observers,
                    rewritten: f.rewritten,
                };
                let cut_span = cx.forbid_span(i);
                errors::leak(&leak, span, cut_span, &f.example)
            }
            (cut, Some(s)) => {
                let sub = t
                    .substitutes
                    .get(s as usize)
                    .map_or("?", |s| s.name.as_str());
                let why = match cut {
                    None => "the substitute is observed by an external observer, so SHADOW discloses the call".to_owned(),
                    Some((_, c)) => {
                        let lattice = if c.subject == Subject::Args { &t.lattices.args } else { &t.lattices.destination };
                        format!("the substitute's observer is named by the cut `>= {}`", lattice.label_name(c.label).unwrap_or("?"))
                    }
                };
                let observer = f.observers.first().map_or("?", String::as_str);
                errors::shadow_leak(&name, sub, observer, &why, span, &f.example)
            }
            (None, None) => continue,
        };
        let d = if f.promoted {
            d.note("a deferred speculative event with these labels gets the same cell when its branch is promoted (re-decided as `committed` with confidence 1.0)")
        } else {
            d
        };
        out.push(d);
    }
}

/// `E0601` for an audit policy whose records give a sink a cut names what
/// the cut forbids it. Every event is audited, whatever its decision:
///
/// - `with raw args` records the raw arguments of every committed event, so
///   an argument cut that covers the committed mode is reached by any
///   event at or above it;
/// - unless the policy says `without destination unless dispatched`, the
///   record of a deferred, shadowed or blocked call names its destination,
///   so a destination cut is reached in any mode it covers. (Records of
///   dispatched events are checked with the cells: a sink a cut names
///   observes every dispatch.)
fn audit(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    let t = cx.table;
    let modes = t.dimensions.get(point::MODE).map_or(0, |d| d.values.len());
    let span = cx.audit_span();
    for (i, cut) in t.forbid.iter().enumerate() {
        // The mode of a record that carries the cut's subject, if any.
        let (mode, dim) = match cut.subject {
            Subject::Args if t.audit.raw_args => {
                // Only committed arguments are kept raw.
                let committed = t.committed_mode();
                (
                    cut.covers(committed).then_some(committed).flatten(),
                    point::ARG,
                )
            }
            Subject::Destination if !t.audit.withhold_destination => (
                (0u32..).take(modes).find(|m| cut.covers(Some(*m))),
                point::DLABEL,
            ),
            Subject::Args | Subject::Destination => continue,
        };
        let Some(mode) = mode else { continue };
        let sinks: Vec<String> = t
            .audit
            .sinks
            .iter()
            .filter(|o| cut.observers.contains(o))
            .filter_map(|o| t.observers.get(*o as usize))
            .filter(|o| {
                cut.subject == Subject::Args
                    || o.sees.iter().any(|c| c == "destination" || c == "audit")
            })
            .map(|o| o.name.clone())
            .collect();
        if sinks.is_empty() {
            continue;
        }
        let mut coords = vec![None; t.dimensions.len()];
        if let Some(slot) = coords.get_mut(point::MODE) {
            *slot = Some(mode);
        }
        if let Some(slot) = coords.get_mut(dim) {
            *slot = Some(cut.label);
        }
        let lattice = match cut.subject {
            Subject::Args => &t.lattices.args,
            Subject::Destination => &t.lattices.destination,
        };
        out.push(errors::audit_leak(
            cut.subject,
            lattice.label_name(cut.label).unwrap_or("?"),
            &sinks,
            span,
            cx.forbid_span(i),
            &point::render(&cx.examples, &coords),
        ));
    }
}

/// `W0602` for rules no cell comes from, unless the checker's `W0002`
/// already named them. Rules inherited from a contract in another file
/// (`extends`) are left out: that one of them decides nothing here (the
/// prelude's `unknown_destination` in a contract that allows undeclared
/// destinations) is the extension's doing, not a mistake in the rule, and
/// nothing in this file could change it.
fn unreachable(cx: &Cx<'_>, already: &[Span], out: &mut Vec<Diagnostic>) {
    let Origin::Contract(program, contract) = &cx.origin else {
        return;
    };
    for (id, (i, rule)) in (0u32..).zip(contract.rules.iter().enumerate()) {
        if cx.table.cells.iter().any(|c| c.rule_id == id)
            || already.contains(&rule.span)
            || rule.span.file != contract.span.file
        {
            continue;
        }
        let why = crate::lower::preemption(program, contract, i);
        let by: Vec<(String, Span)> = match &why {
            Some(crate::lower::Preemption::By(rules)) => rules
                .iter()
                .filter_map(|r| contract.rules.get(*r).map(|x| (rule_name(x, *r), x.span)))
                .collect(),
            _ => Vec::new(),
        };
        out.push(errors::unreachable_rule(
            &rule_name(rule, i),
            rule.span,
            why.as_ref(),
            &by,
        ));
    }
}
