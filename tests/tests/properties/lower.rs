//! Properties of lowering, over generated contracts.
//!
//! Contracts are generated at the source level over a fixed, self-contained
//! vocabulary ([`PRELUDE`]): random allow-lists, an optional cut and budget,
//! and up to six random rules whose guards combine every kind of atom the
//! language has, then a random default. Contracts the checker rejects are
//! discarded. For each accepted contract (verified or not: the properties
//! are about lowering), the properties are:
//!
//! 1. a reference interpreter that runs the `hir` rules directly on a
//!    concrete event agrees with `stpc_runtime` evaluating the compiled table,
//!    on generated events (names, labels, confidences, budget states);
//! 2. every point of the domain reaches exactly one cell;
//! 3. serialising and deserialising a table is the identity;
//! 4. flipping any byte of a serialised table makes the runtime refuse it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::collections::HashMap;
use std::sync::Arc;

use proptest::prelude::*;
use stpc_compiler::hir::{self, Bound, CmpOp, Guard};
use stpc_compiler::{Diagnostics, SourceMap};
use stpc_runtime::decide::{Decision, LabelsIn, Query};
use stpc_runtime::table::{Node, Table};
use stpc_runtime::Decider;

pub(crate) const PRELUDE: &str = r#"
lattice ArgLabel for args { public < personal < sensitive < intent_revealing }
lattice DestLabel for destination { public < internal < regulated }
enum Mode { committed, speculative, prefetch }
enum Effect { local_read, external_read, irreversible }
channels { arguments, destination, timing }
observer provider external sees arguments, destination, timing;
observer network external sees destination, timing;
observer runtime_log internal sees arguments, destination;
destination search { host "search.example"; label public; observed by provider, network; }
destination clinic { collection "oncology"; label regulated; observed by provider; }
destination notes { collection "notes"; label internal; observed by runtime_log; }
tool web { effect external_read; args { q: text, n: number } destinations search; substitute web_local; }
tool docs { effect external_read; args { query: text } destinations clinic, notes; }
tool mail { effect irreversible; args { to: entity, body: text } destinations search; }
substitute web_local for web { observed by runtime_log; on promote reissue; }
lexicon topics { "lease" => "housing", "chemo" => "treatment" }
transform generic(text) -> public { replace lexicon topics; }
labeler a for args { lexicon topics -> sensitive; fallback personal; }
labeler d for destination { fallback regulated; }
"#;

pub(crate) const TOOLS: &[&str] = &["web", "docs", "mail"];
pub(crate) const DESTS: &[&str] = &["search", "clinic", "notes"];
pub(crate) const ARGS: &[&str] = &["public", "personal", "sensitive", "intent_revealing"];
pub(crate) const DLABELS: &[&str] = &["public", "internal", "regulated"];
const MODES: &[&str] = &["committed", "speculative", "prefetch"];
const OPS: &[&str] = &["==", "!=", "<", "<=", ">", ">="];

fn atom(budget: bool) -> BoxedStrategy<String> {
    let mut atoms: Vec<BoxedStrategy<String>> = vec![
        Just("tool allowed".to_owned()).boxed(),
        Just("destination allowed".to_owned()).boxed(),
        Just("destination external".to_owned()).boxed(),
        Just("labels missing".to_owned()).boxed(),
        Just("substitute available".to_owned()).boxed(),
        proptest::sample::select(MODES)
            .prop_map(str::to_owned)
            .boxed(),
        (
            proptest::sample::select(OPS),
            proptest::sample::select(&[0.3, 0.5, 0.7, 0.75][..]),
        )
            .prop_map(|(op, v)| format!("confidence {op} {v}"))
            .boxed(),
        proptest::sample::select(&["<", ">=", "<="][..])
            .prop_map(|op| format!("confidence {op} threshold"))
            .boxed(),
        (
            proptest::sample::select(OPS),
            proptest::sample::select(ARGS),
        )
            .prop_map(|(op, l)| format!("args {op} {l}"))
            .boxed(),
        (
            proptest::sample::select(&[">=", "=="][..]),
            proptest::sample::select(ARGS),
        )
            .prop_map(|(op, l)| format!("args.q {op} {l}"))
            .boxed(),
        (
            proptest::sample::select(OPS),
            proptest::sample::select(DLABELS),
        )
            .prop_map(|(op, l)| format!("destination {op} {l}"))
            .boxed(),
        proptest::sample::select(TOOLS)
            .prop_map(|t| format!("tool == {t}"))
            .boxed(),
        proptest::sample::select(DESTS)
            .prop_map(|d| format!("destination == {d}"))
            .boxed(),
        proptest::sample::select(&["local_read", "external_read", "irreversible"][..])
            .prop_map(|e| format!("effect == {e}"))
            .boxed(),
    ];
    if budget {
        atoms.push(Just("budget b exhausted".to_owned()).boxed());
    }
    proptest::strategy::Union::new(atoms).boxed()
}

fn guard(budget: bool) -> BoxedStrategy<String> {
    atom(budget)
        .prop_recursive(2, 8, 3, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} and {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} or {b})")),
                inner.prop_map(|a| format!("not ({a})")),
            ]
        })
        .boxed()
}

pub(crate) fn rule(budget: bool) -> BoxedStrategy<String> {
    (0..5u8, guard(budget))
        .prop_map(|(a, g)| match a {
            0 => format!("block when {g};"),
            1 => format!("defer when {g};"),
            2 => format!("allow when {g};"),
            3 => format!("rewrite using generic when {g};"),
            _ => format!("shadow when substitute available and {g};"),
        })
        .boxed()
}

pub(crate) fn subset(names: &'static [&'static str]) -> impl Strategy<Value = Vec<&'static str>> {
    proptest::sample::subsequence(names, 1..=names.len())
}

fn contract() -> impl Strategy<Value = String> {
    (
        subset(TOOLS),
        subset(DESTS),
        proptest::option::of(proptest::sample::select(ARGS)),
        any::<bool>(),
        proptest::sample::select(&[0.3, 0.5, 0.7][..]),
    )
        .prop_flat_map(|(tools, dests, cut, budget, tau)| {
            (
                Just((tools, dests, cut, budget, tau)),
                proptest::collection::vec(rule(budget), 0..6),
                proptest::sample::select(&["allow", "block", "defer"][..]),
            )
        })
        .prop_map(|((tools, dests, cut, budget, tau), rules, default)| {
            let mut s = format!(
                "{PRELUDE}\ncontract gen {{\n    tools {};\n    destinations {};\n",
                tools.join(", "),
                dests.join(", ")
            );
            if let Some(c) = cut {
                s.push_str(&format!("    forbid args >= {c} at provider;\n"));
            }
            s.push_str(&format!("    threshold speculative {tau};\n"));
            if budget {
                s.push_str("    budget b 3 per task counting args >= sensitive;\n");
            }
            s.push_str("    decide {\n");
            for r in rules {
                s.push_str(&format!("        {r}\n"));
            }
            s.push_str(&format!("        {default};\n    }}\n}}\n"));
            s
        })
}

/// A checked program and its table, or `None` when the checker rejects it.
pub(crate) fn build(text: &str) -> Option<(hir::Program, hir::Contract, Table)> {
    let mut map = SourceMap::new();
    let id = map.add("gen.stpc", text);
    let mut d = Diagnostics::new();
    let mut no_files = HashMap::<String, String>::new();
    let program = stpc_compiler::check(&mut map, &[id], &mut no_files, &mut d);
    if d.has_errors() {
        return None;
    }
    let contract = program.contract("gen")?.clone();
    let table = stpc_compiler::lower::lower(&program, &contract, &mut d)?;
    Some((program, contract, table))
}

/// A concrete event, by name (`None`: a name the table does not know).
#[derive(Clone, Debug)]
struct Event {
    tool: Option<&'static str>,
    dest: Option<&'static str>,
    mode: &'static str,
    confidence: f64,
    arg: Option<&'static str>,
    dlabel: Option<&'static str>,
    q: Option<&'static str>,
    exhausted: bool,
}

fn event() -> impl Strategy<Value = Event> {
    (
        proptest::option::weighted(0.9, proptest::sample::select(TOOLS)),
        proptest::option::weighted(0.9, proptest::sample::select(DESTS)),
        proptest::sample::select(MODES),
        prop_oneof![
            proptest::sample::select(&[0.0, 0.3, 0.5, 0.7, 0.75, 1.0][..]),
            0.0..=1.0f64
        ],
        proptest::option::weighted(0.9, proptest::sample::select(ARGS)),
        proptest::option::weighted(0.9, proptest::sample::select(DLABELS)),
        proptest::option::weighted(0.8, proptest::sample::select(ARGS)),
        any::<bool>(),
    )
        .prop_map(
            |(tool, dest, mode, confidence, arg, dlabel, q, exhausted)| Event {
                tool,
                dest,
                mode,
                confidence,
                arg,
                dlabel,
                q,
                exhausted,
            },
        )
}

/// The reference interpreter: the first rule whose guard holds, evaluated
/// on `hir` directly. Tools and destinations the table does not list are
/// unknown to the runtime, so they are unknown here too.
struct Reference<'a> {
    p: &'a hir::Program,
    c: &'a hir::Contract,
    tool: Option<hir::ToolId>,
    dest: Option<hir::DestId>,
    mode: hir::ModeId,
    confidence: f64,
    arg: Option<hir::LabelId>,
    dlabel: Option<hir::LabelId>,
    q: Option<hir::LabelId>,
    exhausted: bool,
}

fn cmp_f(a: f64, op: CmpOp, b: f64) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

impl Reference<'_> {
    fn label(&self, x: Option<hir::LabelId>, op: CmpOp, l: hir::LabelId) -> bool {
        let Some(x) = x else { return false };
        let le = self.p.leq(x, l) == Some(true);
        let ge = self.p.leq(l, x) == Some(true);
        match op {
            CmpOp::Eq => x == l,
            CmpOp::Ne => x != l,
            CmpOp::Lt => le && x != l,
            CmpOp::Le => le,
            CmpOp::Gt => ge && x != l,
            CmpOp::Ge => ge,
        }
    }

    fn holds(&self, g: &Guard) -> bool {
        let tool = self.tool.and_then(|t| self.p.tool(t));
        match g {
            Guard::Bool(b) => *b,
            Guard::Not(x) => !self.holds(x),
            Guard::And(v) => v.iter().all(|x| self.holds(x)),
            Guard::Or(v) => v.iter().any(|x| self.holds(x)),
            Guard::ToolAllowed => self.tool.is_some_and(|t| self.c.tools.contains(&t)),
            Guard::DestinationAllowed => self.dest.map_or(self.c.undeclared_destinations, |d| {
                self.c.destinations.contains(&d)
            }),
            Guard::DestinationUndeclared => self.dest.is_none(),
            Guard::DestinationExternal => self.dest.is_none_or(|d| self.p.is_external(d)),
            Guard::BudgetExhausted(_) => self.exhausted,
            Guard::LabelsMissing => self.arg.is_none() || self.dlabel.is_none(),
            Guard::SubstituteAvailable => tool.is_some_and(|t| t.substitute.is_some()),
            Guard::ToolIs(ts) => self.tool.is_some_and(|t| ts.contains(&t)),
            Guard::DestinationIs(ds) => self.dest.is_some_and(|d| ds.contains(&d)),
            Guard::ModeIs(ms) => ms.contains(&self.mode),
            Guard::EffectIs(es) => tool.and_then(|t| t.effect).is_some_and(|e| es.contains(&e)),
            Guard::Confidence(op, Bound::Value(v)) => cmp_f(self.confidence, *op, *v),
            Guard::Confidence(op, Bound::Param(p)) => self
                .c
                .params
                .get(p.index())
                .is_some_and(|p| cmp_f(self.confidence, *op, p.value)),
            Guard::Confidence(op, Bound::ThresholdOfMode) => self
                .c
                .threshold(self.mode)
                .is_some_and(|t| cmp_f(self.confidence, *op, t.value)),
            Guard::ArgLabel {
                field: None,
                op,
                label,
            } => self.label(self.arg, *op, *label),
            Guard::ArgLabel {
                field: Some(f),
                op,
                label,
            } => f.name == "q" && self.label(self.q, *op, *label),
            Guard::DestLabel(op, label) => self.label(self.dlabel, *op, *label),
        }
    }

    fn decide(&self) -> Option<u32> {
        self.c
            .rules
            .iter()
            .position(|r| self.holds(&r.guard))
            .and_then(|i| u32::try_from(i).ok())
    }
}

fn label_id(
    p: &hir::Program,
    lattice: Option<&hir::Lattice>,
    name: Option<&str>,
) -> Option<hir::LabelId> {
    let name = name?;
    lattice?
        .labels
        .iter()
        .copied()
        .find(|l| p.label_name(*l) == name)
}

fn local(lattice: &stpc_runtime::table::Lattice, name: Option<&str>) -> Option<u32> {
    lattice.label_id(name?)
}

fn agree(
    p: &hir::Program,
    c: &hir::Contract,
    t: &Table,
    decider: &Decider,
    e: &Event,
) -> Result<(), TestCaseError> {
    let tool_name = e.tool.unwrap_or("mystery_tool");
    let dest_name = e.dest.unwrap_or("unknown.example");
    let in_table_tool = t.tools.iter().any(|x| x.name == tool_name);
    // A destination the tool does not declare is placed as unknown (the
    // runtime's placement rule, restated here independently).
    let own = t
        .tools
        .iter()
        .find(|x| x.name == tool_name)
        .map(|x| x.destinations.clone())
        .unwrap_or_default();
    let in_table_dest = t.destinations.iter().enumerate().any(|(i, x)| {
        x.name == dest_name
            && (own.is_empty() || own.contains(&u32::try_from(i).unwrap_or(u32::MAX)))
    });
    let r = Reference {
        p,
        c,
        tool: if in_table_tool {
            p.tools
                .iter()
                .position(|x| x.name == tool_name)
                .and_then(hir::ToolId::from_index)
        } else {
            None
        },
        dest: if in_table_dest {
            p.destinations
                .iter()
                .position(|x| x.name == dest_name)
                .and_then(hir::DestId::from_index)
        } else {
            None
        },
        mode: p
            .modes
            .iter()
            .position(|m| m.name == e.mode)
            .and_then(hir::ModeId::from_index)
            .unwrap_or(hir::ModeId(0)),
        confidence: e.confidence,
        arg: label_id(p, p.args(), e.arg),
        dlabel: label_id(p, p.dests(), e.dlabel),
        q: label_id(p, p.args(), e.q),
        exhausted: e.exhausted,
    };
    let q_field: Vec<(&str, u32)> = local(&t.lattices.args, e.q)
        .map(|l| vec![("q", l)])
        .unwrap_or_default();
    let budgets = vec![e.exhausted; t.budgets.len()];
    let query = Query {
        tool: tool_name,
        destination: dest_name,
        mode: e.mode,
        confidence: e.confidence,
        labels: LabelsIn {
            args: local(&t.lattices.args, e.arg),
            destination: local(&t.lattices.destination, e.dlabel),
            fields: &q_field,
        },
        budgets_exhausted: &budgets,
    };
    let decided = decider.decide(&query);
    let want = r.decide();
    prop_assert_eq!(decided.rule_id, want, "event {:?}", e);
    // The fast path (`decide`: resolve, then the dense offset of the rest)
    // decides as the checked one (a whole point, then the dense index or
    // the walk), here and on inputs outside the domain, which both must
    // fail closed.
    let by_point = |q: &Query<'_>| {
        decider
            .point(q)
            .map_or_else(|_| Decision::fail_closed(), |p| decider.decide_point(&p))
    };
    prop_assert_eq!(decided, by_point(&query), "event {:?}", e);
    let too_many = vec![false; budgets.len() + 1];
    let outside = [
        Query {
            confidence: 1.7,
            ..query
        },
        Query {
            confidence: f64::NAN,
            ..query
        },
        Query {
            confidence: -0.1,
            ..query
        },
        Query {
            labels: LabelsIn {
                args: Some(u32::try_from(t.lattices.args.labels.len()).unwrap_or(u32::MAX)),
                ..query.labels
            },
            ..query
        },
        Query {
            labels: LabelsIn {
                destination: Some(u32::MAX),
                ..query.labels
            },
            ..query
        },
        Query {
            budgets_exhausted: &too_many,
            ..query
        },
        Query {
            mode: "no_such_mode",
            ..query
        },
    ];
    for q in &outside {
        let d = decider.decide(q);
        prop_assert_eq!(d, Decision::fail_closed(), "outside the domain: {:?}", q);
        prop_assert_eq!(d, by_point(q));
    }
    // A resolved call decides only with the decider that resolved it.
    if let Some(r) = decider.resolve(query.tool, query.destination, query.mode) {
        let other = Decider::new(std::sync::Arc::new(t.clone()));
        prop_assert_eq!(
            other.decide_resolved(r, query.confidence, &query.labels, query.budgets_exhausted),
            Decision::fail_closed()
        );
    }
    Ok(())
}

/// Every point of the domain, by odometer, reaches exactly one valid cell.
fn total(t: &Table) -> Result<(), TestCaseError> {
    let sizes: Vec<u32> = t
        .dimensions
        .iter()
        .map(|d| u32::try_from(d.values.len()).unwrap_or(0))
        .collect();
    let mut p = vec![0u32; sizes.len()];
    let mut count = 0u64;
    let decider = stpc_runtime::decide::Decider::new(std::sync::Arc::new(t.clone()));
    loop {
        let point = stpc_runtime::Point::new(&p).expect("few dimensions");
        let cell = stpc_runtime::decide::evaluate_index(t, &point);
        // The fast paths (dense index, walk) agree with the reference.
        prop_assert_eq!(decider.decide_point(&point).cell, cell, "dense at {:?}", p);
        prop_assert_eq!(
            decider.decide_point_by_walk(&point).cell,
            cell,
            "walk at {:?}",
            p
        );
        prop_assert!(
            cell.is_some_and(|c| (c as usize) < t.cells.len()),
            "point {:?} reaches no cell",
            p
        );
        count += 1;
        let mut i = 0;
        loop {
            let Some(v) = p.get_mut(i) else {
                let expected: u64 = sizes.iter().map(|s| u64::from(*s)).product();
                prop_assert_eq!(count, expected);
                return Ok(());
            };
            *v += 1;
            if *v < sizes[i] {
                break;
            }
            *v = 0;
            i += 1;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn reference_and_table_agree(text in contract(), events in proptest::collection::vec(event(), 32)) {
        let Some((p, c, t)) = build(&text) else { return Ok(()) };
        let decider = Decider::new(Arc::new(t.clone()));
        for e in &events {
            agree(&p, &c, &t, &decider, e)?;
        }
    }

    #[test]
    fn every_point_reaches_one_cell(text in contract()) {
        let Some((_, _, t)) = build(&text) else { return Ok(()) };
        total(&t)?;
        // Reduced: no branch has all-equal children, no two nodes are equal.
        for (i, n) in t.diagram.nodes.iter().enumerate() {
            if let Node::Branch { children, .. } = n {
                prop_assert!(children.iter().any(|c| *c != children[0]), "node {} is redundant", i);
            }
            prop_assert!(!t.diagram.nodes.iter().take(i).any(|m| m == n), "node {} is a duplicate", i);
        }
    }

    #[test]
    fn serialisation_round_trips(text in contract()) {
        let Some((_, _, t)) = build(&text) else { return Ok(()) };
        let pretty = t.to_json_pretty().expect("serialises");
        prop_assert_eq!(&Table::from_json(pretty.as_bytes()).expect("loads"), &t);
        let compact = serde_json::to_vec(&t).expect("serialises");
        prop_assert_eq!(&Table::from_json(&compact).expect("loads"), &t);
        // Compiling twice gives the same bytes.
        let (_, _, again) = build(&text).expect("compiles again");
        prop_assert_eq!(pretty, again.to_json_pretty().expect("serialises"));
    }

    #[test]
    fn flipped_bytes_are_refused(text in contract(), at in any::<prop::sample::Index>(), mask in 1u8..=255) {
        let Some((_, _, t)) = build(&text) else { return Ok(()) };
        let mut bytes = t.to_json_pretty().expect("serialises").into_bytes();
        let i = at.index(bytes.len());
        bytes[i] ^= mask;
        prop_assert!(Table::from_json(&bytes).is_err(), "flipping byte {} with {:#x} was accepted", i, mask);
    }
}

#[test]
fn generated_contracts_mostly_check() {
    // Guard against a generator that only produces rejected contracts,
    // which would make the properties above vacuous.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = contract();
    let accepted = (0..64)
        .filter(|_| {
            strategy
                .new_tree(&mut runner)
                .ok()
                .and_then(|t| build(&t.current()))
                .is_some()
        })
        .count();
    assert!(
        accepted >= 16,
        "only {accepted} of 64 generated contracts check"
    );
}

/// Brute force over every feasible point: does some ALLOW cell send a
/// forbidden argument label to an observer of the cut (E0601), and does some
/// disclosing cell take an unknown or missing case (E0603)?
fn brute_force(t: &Table) -> (bool, bool) {
    use stpc_runtime::table::{Action, Locality, Subject};
    let sizes: Vec<u32> = t
        .dimensions
        .iter()
        .map(|d| u32::try_from(d.values.len()).unwrap_or(0))
        .collect();
    let (nt, nd) = (t.tools.len() as u32, t.destinations.len() as u32);
    let (na, ndl) = (
        t.lattices.args.labels.len() as u32,
        t.lattices.destination.labels.len() as u32,
    );
    let mut p = vec![0u32; sizes.len()];
    let (mut leak, mut open) = (false, false);
    loop {
        let (dest, arg, dlabel) = (p[1], p[3], p[4]);
        // A declared destination has its label (A2), and a tool is only
        // placed at destinations it declares (the runtime places any other
        // as unknown).
        let placed = t.tools.get(p[0] as usize).is_none_or(|tool| {
            dest == nd || tool.destinations.is_empty() || tool.destinations.contains(&dest)
        });
        let feasible = placed
            && t.destinations
                .get(dest as usize)
                .is_none_or(|d| d.label == dlabel);
        if feasible {
            let point = stpc_runtime::Point::new(&p).expect("point");
            let cell =
                &t.cells[stpc_runtime::decide::evaluate_index(t, &point).expect("cell") as usize];
            let discloses = matches!(
                cell.action,
                Action::Allow | Action::Rewrite | Action::Shadow
            );
            if discloses && (p[0] == nt || dest == nd || arg == na || dlabel == ndl) {
                open = true;
            }
            if cell.action == Action::Allow && arg < na {
                let observers: Vec<u32> = match t.destinations.get(dest as usize) {
                    Some(d) => d.observers.clone(),
                    None => (0..t.observers.len() as u32)
                        .filter(|o| t.observers[*o as usize].locality == Locality::External)
                        .collect(),
                };
                for cut in t.forbid.iter().filter(|c| c.subject == Subject::Args) {
                    let sees = |o: &u32| {
                        t.observers[*o as usize]
                            .sees
                            .iter()
                            .any(|c| c == "arguments")
                    };
                    if t.lattices.args.leq(cut.label, arg)
                        && cut
                            .observers
                            .iter()
                            .any(|o| observers.contains(o) && sees(o))
                    {
                        leak = true;
                    }
                }
            }
        }
        let mut i = 0;
        loop {
            let Some(v) = p.get_mut(i) else {
                return (leak, open);
            };
            *v += 1;
            if *v < sizes[i] {
                break;
            }
            *v = 0;
            i += 1;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// `verify` reports every leak and every open case a brute-force scan
    /// of the table finds (its value classes and prefixes lose nothing).
    #[test]
    fn verify_misses_nothing_brute_force_finds(text in contract()) {
        let Some((p, c, t)) = build(&text) else { return Ok(()) };
        let mut d = Diagnostics::new();
        stpc_compiler::verify::verify(&p, &c, &t, &mut d);
        let has = |code: &str| d.iter().any(|x| x.code.as_str() == code);
        let (leak, open) = brute_force(&t);
        prop_assert!(!leak || has("E0601"), "an ALLOW leak that verify missed");
        prop_assert!(!open || has("E0603"), "an open case that verify missed");
        let allow_leak = d.iter().any(|x| x.code.as_str() == "E0601" && x.labels.iter().any(|l| l.message.contains("`allow`")));
        prop_assert!(leak || !allow_leak, "verify reported an ALLOW leak brute force cannot find");
    }
}
