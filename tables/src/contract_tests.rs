//! Running a contract's `test` blocks through the runtime monitor.
//!
//! Each [`hir::Test`] becomes one event submitted to a fresh
//! [`Monitor`] over the table as a runtime loads it (its JSON through the
//! loader's checks), in a task of its own:
//!
//! - the tool by name, the destination by its declared name or as the raw
//!   address the test wrote (the runtime resolves it like any other);
//! - the mode (default `committed`), confidence (default 1.0) and branch;
//! - `after N dispatches of BUDGET`: the monitor is told of `N` earlier
//!   dispatches ([`Monitor::record_prior_dispatches`]), so the budget reads
//!   `exhausted` exactly when `N >= limit`;
//! - `labels { .. }` pins: a label hook replaces the labeler's label field
//!   by field (and for the destination); the argument label is the join of
//!   the field labels, as the monitor computes it;
//! - substitutes: each is the stand-in of `stpc decide`, returning
//!   `{"substitute": NAME}`.
//!
//! What a test checks is what the runtime does on its full path (label,
//! decide, act, re-label a rewrite, fall back when A3 fails at run time),
//! not only the table's cell: a `rewrite` cell whose output still labels at
//! the cut is a BLOCK (or DEFER) with reason `rewrite_insufficient`, and a
//! test expecting `rewrite` fails on it. `expect ... to { .. }` checks the
//! arguments that leave, and `expect labels { .. }` the labels the decision
//! used.

use std::sync::Arc;

use serde_json::{json, Value};
use stpc_runtime::audit::MemorySink;
use stpc_runtime::table::{Action, Table};
use stpc_runtime::{Engine, Monitor, Outcome, ProposedEvent};

use super::event::{LabelNames, NamedLabels};
use stpc_compiler::hir;
use stpc_compiler::Span;

/// What one test expected and what the runtime did.
#[derive(Clone, Debug, PartialEq)]
pub struct TestOutcome {
    /// The test's name.
    pub name: String,
    /// The test block.
    pub span: Span,
    /// The expected action.
    pub expected: Action,
    /// The expected rule (index and name), from `by rule`.
    pub expected_rule: Option<(u32, String)>,
    /// The action the monitor took.
    pub action: Action,
    /// Why (`rule` when the cell's action was carried out; otherwise the
    /// runtime's fallback, such as `rewrite_insufficient`).
    pub reason: String,
    /// The fields a `rewrite_insufficient` fallback names.
    pub reason_fields: Vec<String>,
    /// The deciding rule's index.
    pub rule_id: Option<u32>,
    /// Its name.
    pub rule_name: String,
    /// The cell; `None` when the decision failed closed.
    pub cell: Option<u32>,
    /// The labels the decision used.
    pub labels: LabelNames,
    /// What left: the dispatched arguments of an ALLOW or a REWRITE.
    pub sent: Option<Value>,
    /// Why the labelers labeled the test's call as they did (before pins).
    pub labeling: stpc_runtime::label::Explanation,
    /// Each expectation beyond the action that did not hold (`to`,
    /// `expect labels`), in words.
    pub mismatches: Vec<String>,
    /// Whether the action (and rule, if given), the arguments sent and the
    /// labels all matched.
    pub passed: bool,
}

/// The runtime action of a test's expected action.
#[must_use]
pub fn action_of(kind: hir::ActionKind) -> Action {
    match kind {
        hir::ActionKind::Allow => Action::Allow,
        hir::ActionKind::Block => Action::Block,
        hir::ActionKind::Defer => Action::Defer,
        hir::ActionKind::Rewrite => Action::Rewrite,
        hir::ActionKind::Shadow => Action::Shadow,
    }
}

/// A test argument value as JSON: whole numbers become JSON integers (as an
/// agent would send `5`, not `5.0`), other numbers floats.
#[must_use]
pub fn json_value(v: &hir::Value) -> Value {
    match v {
        hir::Value::Str(s) => Value::String(s.clone()),
        hir::Value::Bool(b) => Value::Bool(*b),
        hir::Value::Number(n) => {
            // INVARIANT: the cast is exact: the value is whole and in range.
            let whole = (n.fract() == 0.0 && n.abs() < 9.0e15).then_some(*n as i64);
            match whole {
                Some(i) => Value::from(i),
                None => serde_json::Number::from_f64(*n).map_or(Value::Null, Value::Number),
            }
        }
        hir::Value::List(items) => Value::Array(items.iter().map(json_value).collect()),
        hir::Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), json_value(v)))
                .collect(),
        ),
    }
}

/// Runs every test of `contract` against `table` (compiled from it).
///
/// # Errors
///
/// The table does not load (a table from `compile` always does).
pub fn run_tests(
    program: &hir::Program,
    contract: &hir::Contract,
    table: Table,
) -> Result<Vec<TestOutcome>, stpc_runtime::LoadError> {
    // Tests run on the table as a runtime loads it: through its JSON and
    // the loader's checks, not the compiler's in-memory value.
    let json = table
        .to_json_pretty()
        .map_err(|_| stpc_runtime::LoadError::Encode)?;
    let engine = Arc::new(Engine::new(Arc::new(Table::from_json(json.as_bytes())?))?);
    Ok(contract
        .tests
        .iter()
        .map(|t| run_test(program, contract, &engine, t))
        .collect())
}

/// A label id a test names, by name, in the table's lattice; an id outside
/// the lattice (which the monitor fails closed on) when the table does not
/// have it.
fn label_id(lattice: &stpc_runtime::table::Lattice, name: &str) -> u32 {
    lattice
        .label_id(name)
        .unwrap_or_else(|| u32::try_from(lattice.labels.len()).unwrap_or(u32::MAX))
}

/// The test's event as the monitor receives it.
fn event_of(program: &hir::Program, test: &hir::Test) -> ProposedEvent {
    let tool = program
        .tool(test.tool)
        .map_or_else(String::new, |t| t.name.clone());
    let destination = match &test.destination {
        Some(hir::TestDest::Named(id)) => program
            .destination(*id)
            .map_or_else(String::new, |d| d.name.clone()),
        Some(hir::TestDest::Address(a)) => a.clone(),
        None => String::new(),
    };
    let mode = test
        .mode
        .and_then(|m| program.modes.get(m.index()))
        .map_or_else(|| "committed".to_owned(), |m| m.name.clone());
    ProposedEvent {
        tool,
        destination,
        mode,
        confidence: test.confidence.unwrap_or(1.0),
        branch: test.branch.clone().unwrap_or_else(|| "test".to_owned()),
        args: Value::Object(
            test.args
                .iter()
                .map(|(k, v)| (k.clone(), json_value(v)))
                .collect(),
        ),
    }
}

/// A monitor for one test: stand-in substitutes, the test's pins as a
/// label hook, its earlier dispatches counted, a task begun.
fn monitor_for(
    program: &hir::Program,
    contract: &hir::Contract,
    engine: &Arc<Engine>,
    test: &hir::Test,
) -> Monitor {
    let table = engine.table();
    let mut monitor = Monitor::with_engine(Arc::clone(engine), Box::new(MemorySink::new()));
    for s in &table.substitutes {
        let name = s.name.clone();
        monitor.register_substitute(
            s.name.clone(),
            Box::new(move |_| json!({ "substitute": name })),
        );
    }
    if !test.labels.is_empty() {
        let mut fields: Vec<(String, u32)> = Vec::new();
        let mut destination = None;
        for (target, label) in &test.labels {
            let name = program.label_name(*label);
            match target {
                hir::LabelTarget::Field(f) => {
                    fields.push((f.clone(), label_id(&table.lattices.args, name)));
                }
                hir::LabelTarget::Destination => {
                    destination = Some(label_id(&table.lattices.destination, name));
                }
            }
        }
        monitor.set_label_hook(Box::new(move |_, labels| {
            for (f, l) in &fields {
                match labels.fields.iter_mut().find(|(n, _)| n == f) {
                    Some(slot) => slot.1 = *l,
                    None => labels.fields.push((f.clone(), *l)),
                }
            }
            if destination.is_some() {
                labels.destination = destination;
            }
        }));
    }
    // A fresh monitor has no task: `begin_task` cannot fail here.
    let _ = monitor.begin_task("test");
    for (id, n) in &test.after {
        if let Some(b) = contract.budgets.get(id.index()) {
            // A budget the table does not carry counts nothing.
            let _ = monitor.record_prior_dispatches(&b.name, *n);
        }
    }
    monitor
}

fn run_test(
    program: &hir::Program,
    contract: &hir::Contract,
    engine: &Arc<Engine>,
    test: &hir::Test,
) -> TestOutcome {
    let table = engine.table();
    let event = event_of(program, test);
    // Why the labelers labeled as they did, for a failure report.
    let dest_id = engine.decider().destination_id(&event.destination);
    let labeling = engine
        .labeler()
        .label_event(&event.tool, &event.args, dest_id, &event.destination, true)
        .explanation;
    let original = event.args.clone();
    let mut monitor = monitor_for(program, contract, engine, test);
    let expected = action_of(test.expect);
    let expected_rule = test.expect_rule.map(|r| {
        let name = contract.rules.get(r.index()).map_or_else(
            || format!("rule_{}", r.0),
            |rule| stpc_compiler::lower::rule_name(rule, r.index()),
        );
        (r.0, name)
    });
    let decided = match monitor.submit(event) {
        Ok(d) => d,
        // A task was begun above; the monitor refuses nothing else.
        Err(e) => {
            return TestOutcome {
                name: test.name.clone(),
                span: test.span,
                expected,
                expected_rule,
                action: Action::Block,
                reason: format!("monitor error: {e}"),
                reason_fields: Vec::new(),
                rule_id: None,
                rule_name: String::new(),
                cell: None,
                labels: stpc_runtime::Labels::default().names(table),
                sent: None,
                labeling,
                mismatches: Vec::new(),
                passed: false,
            }
        }
    };
    let labels = decided.labels().names(table);
    let (action, rule_id, cell) = (decided.action(), decided.rule_id(), decided.cell());
    let rule_name = decided.rule_name().to_owned();
    let reason = decided.reason().code().to_owned();
    let reason_fields = match decided.reason() {
        stpc_runtime::Reason::RewriteInsufficient { fields } => fields.clone(),
        _ => Vec::new(),
    };
    let sent = match decided.into_outcome() {
        Outcome::Dispatch(ticket) => Some(ticket.dispatch().call().args().clone()),
        _ => None,
    };
    let mut mismatches = Vec::new();
    if let Some(want) = &test.expect_to {
        mismatches.extend(sent_mismatches(want, &original, sent.as_ref()));
    }
    for (target, label) in &test.expect_labels {
        let want = program.label_name(*label);
        let (what, got) = match target {
            hir::LabelTarget::Field(f) => (
                format!("field `{f}`"),
                labels.fields.get(f).map_or("<missing>", String::as_str),
            ),
            hir::LabelTarget::Destination => {
                ("the destination".to_owned(), labels.destination.as_str())
            }
        };
        if got != want {
            mismatches.push(format!("{what} was labelled `{got}`, not `{want}`"));
        }
    }
    let rule_ok = expected_rule
        .as_ref()
        .is_none_or(|(id, _)| Some(*id) == rule_id);
    TestOutcome {
        name: test.name.clone(),
        span: test.span,
        expected,
        expected_rule,
        action,
        reason,
        reason_fields,
        rule_id,
        rule_name,
        cell,
        labels,
        sent,
        labeling,
        passed: action == expected && rule_ok && mismatches.is_empty(),
        mismatches,
    }
}

/// How the arguments that left differ from `to { .. }`: each named field
/// must hold its value, every other field must leave as the call had it.
fn sent_mismatches(
    want: &[(String, hir::Value)],
    original: &Value,
    sent: Option<&Value>,
) -> Vec<String> {
    let Some(sent) = sent else {
        return vec!["nothing was dispatched".to_owned()];
    };
    let empty = serde_json::Map::new();
    let sent_map = sent.as_object().unwrap_or(&empty);
    let original_map = original.as_object().unwrap_or(&empty);
    let mut out = Vec::new();
    for (field, v) in want {
        let want = json_value(v);
        match sent_map.get(field) {
            Some(got) if *got == want => {}
            Some(got) => out.push(format!("field `{field}` left as {got}, not {want}")),
            None => out.push(format!("field `{field}` did not leave (expected {want})")),
        }
    }
    for (field, got) in sent_map {
        if want.iter().any(|(f, _)| f == field) {
            continue;
        }
        if original_map.get(field) != Some(got) {
            out.push(format!(
                "field `{field}` was changed to {got}; name it in `to {{ .. }}` if that is expected"
            ));
        }
    }
    out
}
