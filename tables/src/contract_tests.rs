//! Running a contract's `test` blocks against its compiled table.
//!
//! Each [`hir::Test`] becomes one runtime query:
//!
//! - the tool by name, the destination by its declared name or as the raw
//!   address the test wrote (the runtime resolves it like any other);
//! - the mode (default `committed`) and confidence (default 1.0);
//! - `after N dispatches of BUDGET`: the budget reads `exhausted` exactly
//!   when `N >= limit`; budgets the test does not mention are `available`;
//! - the labels: the table's labeler runs on the arguments and the
//!   destination, then `labels { .. }` pins override it field by field (and
//!   for the destination); the argument label is the join of the field
//!   labels after pinning, as the labeler computes it.
//!
//! The query goes through [`Decider::decide`], the same lookup the monitor
//! uses, so a test checks the table the runtime will load, not the source.

use std::sync::Arc;

use serde_json::Value;
use stpc_runtime::decide::{LabelsIn, Query};
use stpc_runtime::table::{Action, Table};
use stpc_runtime::Engine;

use super::event::{LabelIds, LabelNames, NamedLabels};
use stpc_compiler::hir;
use stpc_compiler::Span;

/// What one test expected and what the table decided.
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
    /// The decided action.
    pub action: Action,
    /// The deciding rule's index.
    pub rule_id: Option<u32>,
    /// Its name.
    pub rule_name: String,
    /// The cell; `None` when the decision failed closed.
    pub cell: Option<u32>,
    /// The labels the query used.
    pub labels: LabelNames,
    /// Why the labelers labeled the test's call as they did (before pins).
    pub labeling: stpc_runtime::label::Explanation,
    /// Whether the action (and rule, if given) matched.
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
/// The table's labelers do not compile (a table from `compile` always does).
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
    let engine = Engine::new(Arc::new(Table::from_json(json.as_bytes())?))?;
    Ok(contract
        .tests
        .iter()
        .map(|t| run_test(program, contract, &engine, t))
        .collect())
}

fn label_name(program: &hir::Program, id: hir::LabelId) -> &str {
    program.label_name(id)
}

fn run_test(
    program: &hir::Program,
    contract: &hir::Contract,
    engine: &Engine,
    test: &hir::Test,
) -> TestOutcome {
    let table = engine.table();
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
    let confidence = test.confidence.unwrap_or(1.0);
    let args = Value::Object(
        test.args
            .iter()
            .map(|(k, v)| (k.clone(), json_value(v)))
            .collect(),
    );
    // Labels: the labeler, then the pins.
    let decider = engine.decider();
    let dest_id = decider.destination_id(&destination);
    let labeled = engine
        .labeler()
        .label_event(&tool, &args, dest_id, &destination, true);
    let computed = labeled.labels;
    let mut fields = computed.fields.clone();
    let mut dest_label = computed.destination;
    let mut pinned_invalid = false;
    for (target, label) in &test.labels {
        let name = label_name(program, *label);
        match target {
            hir::LabelTarget::Field(f) => match table.lattices.args.label_id(name) {
                Some(id) => match fields.iter_mut().find(|(n, _)| n == f) {
                    Some(slot) => slot.1 = id,
                    None => fields.push((f.clone(), id)),
                },
                None => pinned_invalid = true,
            },
            hir::LabelTarget::Destination => match table.lattices.destination.label_id(name) {
                Some(id) => dest_label = Some(id),
                None => pinned_invalid = true,
            },
        }
    }
    let lattice = &table.lattices.args;
    let args_label = if test
        .labels
        .iter()
        .any(|(t, _)| matches!(t, hir::LabelTarget::Field(_)))
    {
        Some(fields.iter().fold(lattice.bottom, |acc, (_, l)| {
            lattice.join(acc, *l).unwrap_or(acc.max(*l))
        }))
    } else {
        computed.args
    };
    let ids = LabelIds {
        args: args_label,
        destination: dest_label,
        fields,
    };
    // Budgets: exhausted exactly when the dispatches reach the limit.
    let budgets: Vec<bool> = table
        .budgets
        .iter()
        .map(|b| {
            test.after.iter().any(|(id, n)| {
                contract
                    .budgets
                    .get(id.index())
                    .is_some_and(|cb| cb.name == b.name && *n >= b.limit)
            })
        })
        .collect();
    let field_refs = ids.field_refs();
    let q = Query {
        tool: &tool,
        destination: &destination,
        mode: &mode,
        confidence,
        labels: LabelsIn {
            args: ids.args,
            destination: ids.destination,
            fields: &field_refs,
        },
        budgets_exhausted: &budgets,
    };
    let d = if pinned_invalid {
        stpc_runtime::Decision::fail_closed()
    } else {
        decider.decide(&q)
    };
    let expected = action_of(test.expect);
    let expected_rule = test.expect_rule.map(|r| {
        let name = contract.rules.get(r.index()).map_or_else(
            || format!("rule_{}", r.0),
            |rule| stpc_compiler::lower::rule_name(rule, r.index()),
        );
        (r.0, name)
    });
    let rule_ok = expected_rule
        .as_ref()
        .is_none_or(|(id, _)| Some(*id) == d.rule_id);
    TestOutcome {
        name: test.name.clone(),
        span: test.span,
        expected,
        expected_rule,
        action: d.action,
        rule_id: d.rule_id,
        rule_name: d.rule_name.to_owned(),
        cell: d.cell,
        labels: ids.names(table),
        labeling: labeled.explanation,
        passed: d.action == expected && rule_ok,
    }
}
